// SPDX-License-Identifier: GPL-2.0
/*
 * qemu-exit - end the guest with an exit status the host can read.
 *
 * usage: qemu-exit STATUS
 *
 * Writes STATUS (0-127) to QEMU's isa-debug-exit port (0xf4); QEMU then
 * exits with (STATUS << 1) | 1.  Returns 1 if the guest is still running
 * afterwards (no such device), so /init can fall back to "reboot -f".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	int status;

	if (argc != 2) {
		fprintf(stderr, "usage: qemu-exit STATUS\n");
		return 1;
	}
	status = atoi(argv[1]);
	if (status < 0 || status > 127) {
		fprintf(stderr, "qemu-exit: status must be 0-127\n");
		return 1;
	}
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) < 0) {
		perror("qemu-exit: ioperm");
		return 1;
	}
	outb(status, DEBUG_EXIT_PORT);
	fprintf(stderr, "qemu-exit: no isa-debug-exit device answered\n");
	return 1;
}
