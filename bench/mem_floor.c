// SPDX-License-Identifier: MIT
/*
 * mem_floor.c - the least a process can spend to move BYTES once: map a
 * fresh source and destination, first-touch the source (fill it), copy it
 * into the destination with one memcpy (first-touching that too).
 *
 * Usage: mem_floor BYTES [populate]
 *   populate: pre-fault both mappings with MADV_POPULATE_WRITE first (one
 *   system call each instead of a page fault per page), to see whether
 *   bulk population beats first touch on this kernel.
 * Prints: seconds=<wall of map + touch + copy> populated=<0|1>
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *map_fresh(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED) {
		perror("mem_floor: mmap");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	size_t bytes;
	int populate, populated = 0;
	double start, seconds;
	char *src, *dst;

	if (argc < 2 || (bytes = strtoull(argv[1], NULL, 0)) == 0) {
		fprintf(stderr, "usage: mem_floor BYTES [populate]\n");
		return 2;
	}
	populate = argc > 2 && strcmp(argv[2], "populate") == 0;
	start = now();
	src = map_fresh(bytes);
	dst = map_fresh(bytes);
	if (populate)
		populated = madvise(src, bytes, MADV_POPULATE_WRITE) == 0 &&
			    madvise(dst, bytes, MADV_POPULATE_WRITE) == 0;
	memset(src, 0x5a, bytes);
	memcpy(dst, src, bytes);
	seconds = now() - start;
	/* Read a byte back so the copy cannot be optimised away. */
	printf("seconds=%.6f populated=%d check=%d\n", seconds, populated,
	       dst[bytes - 1]);
	return 0;
}
