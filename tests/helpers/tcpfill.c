// SPDX-License-Identifier: GPL-2.0
/*
 * tcpfill - open loopback TCP connections and fill their buffers.
 *
 * usage: tcpfill [-6] [-U] [-M] [-S c|l|cl] [-c CONNS] [-b BYTES]
 *                [-g CGROUP] [-C CGROUP] [-a CGROUP] [-r BYTES] [-t MS]
 *                [-P] [-W] [-H]
 *
 *   -6         use ::1 instead of 127.0.0.1
 *   -M         MPTCP (IPPROTO_MPTCP) instead of plain TCP
 *   -S WHICH   SMC (AF_SMC) instead of plain TCP for the clients (c), the
 *              listener and so the accepted sockets (l), or both (cl).
 *              Addresses stay IPv4 or IPv6 ones.  Where neither side has
 *              an RDMA or ISM device, or the peer is plain TCP, SMC falls
 *              back to TCP: the data flows through a TCP socket the kernel
 *              makes for each SMC socket, and accepts for a listener
 *   -U         UDP instead of TCP: each "connection" is a sender and a
 *              receiver that never reads; the sender sends -b bytes
 *              (default 512 KiB, more than the receive buffer holds) in
 *              1400-byte datagrams
 *   -c CONNS   number of connections (default 1)
 *   -b BYTES   stop sending on a connection after BYTES (default: until
 *              the socket stays unwritable for -t milliseconds)
 *   -g CGROUP  move into this cgroup directory (its cgroup.procs) before
 *              any socket is created, so that every socket - listener,
 *              client and accepted - belongs to that cgroup
 *   -C CGROUP  move into this cgroup directory once the listener is made,
 *              before the clients are: the listener (with -g, in that
 *              cgroup) and the clients are in different cgroups
 *   -a CGROUP  connect every client first, then move into this cgroup
 *              directory and accept: the accepted (server) sockets belong
 *              to it, the clients to the cgroup tcpfill started in
 *   -r BYTES   SO_RCVBUF of the listener, which accepted sockets inherit
 *   -t MS      how long a full socket may stay unwritable before its
 *              connection counts as filled (default 200)
 *   -P         prefill: fill every connection (TCP) before any is
 *              accepted, so that what each server socket received is in
 *              it when accept() returns; usually with -b
 *   -W         wait: once every connection is made (TCP), print
 *              "connected conns=N" and read standard input up to a newline
 *              or end of file before filling, so that the sockets are
 *              made in one cgroup and filled once the test is ready (the
 *              task may have moved meanwhile: its sockets stay where they
 *              were made).  With -P, once every connection is filled and
 *              before any is accepted, print "queued conns=N sent=BYTES"
 *              and wait the same way, so that the test sees what the
 *              listen backlog holds
 *   -H         hold: once filled, print "filled ..." and keep every socket
 *              open until standard input reaches end of file
 *
 * The receiving side never reads, so the data sits in the receiver's queue
 * and then in the sender's: the memory a test wants charged.  On exit
 * (and on release with -H) every socket is closed with unread data, so
 * the kernel frees it at once.
 *
 * Prints one line "filled conns=N sent=BYTES" and, with -H, "closed" after
 * release.  Exit status 0 on success, 1 on any error (with a message).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef AF_SMC
#define AF_SMC 43
#endif
/* SMC's protocols: which address family its TCP socket uses */
#define SMCPROTO_SMC 0
#define SMCPROTO_SMC6 1

#define CHUNK (64 * 1024)
#define MAX_CONNS 4096

static void die(const char *what)
{
	fprintf(stderr, "tcpfill: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: tcpfill [-6] [-U] [-M] [-S c|l|cl] [-c CONNS] [-b BYTES]\n"
		"               [-g CGROUP] [-C CGROUP] [-a CGROUP] [-r BYTES] [-t MS]\n"
		"               [-P] [-W] [-H]\n");
	exit(1);
}

static long parse_num(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < 0 || v > max)
		usage();
	return v;
}

static void join_cgroup(const char *dir)
{
	char path[4096], pid[32];
	int fd, len;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(path);
	len = snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (write(fd, pid, len) != len)
		die(path);
	close(fd);
}

/* Send until the budget is spent or the socket stays full for timeout_ms. */
static long fill(int fd, long budget, int timeout_ms)
{
	static char buf[CHUNK];
	long sent = 0;

	memset(buf, 'x', sizeof(buf));
	while (budget < 0 || sent < budget) {
		size_t len = sizeof(buf);
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		ssize_t n;

		if (budget >= 0 && (long)len > budget - sent)
			len = budget - sent;
		n = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n > 0) {
			sent += n;
			continue;
		}
		if (n < 0 && errno != EAGAIN)
			die("send");
		n = poll(&pfd, 1, timeout_ms);
		if (n < 0)
			die("poll");
		if (n == 0)
			break;
	}
	return sent;
}

/* Send @budget bytes of datagrams from @fd; loopback drops what the
 * receiver has no room for, so this never blocks. */
static long fill_udp(int fd, long budget)
{
	static char buf[1400];
	long sent = 0;

	memset(buf, 'u', sizeof(buf));
	while (sent < budget) {
		ssize_t n = send(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0 && errno != EAGAIN && errno != ENOBUFS)
			die("send");
		sent += sizeof(buf);
	}
	return sent;
}

/* Flush what was printed, then read standard input up to a newline or
 * end of file: the test's go-ahead.
 */
static void wait_line(void)
{
	char c;

	fflush(stdout);
	while (read(STDIN_FILENO, &c, 1) > 0 && c != '\n')
		;
}

int main(int argc, char **argv)
{
	static int clients[MAX_CONNS], servers[MAX_CONNS];
	struct sockaddr_storage ss;
	socklen_t sslen;
	int family = AF_INET, conns = 1, timeout_ms = 200, hold = 0, udp = 0;
	int wait_start = 0, prefill = 0;
	const char *cgroup = NULL, *accept_cgroup = NULL, *client_cgroup = NULL;
	long budget = -1, total = 0, rcvbuf = 0;
	int lfd, opt, i, proto = 0;
	int smc_clients = 0, smc_listener = 0;
	int cfamily, cproto, lfamily, lproto;

	while ((opt = getopt(argc, argv, "6UMS:c:b:g:C:a:r:t:PWH")) != -1) {
		switch (opt) {
		case '6':
			family = AF_INET6;
			break;
		case 'U':
			udp = 1;
			break;
		case 'M':
			proto = IPPROTO_MPTCP;
			break;
		case 'S':
			smc_clients = !strcmp(optarg, "c") || !strcmp(optarg, "cl");
			smc_listener = !strcmp(optarg, "l") || !strcmp(optarg, "cl");
			if (!smc_clients && !smc_listener)
				usage();
			break;
		case 'C':
			client_cgroup = optarg;
			break;
		case 'a':
			accept_cgroup = optarg;
			break;
		case 'r':
			rcvbuf = parse_num(optarg, 1L << 30);
			break;
		case 'c':
			conns = parse_num(optarg, MAX_CONNS);
			break;
		case 'b':
			budget = parse_num(optarg, 1L << 40);
			break;
		case 'g':
			cgroup = optarg;
			break;
		case 't':
			timeout_ms = parse_num(optarg, 60000);
			break;
		case 'P':
			prefill = 1;
			break;
		case 'W':
			wait_start = 1;
			break;
		case 'H':
			hold = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || conns < 1 ||
	    (udp && (proto || accept_cgroup || client_cgroup || wait_start ||
		     prefill)) ||
	    ((smc_clients || smc_listener) && (udp || proto)))
		usage();

	if (cgroup)
		join_cgroup(cgroup);

	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sslen = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_loopback;
		sslen = sizeof(*sin6);
	}

	if (udp) {
		if (budget < 0)
			budget = 512 * 1024;
		for (i = 0; i < conns; i++) {
			socklen_t len = sslen;
			struct sockaddr_storage to = ss;

			servers[i] = socket(family, SOCK_DGRAM, 0);
			clients[i] = socket(family, SOCK_DGRAM, 0);
			if (servers[i] < 0 || clients[i] < 0)
				die("socket");
			if (bind(servers[i], (struct sockaddr *)&to, len) < 0)
				die("bind");
			if (getsockname(servers[i], (struct sockaddr *)&to, &len) < 0)
				die("getsockname");
			if (connect(clients[i], (struct sockaddr *)&to, len) < 0)
				die("connect");
			total += fill_udp(clients[i], budget);
		}
		lfd = -1;
		goto filled;
	}

	cfamily = lfamily = family;
	cproto = lproto = proto;
	if (smc_clients) {
		cfamily = AF_SMC;
		cproto = family == AF_INET ? SMCPROTO_SMC : SMCPROTO_SMC6;
	}
	if (smc_listener) {
		lfamily = AF_SMC;
		lproto = family == AF_INET ? SMCPROTO_SMC : SMCPROTO_SMC6;
	}
	lfd = socket(lfamily, SOCK_STREAM, lproto);
	if (lfd < 0)
		die("socket");
	if (rcvbuf) {
		int val = rcvbuf;

		if (setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &val, sizeof(val)) < 0)
			die("SO_RCVBUF");
	}
	if (bind(lfd, (struct sockaddr *)&ss, sslen) < 0)
		die("bind");
	if (listen(lfd, conns) < 0)
		die("listen");
	if (getsockname(lfd, (struct sockaddr *)&ss, &sslen) < 0)
		die("getsockname");
	if (client_cgroup)
		join_cgroup(client_cgroup);

	for (i = 0; i < conns; i++) {
		clients[i] = socket(cfamily, SOCK_STREAM, cproto);
		if (clients[i] < 0)
			die("socket");
		if (connect(clients[i], (struct sockaddr *)&ss, sslen) < 0)
			die("connect");
		if (accept_cgroup || prefill)
			continue;	/* accepted below */
		servers[i] = accept(lfd, NULL, NULL);
		if (servers[i] < 0)
			die("accept");
	}
	if (prefill)
		for (i = 0; i < conns; i++)
			total += fill(clients[i], budget, timeout_ms);
	if (prefill && wait_start) {
		printf("queued conns=%d sent=%ld\n", conns, total);
		wait_line();
	}
	if (accept_cgroup || prefill) {
		/* the listen backlog holds every connection meanwhile */
		if (accept_cgroup)
			join_cgroup(accept_cgroup);
		for (i = 0; i < conns; i++) {
			servers[i] = accept(lfd, NULL, NULL);
			if (servers[i] < 0)
				die("accept");
		}
	}
	if (wait_start && !prefill) {
		printf("connected conns=%d\n", conns);
		wait_line();
	}
	for (i = 0; !prefill && i < conns; i++)
		total += fill(clients[i], budget, timeout_ms);

filled:
	printf("filled conns=%d sent=%ld\n", conns, total);
	fflush(stdout);

	if (hold) {
		char c;

		while (read(STDIN_FILENO, &c, 1) > 0)
			;
	}
	for (i = 0; i < conns; i++) {
		close(clients[i]);
		close(servers[i]);
	}
	if (lfd >= 0)
		close(lfd);
	if (hold)
		printf("closed\n");
	return 0;
}
