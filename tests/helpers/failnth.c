// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: run one operation with the N-th allocation of this task made
 * to fail (/proc/thread-self/fail-nth, CONFIG_FAULT_INJECTION), and say
 * whether the fault was injected and what the operation returned.
 *
 * usage: failnth N mkdir DIR
 *        failnth N netns
 *        failnth N tcp CGROUP
 *        failnth N write FILE VALUE
 *        failnth N netns-write CGROUP FILE VALUE
 *
 *   mkdir:       mkdir(DIR), then rmdir it if it was made
 *   netns:       unshare(CLONE_NEWNET); the namespace dies with the helper
 *   tcp:         in CGROUP, a loopback connection: socket, connect, accept,
 *                and 256 KiB sent each way; then all closed
 *   write:       one write(2) of VALUE to FILE (opened before the fault)
 *   netns-write: the same from a new network namespace, in CGROUP (for
 *                net.ipv4.tcp_mem, which sets the writer's cgroup's
 *                thresholds too)
 *
 * Everything the operation needs beforehand (joining the cgroup, the
 * listener, opening the file) is done before the fault is armed, so only
 * the operation's own allocations are counted.  The fault counter is
 * read back through the fd it was armed with, since opening a file
 * allocates.  Prints one line, "injected=yes|no result=ok|ERRNO", and
 * exits 0; 1 only when it cannot run the operation at all.  The sweep
 * (tests/fault-injection-sweep.sh) stops at the first N not injected.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "helper-util.h"

#define TRAFFIC (256 * 1024)

static int fail_fd;

static void arm(unsigned int n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_fd, buf, len, 0) != len)
		die("arm fail-nth");
}

/* Disarm; true if the fault was injected (the counter reads 0). */
static int disarm(void)
{
	char buf[32] = "";
	int injected;

	if (pread(fail_fd, buf, sizeof(buf) - 1, 0) <= 0)
		die("read fail-nth");
	injected = atoi(buf) == 0;
	if (pwrite(fail_fd, "0", 1, 0) != 1)
		die("disarm fail-nth");
	return injected;
}

static int report(int injected, int err)
{
	printf("injected=%s result=%s\n", injected ? "yes" : "no",
	       err ? strerrorname_np(err) : "ok");
	return 0;
}

static int set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = 5 };

	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return errno;
	return 0;
}

/*
 * Send @len bytes on @a, receive them on @b; 0 or an errno.  A send that
 * found no memory (the injected fault) is retried; the receive waits only
 * for bytes that were sent.
 */
static int transfer(int a, int b, size_t len)
{
	static char buf[65536];
	size_t sent = 0, got = 0;
	int idle = 0;

	while (got < len) {
		if (sent < len) {
			size_t chunk = len - sent < sizeof(buf) ? len - sent : sizeof(buf);
			ssize_t r = send(a, buf, chunk, MSG_DONTWAIT);

			if (r > 0)
				sent += r;
			else if (r < 0 && errno != EAGAIN && errno != ENOMEM)
				return errno;
		}
		if (sent == got) {
			if (++idle > 1000)
				return EAGAIN;
			continue;
		}
		ssize_t r = recv(b, buf, sizeof(buf), 0);

		if (r == 0)
			return ECONNRESET;
		if (r < 0)
			return errno;
		got += r;
	}
	return 0;
}

/* The connection's syscalls, under the armed fault; 0 or an errno. */
static int tcp_op(int lfd, const struct sockaddr_in *addr, int *cfd, int *afd)
{
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	int err;

	*cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (*cfd < 0)
		return errno;
	err = set_timeouts(*cfd);
	if (err)
		return err;
	if (connect(*cfd, (const struct sockaddr *)addr, sizeof(*addr)))
		return errno;
	/* The handshake completed in softirq; accept finds the child. */
	if (poll(&pfd, 1, 5000) != 1)
		return ETIMEDOUT;
	*afd = accept(lfd, NULL, NULL);
	if (*afd < 0)
		return errno;
	err = set_timeouts(*afd);
	if (err)
		return err;
	err = transfer(*cfd, *afd, TRAFFIC);
	return err ? err : transfer(*afd, *cfd, TRAFFIC);
}

static int run_tcp(unsigned int n, const char *cgroup)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	int lfd, cfd = -1, afd = -1, err, injected;

	join_cgroup(cgroup);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(lfd, 4) ||
	    getsockname(lfd, (struct sockaddr *)&addr, &alen))
		die("listener");

	arm(n);
	err = tcp_op(lfd, &addr, &cfd, &afd);
	injected = disarm();
	if (cfd >= 0)
		close(cfd);
	if (afd >= 0)
		close(afd);
	close(lfd);
	return report(injected, err);
}

int main(int argc, char **argv)
{
	unsigned int n;
	int err = 0, injected, fd;
	const char *op;

	if (argc < 3)
		goto usage;
	n = strtoul(argv[1], NULL, 10);
	op = argv[2];
	if (!n)
		goto usage;
	fail_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_fd < 0)
		die("/proc/thread-self/fail-nth");

	if (!strcmp(op, "mkdir") && argc == 4) {
		arm(n);
		if (mkdir(argv[3], 0755))
			err = errno;
		injected = disarm();
		if (!err && rmdir(argv[3]))
			die("rmdir after mkdir");
		return report(injected, err);
	}
	if (!strcmp(op, "netns") && argc == 3) {
		arm(n);
		if (unshare(CLONE_NEWNET))
			err = errno;
		injected = disarm();
		return report(injected, err);
	}
	if (!strcmp(op, "tcp") && argc == 4)
		return run_tcp(n, argv[3]);
	if ((!strcmp(op, "write") && argc == 5) ||
	    (!strcmp(op, "netns-write") && argc == 6)) {
		const char *file = argv[argc - 2], *value = argv[argc - 1];
		ssize_t len = strlen(value);

		if (argc == 6) {
			join_cgroup(argv[3]);
			if (unshare(CLONE_NEWNET))
				die("unshare(CLONE_NEWNET)");
		}
		fd = open(file, O_WRONLY);
		if (fd < 0)
			die(file);
		errno = 0;
		arm(n);
		if (write(fd, value, len) != len)
			err = errno ? errno : EIO;
		injected = disarm();
		close(fd);
		return report(injected, err);
	}
usage:
	fprintf(stderr, "usage: failnth N mkdir DIR | netns | tcp CGROUP |"
		" write FILE VALUE | netns-write CGROUP FILE VALUE\n");
	return 2;
}
