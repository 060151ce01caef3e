// SPDX-License-Identifier: GPL-2.0
/*
 * writefile - write a string to a file in one write(2) and say what the
 * kernel answered.
 *
 * usage: writefile [-r] FILE STRING
 *
 * Prints "OK" when the whole string was written, else the errno's name
 * ("EINVAL", "ERANGE", ...), or "SHORT n" for a partial write.  Exit status
 * 0 for OK, 1 otherwise, 2 when FILE cannot be opened for writing.
 *
 * -r: open FILE for reading too and, after "OK", print what a read from
 * the start of the same open file returns: memory.peak and its kin
 * answer per open file once written to.
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
	int readback = argc == 4 && !strcmp(argv[1], "-r");
	char buf[4096];
	size_t len;
	ssize_t n;
	int fd;

	if (argc != 3 && !readback) {
		fprintf(stderr, "usage: writefile [-r] FILE STRING\n");
		return 2;
	}
	argv += readback;
	fd = open(argv[1], readback ? O_RDWR : O_WRONLY);
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
	if (readback) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0) {
			printf("READ-%s\n", strerrorname_np(errno));
			return 1;
		}
		buf[n] = '\0';
	}
	if (close(fd) < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	printf("OK\n");
	if (readback)
		fputs(buf, stdout);
	return 0;
}
