/* SPDX-License-Identifier: MIT */
/*
 * fuzz_pool.h - the data pages the fuzzed lists point at, and a host-side
 * shadow of their bytes that the reference model updates.
 */
#ifndef SGLIST_FUZZ_POOL_H
#define SGLIST_FUZZ_POOL_H

#include "fuzz_input.h"

#include <sglist/mm.h>

#define POOL_MAX_RUNS 6
#define POOL_MAX_ORDER 3

/* 2^order physically contiguous frames, and what they should hold. */
struct pool_run {
	struct page *page;
	unsigned int order;
	size_t bytes;
	uint8_t *shadow;
	struct page *gap; /* a frame held before the run, or NULL */
};

struct fuzz_pool {
	unsigned int nruns;
	struct pool_run run[POOL_MAX_RUNS];
};

/* Allocate and fill 1..POOL_MAX_RUNS runs as the input describes. */
void pool_init(struct fuzz_pool *pool, struct fuzz_in *in);

/* Free every frame pool_init() took. */
void pool_free(struct fuzz_pool *pool);

/* The shadow byte of @phys, which must lie in a run. */
uint8_t *pool_shadow(struct fuzz_pool *pool, phys_addr_t phys);

/* Abort unless every run holds exactly its shadow. */
void pool_check(const struct fuzz_pool *pool);

#endif /* SGLIST_FUZZ_POOL_H */
