// SPDX-License-Identifier: MIT
/*
 * fuzz_build_pages.c - building a fuzzed list from pool pages with
 * sg_alloc_table_from_pages_segment() (one call) or
 * sg_alloc_append_table_from_pages() (several calls). The model merges
 * physically consecutive pages itself; the arrays are the library's.
 */
#include "fuzz_model.h"

#include "fuzz_check.h"

#include <limits.h>
#include <string.h>

/* Over two arrays of SG_MAX_SINGLE_ALLOC, within FUZZ_MAX_ENTS. */
#define FUZZ_MAX_PAGES 300
#define FUZZ_MAX_CALLS 3

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
 * @n pool pages: each decoded on its own, or (cheap in input bytes, so
 * long lists come easily) a stride pattern over the runs.
 */
static void pick_pages(struct page **pages, unsigned int n, struct page *prev,
		       struct fuzz_in *in, struct fuzz_pool *pool)
{
	unsigned int i, stride = in_u8(in), step = in_u8(in);

	for (i = 0; i < n; i++) {
		const struct pool_run *run;

		if (!(stride & 1)) {
			prev = pages[i] = pick_page(in, pool, prev);
			continue;
		}
		run = &pool->run[(i * stride) % pool->nruns];
		pages[i] = nth_page(run->page, (i * step) % (1u << run->order));
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

/*
 * Append the entries a from-pages call must produce: runs of consecutive
 * frames cut every @max_pages pages; the first carries @offset, and @size
 * bytes are shared out in order.
 */
static void pages_model(struct fuzz_list *l, struct page **pages,
			unsigned int n_pages, unsigned int offset,
			unsigned long size, unsigned int max_pages)
{
	unsigned int i = 0, j;

	while (i < n_pages) {
		struct fuzz_seg *seg = &l->e[l->n++].seg;
		unsigned long chunk;

		for (j = i + 1;
		     j < n_pages && j - i < max_pages &&
		     page_to_pfn(pages[j]) == page_to_pfn(pages[j - 1]) + 1;
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

/*
 * Pages an append call adds to the previous call's last entry: those that
 * continue it physically, while it ends on a page boundary and stays
 * within @max_segment (a page multiple).
 */
static unsigned int extend_model(struct fuzz_list *l, struct page **pages,
				 unsigned int n_pages, unsigned int max_segment)
{
	struct fuzz_seg *prv = &l->e[l->n - 1].seg;
	unsigned int used = 0;

	if ((prv->phys + prv->len) % PAGE_SIZE)
		return 0;
	while (used < n_pages &&
	       page_to_phys(pages[used]) == prv->phys + prv->len &&
	       prv->len + PAGE_SIZE <= max_segment) {
		prv->len += PAGE_SIZE;
		used++;
	}
	return used;
}

/* Record where the library put each entry, and the end mark. */
static void take_slots(struct fuzz_list *l, struct sg_table *sgt)
{
	struct scatterlist *sg;
	unsigned int i;

	FUZZ_CHECK(sgt->orig_nents == l->n && sgt->nents == l->n,
		   "from pages: %u entries (nents %u), model has %u",
		   sgt->orig_nents, sgt->nents, l->n);
	for (i = 0, sg = sgt->sgl; i < l->n && sg; i++, sg = sg_next(sg)) {
		l->e[i].sg = sg;
		l->e[i].end = i + 1 == l->n;
	}
	FUZZ_CHECK(i == l->n, "from pages: walk ends after %u of %u", i, l->n);
	list_update_len(l);
}

void list_build_pages(struct fuzz_list *l, struct fuzz_in *in,
		      struct fuzz_pool *pool)
{
	unsigned int offset = in_u8(in) & 1 ? in_below(in, PAGE_SIZE) : 0;
	unsigned long size = 1 + in_below(in, (FUZZ_MAX_PAGES - 1) * PAGE_SIZE);
	unsigned int n_pages = (offset + size + PAGE_SIZE - 1) / PAGE_SIZE;
	unsigned int max_segment = decode_max_segment(in);
	struct page *pages[FUZZ_MAX_PAGES];
	int ret;

	pick_pages(pages, n_pages, NULL, in, pool);
	list_begin(l, LIST_PAGES);
	ret = sg_alloc_table_from_pages_segment(&l->sgt, pages, n_pages, offset,
						size, max_segment, GFP_KERNEL);
	FUZZ_CHECK(!ret, "from_pages(%u pages, offset %u, size %lu): %d",
		   n_pages, offset, size, ret);
	pages_model(l, pages, n_pages, offset, size, max_segment / PAGE_SIZE);
	take_slots(l, &l->sgt);
}

/* The pages of one append call and what it passes. */
struct append_call {
	struct page *pages[FUZZ_MAX_PAGES];
	unsigned int n_pages, offset;
	unsigned long size;
};

/*
 * Calls that together describe whole pages, except that the first may
 * start at an offset and the last may stop short of its last page's end.
 */
static unsigned int decode_calls(struct append_call *calls, struct fuzz_in *in,
				 struct fuzz_pool *pool)
{
	unsigned int ncalls = 1 + in_u8(in) % FUZZ_MAX_CALLS, c, trim_room;
	struct page *prev = NULL;

	for (c = 0; c < ncalls; c++) {
		struct append_call *call = &calls[c];

		call->n_pages =
			1 + in_below(in, FUZZ_MAX_PAGES / FUZZ_MAX_CALLS);
		call->offset =
			!c && in_u8(in) & 1 ? in_below(in, PAGE_SIZE) : 0;
		call->size = call->n_pages * PAGE_SIZE - call->offset;
		pick_pages(call->pages, call->n_pages, prev, in, pool);
		prev = call->pages[call->n_pages - 1];
	}
	/* Trim the last call, leaving at least a byte of its last page. */
	trim_room = ncalls == 1 && calls[0].n_pages == 1
			    ? PAGE_SIZE - calls[0].offset
			    : PAGE_SIZE;
	calls[ncalls - 1].size -= in_below(in, trim_room);
	return ncalls;
}

void list_build_append(struct fuzz_list *l, struct fuzz_in *in,
		       struct fuzz_pool *pool)
{
	struct append_call calls[FUZZ_MAX_CALLS];
	unsigned int ncalls = decode_calls(calls, in, pool), left = 0, c;
	unsigned int max_segment = decode_max_segment(in);

	for (c = 0; c < ncalls; c++)
		left += calls[c].n_pages;
	list_begin(l, LIST_APPEND);
	memset(&l->app, 0, sizeof(l->app));
	for (c = 0; c < ncalls; c++) {
		struct append_call *call = &calls[c];
		unsigned int used = 0;
		int ret;

		left -= call->n_pages;
		ret = sg_alloc_append_table_from_pages(
			&l->app, call->pages, call->n_pages, call->offset,
			call->size, max_segment, left, GFP_KERNEL);
		FUZZ_CHECK(!ret,
			   "append call %u (%u pages, offset %u, size %lu, "
			   "%u left): %d",
			   c, call->n_pages, call->offset, call->size, left,
			   ret);
		if (l->n)
			used = extend_model(l, call->pages, call->n_pages,
					    max_segment & PAGE_MASK);
		pages_model(l, call->pages + used, call->n_pages - used,
			    call->offset,
			    call->size - (unsigned long)used * PAGE_SIZE,
			    max_segment / PAGE_SIZE);
	}
	take_slots(l, &l->app.sgt);
}
