// SPDX-License-Identifier: GPL-2.0
/*
 * runas - run a command as an unprivileged user of the initial user
 * namespace, as a user whose systemd manager was delegated a cgroup runs.
 *
 * usage: runas [-g CGROUP] UID COMMAND [ARG...]
 *
 *   -g CGROUP  join this cgroup directory (its cgroup.procs) first, while
 *              still root
 *
 * Then drop every group, become UID (real, effective and saved, group
 * too: no capability is left) and exec COMMAND.  Exit status 1 with a
 * message on any failure before the exec.
 */
#define _GNU_SOURCE
#include <grp.h>

#include "helper-util.h"

int main(int argc, char **argv)
{
	const char *cgroup = NULL;
	unsigned long uid;
	char *end;
	int opt;

	while ((opt = getopt(argc, argv, "+g:")) != -1) {
		if (opt != 'g')
			goto usage;
		cgroup = optarg;
	}
	if (argc - optind < 2)
		goto usage;
	errno = 0;
	uid = strtoul(argv[optind], &end, 10);
	if (errno || *end || end == argv[optind] || uid == 0 || uid > 65535)
		goto usage;

	if (cgroup)
		join_cgroup(cgroup);
	if (setgroups(0, NULL) < 0)
		die("setgroups");
	if (setresgid(uid, uid, uid) < 0)
		die("setresgid");
	if (setresuid(uid, uid, uid) < 0)
		die("setresuid");
	execvp(argv[optind + 1], argv + optind + 1);
	die(argv[optind + 1]);

usage:
	fprintf(stderr, "usage: runas [-g CGROUP] UID COMMAND [ARG...]\n");
	return 2;
}
