// SPDX-License-Identifier: GPL-2.0
/*
 * tcphold - the two ends of a TCP fill across a container's boundary.
 *
 * usage: tcphold listen PORT
 *        tcphold send ADDR PORT CONNS
 *
 *   listen  accept every connection to PORT (any address) and never read
 *           from it: a receiver whose queues fill and whose window closes,
 *           so that a sender's data stays queued on the sender's side
 *   send    open CONNS connections to ADDR:PORT (IPv4) and send on each
 *           until it stays unwritable for 500 ms: what is left queued is
 *           the sender's, charged to the sender's cgroup
 *
 * Each prints one line once it is ready ("listening port=PORT", or
 * "filled conns=N sent=BYTES") and then holds its sockets until SIGTERM or
 * SIGINT, so that the cgroup files can be read while the memory is held.
 * On the signal it closes every socket and exits 0 (the kernel frees the
 * unread data at once).  Exit status 1 on any error, with a message.
 *
 * A static helper, so that the same binary runs on the host and inside a
 * container whatever its root holds.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64 * 1024)
#define MAX_CONNS 1024
#define STUCK_MS 500

static volatile sig_atomic_t stop;
/* the mask to wait with: SIGTERM and SIGINT are blocked everywhere else,
 * so that one arriving between a test of stop and the wait is not lost
 */
static sigset_t wait_mask;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "tcphold: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: tcphold listen PORT\n"
			"       tcphold send ADDR PORT CONNS\n");
	exit(1);
}

static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		usage();
	return v;
}

/* Block until SIGTERM or SIGINT, accepting on @lfd if it is not -1. */
static void hold(int lfd)
{
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };

	while (!stop) {
		if (lfd < 0) {
			sigsuspend(&wait_mask);
			continue;
		}
		if (ppoll(&pfd, 1, NULL, &wait_mask) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		/* kept open, never read, never closed until exit */
		if (accept(lfd, NULL, NULL) < 0 && errno != EINTR)
			die("accept");
	}
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* Send until nothing more has gone for STUCK_MS, measured by the clock:
 * POLLOUT alone could be reported while every send is refused.
 */
static long fill(int fd)
{
	static char buf[CHUNK];
	long sent = 0, last = now_ms();

	memset(buf, 'x', sizeof(buf));
	while (now_ms() - last < STUCK_MS) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		ssize_t n = send(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n > 0) {
			sent += n;
			last = now_ms();
			continue;
		}
		if (n < 0 && errno != EAGAIN)
			die("send");
		if (poll(&pfd, 1, STUCK_MS / 10) < 0)
			die("poll");
	}
	return sent;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	sigset_t block;
	long total = 0;
	int conns, i;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGTERM);
	sigdelset(&wait_mask, SIGINT);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (argc == 3 && !strcmp(argv[1], "listen")) {
		int one = 1, lfd;

		sin.sin_port = htons(parse_num(argv[2], 1, 65535));
		sin.sin_addr.s_addr = htonl(INADDR_ANY);
		lfd = socket(AF_INET, SOCK_STREAM, 0);
		if (lfd < 0)
			die("socket");
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) < 0)
			die("bind");
		if (listen(lfd, MAX_CONNS) < 0)
			die("listen");
		printf("listening port=%s\n", argv[2]);
		fflush(stdout);
		hold(lfd);
		return 0;
	}
	if (argc != 5 || strcmp(argv[1], "send"))
		usage();
	if (inet_pton(AF_INET, argv[2], &sin.sin_addr) != 1)
		usage();
	sin.sin_port = htons(parse_num(argv[3], 1, 65535));
	conns = parse_num(argv[4], 1, MAX_CONNS);
	for (i = 0; i < conns; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			die("socket");
		if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0)
			die("connect");
		total += fill(fd);
	}
	printf("filled conns=%d sent=%ld\n", conns, total);
	fflush(stdout);
	hold(-1);
	return 0;
}
