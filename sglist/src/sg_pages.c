// SPDX-License-Identifier: MIT
/*
 * sg_pages.c - tables built from page arrays, merging physically
 * consecutive pages into one entry.
 */
#include <sglist/scatterlist.h>

#include <string.h>

static bool pages_are_mergeable(struct page *next, struct page *prev)
{
	return page_to_pfn(next) == page_to_pfn(prev) + 1;
}

/* Index of the first page after the run that starts at @first. */
static unsigned int run_end(struct page **pages, unsigned int first,
			    unsigned int n_pages, unsigned int max_segment)
{
	unsigned long seg_len = PAGE_SIZE;
	unsigned int j;

	for (j = first + 1; j < n_pages; j++) {
		if (seg_len >= max_segment ||
		    !pages_are_mergeable(pages[j], pages[j - 1]))
			break;
		seg_len += PAGE_SIZE;
	}
	return j;
}

static unsigned int count_runs(struct page **pages, unsigned int n_pages,
			       unsigned int max_segment)
{
	unsigned int runs = 0, i;

	for (i = 0; i < n_pages; i = run_end(pages, i, n_pages, max_segment))
		runs++;
	return runs;
}

/*
 * True if the table's arrays so far all hold SG_MAX_SINGLE_ALLOC slots,
 * which sg_free_append_table()'s arithmetic relies on. A smaller array
 * only gets chained when an earlier call under-counted @left_pages.
 */
static bool arrays_are_full(const struct sg_append_table *table)
{
	return table->total_nents >= SG_MAX_SINGLE_ALLOC &&
	       (table->total_nents - SG_MAX_SINGLE_ALLOC) %
			       (SG_MAX_SINGLE_ALLOC - 1) ==
		       0;
}

/*
 * The slot for the next entry after @cur: the following slot, unless that
 * is an array's final slot and more than one entry is still needed, in
 * which case a new array of up to @needed slots is chained there.
 */
static struct scatterlist *get_next_sg(struct sg_append_table *table,
				       struct scatterlist *cur,
				       unsigned long needed, gfp_t gfp)
{
	struct scatterlist *next = NULL, *new_sg;
	unsigned int alloc_size;

	if (cur) {
		next = sg_next(cur);
		BUG_ON(!next); /* the previous call passed left_pages 0 */
		if (!sg_is_last(next) || needed == 1)
			return next;
	}
	alloc_size =
		needed < SG_MAX_SINGLE_ALLOC ? needed : SG_MAX_SINGLE_ALLOC;
	new_sg = kmalloc_array(alloc_size, sizeof(*new_sg), gfp);
	if (!new_sg)
		return NULL;
	sg_init_table(new_sg, alloc_size);
	if (cur) {
		BUG_ON(!arrays_are_full(table));
		table->total_nents += alloc_size - 1;
		__sg_chain(next, new_sg);
	} else {
		table->sgt.sgl = new_sg;
		table->total_nents = alloc_size;
	}
	return new_sg;
}

/*
 * Extend the previous call's last entry with leading pages that continue
 * it physically. Return: pages consumed.
 */
static unsigned int extend_prv(struct sg_append_table *table,
			       struct page **pages, unsigned int n_pages,
			       unsigned int max_segment)
{
	struct scatterlist *prv = table->prv;
	phys_addr_t end = sg_phys(prv) + prv->length;
	unsigned int used = 0;

	/* Only an entry ending on a page boundary can grow by whole pages. */
	if (end % PAGE_SIZE)
		return 0;
	while (used < n_pages &&
	       page_to_phys(pages[used]) ==
		       end + (phys_addr_t)used * PAGE_SIZE &&
	       prv->length + PAGE_SIZE <= max_segment) {
		prv->length += PAGE_SIZE;
		used++;
	}
	return used;
}

int sg_alloc_append_table_from_pages(struct sg_append_table *sgt_append,
				     struct page **pages, unsigned int n_pages,
				     unsigned int offset, unsigned long size,
				     unsigned int max_segment,
				     unsigned int left_pages, gfp_t gfp_mask)
{
	struct scatterlist *s = sgt_append->prv;
	unsigned int prv_len = s ? s->length : 0;
	unsigned int runs, added = 0, cur, i;

	max_segment &= PAGE_MASK;
	if (max_segment < PAGE_SIZE || n_pages == 0)
		return -EINVAL;
	if (s) {
		unsigned int used;

		if (offset)
			return -EINVAL;
		used = extend_prv(sgt_append, pages, n_pages, max_segment);
		pages += used;
		n_pages -= used;
		size -= (unsigned long)used * PAGE_SIZE;
		if (!n_pages)
			goto out;
	}
	runs = count_runs(pages, n_pages, max_segment);
	for (i = 0, cur = 0; i < runs; i++) {
		unsigned int j = run_end(pages, cur, n_pages, max_segment);
		unsigned long chunk =
			((unsigned long)(j - cur) << PAGE_SHIFT) - offset;

		s = get_next_sg(sgt_append, s, runs - i + left_pages, gfp_mask);
		if (!s) {
			if (sgt_append->prv)
				sgt_append->prv->length = prv_len;
			return -ENOMEM;
		}
		sg_set_page(s, pages[cur], size < chunk ? size : chunk, offset);
		added++;
		size -= size < chunk ? size : chunk;
		offset = 0;
		cur = j;
	}
	sgt_append->sgt.nents += added;
	sgt_append->sgt.orig_nents = sgt_append->sgt.nents;
	sgt_append->prv = s;
out:
	if (!left_pages)
		sg_mark_end(s);
	return 0;
}

int sg_alloc_table_from_pages_segment(struct sg_table *sgt, struct page **pages,
				      unsigned int n_pages, unsigned int offset,
				      unsigned long size,
				      unsigned int max_segment, gfp_t gfp_mask)
{
	struct sg_append_table append;
	int err;

	memset(&append, 0, sizeof(append));
	err = sg_alloc_append_table_from_pages(&append, pages, n_pages, offset,
					       size, max_segment, 0, gfp_mask);
	if (err) {
		sg_free_append_table(&append);
		return err;
	}
	*sgt = append.sgt;
	return 0;
}
