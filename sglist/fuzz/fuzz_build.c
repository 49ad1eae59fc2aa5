// SPDX-License-Identifier: MIT
/*
 * fuzz_build.c - the three ways a fuzzed list is built: a chained table,
 * arrays chained by hand, and a table merged from pool pages. Each fills
 * the reference model as it goes.
 */
#include "fuzz_model.h"

#include "fuzz_check.h"

#include <limits.h>

static void list_begin(struct fuzz_list *l, enum fuzz_list_kind kind)
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

/* Arrays sg_alloc_table() needs, by its documented formula. */
static unsigned int table_arrays(unsigned int nents, unsigned int max_ents)
{
	if (nents <= max_ents)
		return 1;
	return 1 + (nents - max_ents + max_ents - 2) / (max_ents - 1);
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

static bool page_in_pool(const struct fuzz_pool *pool, const struct page *pg)
{
	unsigned int r;

	for (r = 0; r < pool->nruns; r++) {
		const struct pool_run *run = &pool->run[r];

		if (pg >= run->page && pg < run->page + (1u << run->order))
			return true;
	}
	return false;
}

/* A pool page: often the frame after @prev, so runs of frames form. */
static struct page *pick_page(struct fuzz_in *in, struct fuzz_pool *pool,
			      struct page *prev)
{
	const struct pool_run *run = &pool->run[in_u8(in) % pool->nruns];
	unsigned int c = in_u8(in);

	if (prev && c < 160 && page_in_pool(pool, prev + 1))
		return prev + 1;
	return nth_page(run->page, c % (1u << run->order));
}

/*
 * The entries sg_alloc_table_from_pages_segment() must produce: runs of
 * consecutive frames cut every @max_pages pages; the first carries
 * @offset, and @size bytes are shared out in order.
 */
static void pages_model(struct fuzz_list *l, struct page **pages,
			unsigned int n_pages, unsigned int offset,
			unsigned long size, unsigned int max_pages)
{
	unsigned int i = 0, j;

	while (i < n_pages) {
		struct fuzz_seg *seg = &l->e[l->n++].seg;
		unsigned long chunk;

		for (j = i + 1; j < n_pages && j - i < max_pages &&
				page_to_pfn(pages[j]) ==
					page_to_pfn(pages[j - 1]) + 1;
		     j++)
			;
		chunk = (unsigned long)(j - i) * PAGE_SIZE - offset;
		seg->len = (unsigned int)(size < chunk ? size : chunk);
		seg->page = pages[i];
		seg->offset = offset;
		seg->phys = page_to_phys(pages[i]) + offset;
		size -= seg->len;
		offset = 0;
		i = j;
	}
}

static unsigned int decode_max_segment(struct fuzz_in *in)
{
	switch (in_u8(in) % 4) {
	case 0:
		return UINT_MAX;
	case 1:
		return PAGE_SIZE;
	case 2:
		return 2 * PAGE_SIZE + 123; /* rounds down to two pages */
	default:
		return PAGE_SIZE + in_below(in, 8 * PAGE_SIZE);
	}
}

#define FUZZ_MAX_PAGES 32

void list_build_pages(struct fuzz_list *l, struct fuzz_in *in,
		      struct fuzz_pool *pool)
{
	unsigned int offset = in_u8(in) & 1 ? in_below(in, PAGE_SIZE) : 0;
	unsigned long size =
		1 + in_below(in, (FUZZ_MAX_PAGES - 1) * PAGE_SIZE);
	unsigned int n_pages = (offset + size + PAGE_SIZE - 1) / PAGE_SIZE;
	unsigned int max_segment = decode_max_segment(in), i;
	struct page *pages[FUZZ_MAX_PAGES];
	struct scatterlist *sg;
	int ret;

	for (i = 0; i < n_pages; i++)
		pages[i] = pick_page(in, pool, i ? pages[i - 1] : NULL);
	list_begin(l, LIST_PAGES);
	ret = sg_alloc_table_from_pages_segment(&l->sgt, pages, n_pages,
						offset, size, max_segment,
						GFP_KERNEL);
	FUZZ_CHECK(!ret, "from_pages(%u pages, offset %u, size %lu): %d",
		   n_pages, offset, size, ret);
	pages_model(l, pages, n_pages, offset, size, max_segment / PAGE_SIZE);
	FUZZ_CHECK(l->sgt.orig_nents == l->n && l->sgt.nents == l->n,
		   "from_pages: %u entries, model has %u", l->sgt.orig_nents,
		   l->n);
	/* The arrays are the library's business: take the slots it used. */
	for (i = 0, sg = l->sgt.sgl; i < l->n && sg; i++, sg = sg_next(sg))
		l->e[i].sg = sg;
	FUZZ_CHECK(i == l->n, "from_pages: walk ends after %u of %u", i,
		   l->n);
	for (i = 0; i < l->n; i++)
		l->e[i].end = i + 1 == l->n;
	list_update_len(l);
}
