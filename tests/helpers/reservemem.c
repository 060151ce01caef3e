// SPDX-License-Identifier: GPL-2.0
/*
 * reservemem - reserve socket memory with SO_RESERVE_MEM and say what the
 * kernel answered.
 *
 * usage: reservemem [-g CGROUP] BYTES
 *
 * Joins CGROUP (a cgroup directory) if given, creates a TCP socket there
 * (the memory cgroup it is accounted to is decided at creation), and asks
 * for BYTES of reserved memory.  Prints "OK" or the errno's name
 * ("EOPNOTSUPP", "ENOMEM", ...); exit status 0 for OK, 1 otherwise.  The
 * socket is closed on exit, which gives the reservation back.
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <sys/socket.h>

#include "helper-util.h"

#ifndef SO_RESERVE_MEM
#define SO_RESERVE_MEM 73
#endif

int main(int argc, char **argv)
{
	const char *cgroup = NULL;
	char *end;
	long bytes;
	int fd, opt, val;

	while ((opt = getopt(argc, argv, "g:")) != -1) {
		if (opt != 'g')
			goto usage;
		cgroup = optarg;
	}
	if (argc - optind != 1)
		goto usage;
	errno = 0;
	bytes = strtol(argv[optind], &end, 10);
	if (errno || *end || end == argv[optind] || bytes <= 0 || bytes > 1L << 30)
		goto usage;

	if (cgroup)
		join_cgroup(cgroup);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	val = bytes;
	if (setsockopt(fd, SOL_SOCKET, SO_RESERVE_MEM, &val, sizeof(val)) < 0) {
		const char *name = strerrorname_np(errno);

		printf("%s\n", name ? name : "UNKNOWN");
		return 1;
	}
	printf("OK\n");
	close(fd);
	return 0;

usage:
	fprintf(stderr, "usage: reservemem [-g CGROUP] BYTES\n");
	return 1;
}
