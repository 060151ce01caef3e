// SPDX-License-Identifier: GPL-2.0
/*
 * eventwait - wait until the kernel notifies a change of a cgroup file
 *
 * usage: eventwait [-i] FILE SECONDS
 *
 * Opens FILE and reads it (kernfs arms its notification on a read), prints
 * "armed" and flushes, then waits up to SECONDS: with poll(2) for POLLPRI,
 * how cgroup v2's event files (memory.events, ...) wake their watchers,
 * or with -i for an inotify IN_MODIFY on FILE.  Prints "changed" and exits
 * 0 when woken, "timeout" and exits 1 otherwise.  A test starts it in the
 * background, waits for "armed", then causes the event.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/inotify.h>

#include "helper-util.h"

int main(int argc, char **argv)
{
	int use_inotify = 0, fd, watch_fd = -1, ret;
	struct pollfd pfd;
	char buf[4096];
	long seconds;
	char *end;

	if (argc == 4 && !strcmp(argv[1], "-i")) {
		use_inotify = 1;
		argv++;
		argc--;
	}
	if (argc != 3)
		goto usage;
	seconds = strtol(argv[2], &end, 10);
	if (*end || end == argv[2] || seconds <= 0 || seconds > 3600)
		goto usage;

	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		die(argv[1]);
	if (read(fd, buf, sizeof(buf)) < 0)
		die(argv[1]);
	if (use_inotify) {
		watch_fd = inotify_init1(IN_CLOEXEC);
		if (watch_fd < 0)
			die("inotify_init1");
		if (inotify_add_watch(watch_fd, argv[1], IN_MODIFY) < 0)
			die(argv[1]);
		pfd.fd = watch_fd;
		pfd.events = POLLIN;
	} else {
		pfd.fd = fd;
		pfd.events = POLLPRI;
	}
	printf("armed\n");
	fflush(stdout);

	ret = poll(&pfd, 1, seconds * 1000);
	if (ret < 0)
		die("poll");
	if (ret == 0 || !(pfd.revents & pfd.events)) {
		printf("timeout\n");
		return 1;
	}
	printf("changed\n");
	return 0;

usage:
	fprintf(stderr, "usage: eventwait [-i] FILE SECONDS\n");
	return 2;
}
