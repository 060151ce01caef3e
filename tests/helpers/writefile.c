// SPDX-License-Identifier: GPL-2.0
/*
 * writefile - write a string to a file in one write(2) and say what the
 * kernel answered.
 *
 * usage: writefile FILE STRING
 *
 * Prints "OK" when the whole string was written, else the errno's name
 * ("EINVAL", "ERANGE", ...), or "SHORT n" for a partial write.  Exit status
 * 0 for OK, 1 otherwise, 2 when FILE cannot be opened for writing.
 *
 * The shell's "echo V > F" cannot tell EINVAL from ERANGE and adds a
 * newline; tests of the kernel's input checks need both done exactly.
 * The string is written as given: put "\n" in it where a newline is meant.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len;
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: writefile FILE STRING\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("OPEN-%s\n", strerrorname_np(errno));
		return 2;
	}
	len = strlen(argv[2]);
	n = write(fd, argv[2], len);
	if (n < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	if ((size_t)n != len) {
		printf("SHORT %zd\n", n);
		return 1;
	}
	if (close(fd) < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	printf("OK\n");
	return 0;
}
