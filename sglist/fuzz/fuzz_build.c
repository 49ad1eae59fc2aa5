// SPDX-License-Identifier: MIT
/*
 * fuzz_build.c - building a fuzzed list from entry arrays: a chained
 * table, or arrays chained by hand. Each fills the reference model as it
 * goes.
 */
#include "fuzz_model.h"

#include "fuzz_check.h"

void list_begin(struct fuzz_list *l, enum fuzz_list_kind kind)
{
	l->kind = kind;
	l->n = 0;
	l->narr = 0;
	l->pages_before = sim_mem_pages_in_use();
}

static void add_entry(struct fuzz_list *l, struct scatterlist *sg,
		      unsigned int arr)
{
	struct fuzz_ent *e = &l->e[l->n++];

	e->sg = sg;
	e->arr = arr;
	e->end = false;
}

/*
 * Arrays a table needs, by the formula in docs/sglist.md:
 * 1 + ceil((nents - max_ents) / (max_ents - 1)) once it needs more than one.
 */
static unsigned int table_arrays(unsigned int nents, unsigned int max_ents)
{
	unsigned int per_extra = max_ents - 1;

	if (nents <= max_ents)
		return 1;
	return 1 + (nents - max_ents + per_extra - 1) / per_extra;
}

/*
 * Record the table's entry slots: every array but the last gives its
 * final slot to a link to the next. Abort where a link is missing or the
 * array count disagrees with the formula.
 */
static void table_slots(struct fuzz_list *l, unsigned int nents)
{
	struct scatterlist *arr = l->sgt.sgl;
	unsigned int m = l->max_ents, left = nents, arrays = 1, j;

	while (left > m) {
		for (j = 0; j < m - 1; j++)
			add_entry(l, &arr[j], 0);
		FUZZ_CHECK(sg_is_chain(&arr[m - 1]),
			   "table %u/%u: array %u has no link in slot %u",
			   nents, m, arrays - 1, m - 1);
		arr = sg_chain_ptr(&arr[m - 1]);
		left -= m - 1;
		arrays++;
	}
	for (j = 0; j < left; j++)
		add_entry(l, &arr[j], 0);
	FUZZ_CHECK(arrays == table_arrays(nents, m),
		   "table %u/%u spans %u arrays, formula says %u", nents, m,
		   arrays, table_arrays(nents, m));
}

static void fill_entries(struct fuzz_list *l, struct fuzz_in *in,
			 struct fuzz_pool *pool)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		seg_set(l->e[i].sg, &l->e[i].seg, in, pool);
	l->e[l->n - 1].end = true;
	list_update_len(l);
}

void list_build_table(struct fuzz_list *l, struct fuzz_in *in,
		      struct fuzz_pool *pool)
{
	unsigned int nents = 1 + in_below(in, FUZZ_MAX_ENTS);
	unsigned int c = in_u8(in);
	int ret;

	list_begin(l, LIST_TABLE);
	/* Short arrays (deep chains), page-sized, or longer than a page. */
	if (c < 64) {
		l->max_ents = SG_MAX_SINGLE_ALLOC;
		ret = sg_alloc_table(&l->sgt, nents, GFP_KERNEL);
	} else {
		l->max_ents = c < 192 ? 2 + c % 48 : 100 + in_below(in, 250);
		ret = sim_sg_alloc_table_chunked(&l->sgt, nents, l->max_ents,
						 GFP_KERNEL);
	}
	FUZZ_CHECK(!ret, "table of %u in arrays of %u: %d (%s)", nents,
		   l->max_ents, ret, sim_mem_last_error());
	FUZZ_CHECK(l->sgt.nents == nents && l->sgt.orig_nents == nents,
		   "table of %u has nents %u orig_nents %u", nents,
		   l->sgt.nents, l->sgt.orig_nents);
	table_slots(l, nents);
	fill_entries(l, in, pool);
}

/* One array of @slots, @used of them in play (the last as the link). */
static void chain_array(struct fuzz_list *l, unsigned int slots,
			unsigned int used, bool final)
{
	unsigned int a = l->narr++, j;
	struct scatterlist *arr;

	arr = kmalloc_array(slots, sizeof(*arr), GFP_KERNEL);
	FUZZ_CHECK(arr, "array of %u: %s", slots, sim_mem_last_error());
	sg_init_table(arr, slots);
	/* sg_chain() takes the slot sg_init_table() marked, or this one. */
	if (used < slots)
		sg_mark_end(&arr[used - 1]);
	l->arr[a] = arr;
	l->ndata[a] = final ? used : used - 1;
	l->next[a] = -1;
	for (j = 0; j < l->ndata[a]; j++)
		add_entry(l, &arr[j], a);
}

void list_build_chain(struct fuzz_list *l, struct fuzz_in *in,
		      struct fuzz_pool *pool)
{
	unsigned int narr = 1 + in_u8(in) % FUZZ_MAX_ARRAYS, a;

	list_begin(l, LIST_CHAIN);
	for (a = 0; a < narr; a++) {
		bool final = a + 1 == narr;
		unsigned int slots = 1 + in_u8(in) % FUZZ_MAX_ARRAY_SLOTS;
		unsigned int used = 1 + in_below(in, slots);

		/* A non-final array needs a data slot and the link. */
		if (!final && used < 2) {
			used = 2;
			slots = slots < 2 ? 2 : slots;
		}
		chain_array(l, slots, used, final);
	}
	for (a = 0; a + 1 < narr; a++) {
		sg_chain(l->arr[a], l->ndata[a] + 1, l->arr[a + 1]);
		l->next[a] = (int)a + 1;
	}
	fill_entries(l, in, pool);
}
