// SPDX-License-Identifier: GPL-2.0
/*
 * tcpbench - fixed amounts of loopback TCP work, timed by the guest clock.
 *
 * usage: tcpbench WORKLOAD COUNT RUNS
 *
 *   stream COUNT   one connection carries COUNT MiB, in 64 KiB writes
 *   rr COUNT       COUNT round trips of connect, accept, a 64-byte request
 *                  and answer, close
 *   many COUNT     COUNT connections opened, each given 64 KiB, then all
 *                  drained, then closed (the open-file limit is raised to
 *                  hold 2 * COUNT sockets)
 *
 * The workload runs once to warm up, then RUNS times; each timed run prints
 *   WORKLOAD RUN NS BYTES
 * with the CLOCK_MONOTONIC nanoseconds it took and the bytes it moved.
 * Under QEMU's -icount shift=0 the guest clock counts instructions, so NS
 * measures the work the kernel did, not the host's load.
 *
 * Everything runs in one process with non-blocking sockets, the sender
 * and the receiver taking turns in a fixed order: the same run does the
 * same system calls every time, with no scheduler in between.  Exit
 * status 1 with a message when anything fails or the bytes do not match.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64 * 1024)
#define MANY_BYTES (64 * 1024)
#define RR_BYTES 64

static char buf[CHUNK];

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void set_nonblock(int fd)
{
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0)
		die("fcntl");
}

static int listener(struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int one = 1;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) < 0)
		die("bind");
	if (listen(fd, 1024) < 0)
		die("listen");
	if (getsockname(fd, (struct sockaddr *)addr, &len) < 0)
		die("getsockname");
	return fd;
}

/* a connected pair: *c the client end, *s the accepted end */
static void pair(int lfd, struct sockaddr_in *addr, int *c, int *s)
{
	*c = socket(AF_INET, SOCK_STREAM, 0);
	if (*c < 0)
		die("socket");
	/* on loopback the handshake completes within connect() */
	if (connect(*c, (struct sockaddr *)addr, sizeof(*addr)) < 0)
		die("connect");
	*s = accept(lfd, NULL, NULL);
	if (*s < 0)
		die("accept");
}

/* write up to len bytes without blocking; return how many went */
static long push(int fd, long len)
{
	long done = 0;

	while (done < len) {
		long n = write(fd, buf, len - done < CHUNK ? len - done : CHUNK);

		if (n < 0) {
			if (errno == EAGAIN)
				break;
			die("write");
		}
		done += n;
	}
	return done;
}

/* read whatever is queued without blocking; return how much */
static long drain(int fd)
{
	long done = 0;

	for (;;) {
		long n = read(fd, buf, CHUNK);

		if (n < 0) {
			if (errno == EAGAIN)
				break;
			die("read");
		}
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

static long stream(int lfd, struct sockaddr_in *addr, long mib)
{
	long total = mib << 20, sent = 0, got = 0;
	int c, s;

	pair(lfd, addr, &c, &s);
	set_nonblock(c);
	set_nonblock(s);
	while (got < total) {
		sent += push(c, total - sent);
		got += drain(s);
	}
	close(c);
	close(s);
	return got;
}

static long rr(int lfd, struct sockaddr_in *addr, long count)
{
	long moved = 0, i;
	int c, s;

	for (i = 0; i < count; i++) {
		pair(lfd, addr, &c, &s);
		if (write(c, buf, RR_BYTES) != RR_BYTES ||
		    read(s, buf, RR_BYTES) != RR_BYTES ||
		    write(s, buf, RR_BYTES) != RR_BYTES ||
		    read(c, buf, RR_BYTES) != RR_BYTES)
			die("round trip");
		moved += 2 * RR_BYTES;
		/*
		 * An abortive close: no TIME_WAIT, so every run starts
		 * from the same socket tables.
		 */
		setsockopt(c, SOL_SOCKET, SO_LINGER,
			   &(struct linger){ .l_onoff = 1, .l_linger = 0 },
			   sizeof(struct linger));
		close(c);
		close(s);
	}
	return moved;
}

static long many(int lfd, struct sockaddr_in *addr, long count)
{
	int *c = calloc(count, sizeof(int)), *s = calloc(count, sizeof(int));
	long moved = 0, i, left;

	if (!c || !s)
		die("calloc");
	for (i = 0; i < count; i++) {
		pair(lfd, addr, &c[i], &s[i]);
		set_nonblock(c[i]);
		set_nonblock(s[i]);
	}
	/* fill every connection first, so that all of it is charged at once */
	for (i = 0; i < count; i++)
		if (push(c[i], MANY_BYTES) != MANY_BYTES) {
			fprintf(stderr, "many: connection %ld took less than %d bytes\n",
				i, MANY_BYTES);
			exit(1);
		}
	for (i = 0; i < count; i++) {
		for (left = MANY_BYTES; left > 0; ) {
			long n = drain(s[i]);

			if (n == 0) {
				fprintf(stderr, "many: connection %ld: %ld bytes missing\n",
					i, left);
				exit(1);
			}
			left -= n;
			moved += n;
		}
	}
	for (i = 0; i < count; i++) {
		setsockopt(c[i], SOL_SOCKET, SO_LINGER,
			   &(struct linger){ .l_onoff = 1, .l_linger = 0 },
			   sizeof(struct linger));
		close(c[i]);
		close(s[i]);
	}
	free(c);
	free(s);
	return moved;
}

/* many COUNT holds 2 * COUNT sockets open: more than the default 1024 */
static void allow_files(long count)
{
	struct rlimit rl;
	rlim_t want = 2 * count + 16;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		die("getrlimit");
	if (rl.rlim_cur >= want)
		return;
	rl.rlim_cur = want;
	if (rl.rlim_max < want)
		rl.rlim_max = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		die("setrlimit RLIMIT_NOFILE");
}

int main(int argc, char **argv)
{
	long (*work)(int, struct sockaddr_in *, long);
	struct sockaddr_in addr;
	long count, runs, run, bytes, expect = -1;
	int lfd;

	if (argc != 4) {
		fprintf(stderr, "usage: tcpbench stream|rr|many COUNT RUNS\n");
		return 2;
	}
	if (!strcmp(argv[1], "stream"))
		work = stream;
	else if (!strcmp(argv[1], "rr"))
		work = rr;
	else if (!strcmp(argv[1], "many"))
		work = many;
	else {
		fprintf(stderr, "tcpbench: no workload '%s'\n", argv[1]);
		return 2;
	}
	count = strtol(argv[2], NULL, 10);
	runs = strtol(argv[3], NULL, 10);
	if (count <= 0 || runs <= 0) {
		fprintf(stderr, "tcpbench: COUNT and RUNS must be positive\n");
		return 2;
	}

	if (work == many)
		allow_files(count);
	memset(buf, 'x', sizeof(buf));
	lfd = listener(&addr);
	for (run = 0; run <= runs; run++) {
		long long t0 = now_ns(), t1;

		bytes = work(lfd, &addr, count);
		t1 = now_ns();
		if (expect >= 0 && bytes != expect) {
			fprintf(stderr, "tcpbench: run %ld moved %ld bytes, not %ld\n",
				run, bytes, expect);
			return 1;
		}
		expect = bytes;
		if (run > 0)	/* run 0 warms up */
			printf("%s %ld %lld %ld\n", argv[1], run, t1 - t0, bytes);
	}
	close(lfd);
	return 0;
}
