// SPDX-License-Identifier: MIT
/*
 * sglist_fuzz.c - libFuzzer harness for the scatterlist API.
 *
 * An input decodes into a data pool (runs of page frames with known
 * bytes) and then a sequence of ops: build a list (chained table, arrays
 * chained by hand, a table merged from pages in one call or appended over
 * several), change entries and end marks, copy, walk, count and DMA-map
 * it. Every op is checked against a
 * reference model (fuzz_model.h) and the list's walk is rechecked after
 * each one; any disagreement aborts with a message. Only valid API use is
 * generated, so a BUG_ON firing is a finding too. Each input frees all it
 * allocated, and the simulated RAM's page count must return to its start.
 */
#include "fuzz_check.h"
#include "fuzz_ops.h"

#define SIM_RAM_BYTES (64ull << 20)
#define MAX_OPS 64

enum { BUILD_TABLE, BUILD_CHAIN, BUILD_PAGES, BUILD_APPEND, NR_BUILDS };

static fuzz_op *const list_ops[] = {
	op_set_entry,	  op_mark_end,	op_unmark_end, op_unlink,
	op_nents_for_len, op_copy_from, op_copy_to,    op_zero,
	op_miter,	  op_map,	op_page_iter,
};
#define NR_LIST_OPS (sizeof(list_ops) / sizeof(list_ops[0]))

/* Large: the model holds a few hundred entries; one per process. */
static struct fuzz_list list;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Contiguous placement: the same input always gets the same frames. */
	FUZZ_CHECK(!sim_mem_init(SIM_RAM_BYTES, SIM_MEM_CONTIGUOUS, 1),
		   "cannot create the simulated RAM");
	return 0;
}

static void build(struct fuzz_in *in, struct fuzz_pool *pool, unsigned int how)
{
	list_free(&list);
	if (how == BUILD_TABLE)
		list_build_table(&list, in, pool);
	else if (how == BUILD_CHAIN)
		list_build_chain(&list, in, pool);
	else if (how == BUILD_PAGES)
		list_build_pages(&list, in, pool);
	else
		list_build_append(&list, in, pool);
}

/* One op; a list op on no list builds a table first. */
static void run_op(struct fuzz_in *in, struct fuzz_pool *pool)
{
	unsigned int op = in_u8(in) % (NR_BUILDS + NR_LIST_OPS);

	if (op < NR_BUILDS) {
		build(in, pool, op);
	} else {
		if (list.kind == LIST_NONE)
			build(in, pool, BUILD_TABLE);
		list_ops[op - NR_BUILDS](&list, in, pool);
	}
	list_check(&list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	unsigned long pages_before = sim_mem_pages_in_use();
	struct fuzz_pool pool;
	unsigned int ops;

	pool_init(&pool, &in);
	for (ops = 0; ops < MAX_OPS && in.left; ops++)
		run_op(&in, &pool);
	list_free(&list);
	pool_check(&pool);
	pool_free(&pool);
	FUZZ_CHECK(sim_mem_pages_in_use() == pages_before,
		   "input leaked %lu page frames",
		   sim_mem_pages_in_use() - pages_before);
	return 0;
}
