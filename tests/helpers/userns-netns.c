// SPDX-License-Identifier: GPL-2.0
/*
 * userns-netns - run a command as an unprivileged user that made its own
 * user and network namespaces, as "unshare -rn" does for any user.
 *
 * usage: userns-netns [-g CGROUP] UID COMMAND [ARG...]
 *
 *   -g CGROUP  join this cgroup directory (its cgroup.procs) first, while
 *              still root, so that COMMAND runs in that cgroup
 *
 * Then: drop every group, become UID (real, effective and saved: every
 * capability of the initial user namespace is gone), unshare the user and
 * network namespaces, map UID to root in the new user namespace, and exec
 * COMMAND.  COMMAND is root in a user namespace of its own and owns its
 * network namespace: what an unprivileged user gets on a distro kernel
 * with unprivileged user namespaces.  Loopback stays down.
 *
 * Exit status 1 with a message on any failure before the exec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "helper-util.h"

int main(int argc, char **argv)
{
	unsigned long uid;
	char map[64];
	int cmd;

	cmd = become_user(argc, argv, &uid);
	if (cmd < 0) {
		fprintf(stderr, "usage: userns-netns [-g CGROUP] UID COMMAND [ARG...]\n");
		return 1;
	}
	/* A uid change makes the task non-dumpable, and then its
	 * /proc/self files belong to the host's root: it could not write
	 * its own uid_map.  An unprivileged user never changed uid.
	 */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		die("prctl(PR_SET_DUMPABLE)");

	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0)
		die("unshare(CLONE_NEWUSER | CLONE_NEWNET)");
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %lu 1\n", uid);
	write_file("/proc/self/uid_map", map);
	write_file("/proc/self/gid_map", map);

	execvp(argv[cmd], argv + cmd);
	die(argv[cmd]);
}
