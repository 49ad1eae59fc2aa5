// SPDX-License-Identifier: MIT
/*
 * fuzz_pool.c - data pages for the fuzzed lists and their shadow bytes.
 *
 * Placement is contiguous (deterministic from one input to the next), so
 * the input decides the physical layout: a run may follow the previous
 * one directly (entries can then span both) or sit behind a held gap
 * frame (so consecutive runs do not merge).
 */
#include "fuzz_pool.h"

#include "fuzz_check.h"

#include <string.h>

/* A byte pattern that differs from page to page and run to run. */
static uint8_t pattern_byte(unsigned int run, size_t i, unsigned int seed)
{
	return (uint8_t)(i * 7 + (i >> PAGE_SHIFT) * 31 + run * 101 + seed);
}

static void run_init(struct pool_run *run, unsigned int idx, struct fuzz_in *in)
{
	unsigned int seed;
	size_t i;

	run->order = in_u8(in) % (POOL_MAX_ORDER + 1);
	run->gap = NULL;
	if (in_u8(in) & 1) {
		run->gap = alloc_page(GFP_KERNEL);
		FUZZ_CHECK(run->gap, "gap page: %s", sim_mem_last_error());
	}
	run->page = alloc_pages(GFP_KERNEL, run->order);
	FUZZ_CHECK(run->page, "run: %s", sim_mem_last_error());
	run->bytes = PAGE_SIZE << run->order;
	run->shadow = malloc(run->bytes);
	FUZZ_CHECK(run->shadow, "out of host memory");
	seed = in_u8(in);
	for (i = 0; i < run->bytes; i++)
		run->shadow[i] = pattern_byte(idx, i, seed);
	memcpy(page_address(run->page), run->shadow, run->bytes);
}

void pool_init(struct fuzz_pool *pool, struct fuzz_in *in)
{
	unsigned int i;

	pool->nruns = 1 + in_u8(in) % POOL_MAX_RUNS;
	for (i = 0; i < pool->nruns; i++)
		run_init(&pool->run[i], i, in);
}

void pool_free(struct fuzz_pool *pool)
{
	unsigned int i;

	for (i = 0; i < pool->nruns; i++) {
		struct pool_run *run = &pool->run[i];

		__free_pages(run->page, run->order);
		if (run->gap)
			__free_page(run->gap);
		free(run->shadow);
	}
	pool->nruns = 0;
}

uint8_t *pool_shadow(struct fuzz_pool *pool, phys_addr_t phys)
{
	unsigned int i;

	for (i = 0; i < pool->nruns; i++) {
		struct pool_run *run = &pool->run[i];
		phys_addr_t start = page_to_phys(run->page);

		if (phys >= start && phys - start < run->bytes)
			return run->shadow + (phys - start);
	}
	fuzz_fail(__func__, __LINE__, "phys %#llx is not in the pool",
		  (unsigned long long)phys);
}

void pool_check(const struct fuzz_pool *pool)
{
	unsigned int i;
	size_t b;

	for (i = 0; i < pool->nruns; i++) {
		const struct pool_run *run = &pool->run[i];
		const uint8_t *mem = page_address(run->page);

		if (!memcmp(mem, run->shadow, run->bytes))
			continue;
		for (b = 0; mem[b] == run->shadow[b]; b++)
			;
		fuzz_fail(__func__, __LINE__,
			  "run %u (phys %#llx) byte %zu is %#x, model says %#x",
			  i, (unsigned long long)page_to_phys(run->page), b,
			  mem[b], run->shadow[b]);
	}
}
