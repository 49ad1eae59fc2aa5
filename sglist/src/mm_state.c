// SPDX-License-Identifier: MIT
/*
 * mm_state.c - the simulated memory's shared state: where the RAM and
 * mem_map are, and why the last allocation failed.
 *
 * It sits below the other mm files so that their dependencies run one way:
 * sim_mem.c uses slab.c and page_alloc.c, slab.c and page_frag.c use
 * page_alloc.c, and all of them use this file and nothing above it.
 */
#include "mm_internal.h"

#include <stdarg.h>
#include <stdio.h>

struct sim_mem_layout sim_mem_layout;

static char last_error[256];

const char *sim_mem_last_error(void)
{
	return last_error;
}

void sim_mem_set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

void sim_mem_clear_error(void)
{
	last_error[0] = '\0';
}
