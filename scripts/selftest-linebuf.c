// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into kselftest programs built by build-selftest.sh: make stdout
 * line-buffered before main().  In the guest their stdout is a file, so
 * stdio would buffer it fully, and every child they fork() would print
 * the parent's pending result lines a second time when it exits.
 */
#include <stdio.h>

__attribute__((constructor)) static void selftest_linebuf(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}
