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
#include "helper-util.h"

int main(int argc, char **argv)
{
	unsigned long uid;
	int cmd;

	cmd = become_user(argc, argv, &uid);
	if (cmd < 0) {
		fprintf(stderr, "usage: runas [-g CGROUP] UID COMMAND [ARG...]\n");
		return 2;
	}
	execvp(argv[cmd], argv + cmd);
	die(argv[cmd]);
}
