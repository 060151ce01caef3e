/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the small static test helpers share: a fatal error that names the
 * program and errno, a whole-file write, and joining a cgroup.  Included
 * by each helper's single .c file (each is built on its own).
 */
#ifndef HELPER_UTIL_H
#define HELPER_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char *program_invocation_short_name;

static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(errno));
	exit(1);
}

/* Write @text to @path in one write(2), or die. */
static inline void write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		die(path);
	if (write(fd, text, len) != (ssize_t)len)
		die(path);
	close(fd);
}

/* Move this process into the cgroup directory @dir, or die. */
static inline void join_cgroup(const char *dir)
{
	char path[4096], pid[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", getpid());
	write_file(path, pid);
}

/*
 * The start of the helpers that run a command as another user, whose
 * arguments are "[-g CGROUP] UID COMMAND [ARG...]": join CGROUP while
 * still root, then drop every group and become UID (real, effective and
 * saved, group too), with no capability left.  Returns the index of
 * COMMAND in @argv and sets *@uid, or returns -1 on a usage error.
 */
static inline int become_user(int argc, char **argv, unsigned long *uid)
{
	const char *cgroup = NULL;
	char *end;
	int opt;

	while ((opt = getopt(argc, argv, "+g:")) != -1) {
		if (opt != 'g')
			return -1;
		cgroup = optarg;
	}
	if (argc - optind < 2)
		return -1;
	errno = 0;
	*uid = strtoul(argv[optind], &end, 10);
	if (errno || *end || end == argv[optind] || *uid == 0 || *uid > 65535)
		return -1;

	if (cgroup)
		join_cgroup(cgroup);
	if (setgroups(0, NULL) < 0)
		die("setgroups");
	if (setresgid(*uid, *uid, *uid) < 0)
		die("setresgid");
	if (setresuid(*uid, *uid, *uid) < 0)
		die("setresuid");
	return optind + 1;
}

#endif /* HELPER_UTIL_H */
