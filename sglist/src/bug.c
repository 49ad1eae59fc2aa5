// SPDX-License-Identifier: MIT
/*
 * bug.c - the report behind BUG_ON().
 */
#include <sglist/bug.h>

#include <stdio.h>
#include <stdlib.h>

void sim_bug(const char *func, const char *cond, const char *file, int line)
{
	fprintf(stderr, "BUG: %s: %s (%s:%d)\n", func, cond, file, line);
	abort();
}
