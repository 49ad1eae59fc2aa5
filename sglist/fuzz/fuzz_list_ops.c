// SPDX-License-Identifier: MIT
/*
 * fuzz_list_ops.c - ops that change or count a list's entries.
 */
#include "fuzz_ops.h"

#include "fuzz_check.h"

unsigned int op_nents_arg(const struct fuzz_list *l, struct fuzz_in *in)
{
	return in_u8(in) & 0x80 ? 1 + in_below(in, l->len) : l->len;
}

void op_set_entry(struct fuzz_list *l, struct fuzz_in *in,
		  struct fuzz_pool *pool)
{
	struct fuzz_ent *e = &l->e[in_below(in, l->n)];

	seg_set(e->sg, &e->seg, in, pool);
}

void op_mark_end(struct fuzz_list *l, struct fuzz_in *in,
		 struct fuzz_pool *pool)
{
	struct fuzz_ent *e = &l->e[in_below(in, l->len)];

	(void)pool;
	sg_mark_end(e->sg);
	e->end = true;
	list_update_len(l);
}

void op_unmark_end(struct fuzz_list *l, struct fuzz_in *in,
		   struct fuzz_pool *pool)
{
	struct fuzz_ent *e = &l->e[l->len - 1];

	(void)in;
	(void)pool;
	/* The list's own last entry keeps its mark: past it is no entry. */
	if (l->len == l->n)
		return;
	sg_unmark_end(e->sg);
	e->end = false;
	list_update_len(l);
}

/* True if array @a is still part of the list (it has data entries). */
static bool array_linked(const struct fuzz_list *l, unsigned int a)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->e[i].arr == a)
			return true;
	return false;
}

/* Drop the entries of array @gone from the model. */
static void drop_array(struct fuzz_list *l, unsigned int gone)
{
	unsigned int i, kept = 0;

	for (i = 0; i < l->n; i++)
		if (l->e[i].arr != gone)
			l->e[kept++] = l->e[i];
	l->n = kept;
}

void op_unlink(struct fuzz_list *l, struct fuzz_in *in, struct fuzz_pool *pool)
{
	unsigned int a = in_below(in, l->narr);
	int skip, to;

	(void)pool;
	if (l->kind != LIST_CHAIN || !array_linked(l, a) || l->next[a] < 0 ||
	    l->next[l->next[a]] < 0)
		return;
	skip = l->next[a];
	to = l->next[skip];
	/* Redirect the existing link; the skipped array is freed later. */
	sg_chain(l->arr[a], l->ndata[a] + 1, l->arr[to]);
	l->next[a] = to;
	drop_array(l, (unsigned int)skip);
	list_update_len(l);
}

void op_nents_for_len(struct fuzz_list *l, struct fuzz_in *in,
		      struct fuzz_pool *pool)
{
	struct scatterlist *head = l->e[0].sg;
	u64 total = list_bytes(l, l->len), len;
	unsigned int n = op_nents_arg(l, in);

	(void)pool;
	switch (in_u8(in) % 4) {
	case 0:
		len = total;
		break;
	case 1:
		len = total + 1 + in_u8(in);
		break;
	case 2:
		len = in_below(in, (uint32_t)total + 1);
		break;
	default:
		len = 0;
		break;
	}
	FUZZ_CHECK(sg_nents_for_len(head, len) == list_nents_for_len(l, len),
		   "sg_nents_for_len(%llu) = %d, model %d of %llu bytes",
		   (unsigned long long)len, sg_nents_for_len(head, len),
		   list_nents_for_len(l, len), (unsigned long long)total);
	FUZZ_CHECK(sg_last(head, n) == l->e[n - 1].sg,
		   "sg_last(%u) is not the model's entry %u", n, n - 1);
}

/* Pages the page iterator visits for an entry: from sg_page() to its end. */
static unsigned long entry_pages(const struct fuzz_seg *seg)
{
	return PAGE_ALIGN((unsigned long)seg->offset + seg->len) >> PAGE_SHIFT;
}

void op_page_iter(struct fuzz_list *l, struct fuzz_in *in,
		  struct fuzz_pool *pool)
{
	unsigned int n = op_nents_arg(l, in), i = 0;
	unsigned long total = 0, start, k, seen = 0;
	struct sg_page_iter piter;

	(void)pool;
	for (i = 0; i < n; i++)
		total += entry_pages(&l->e[i].seg);
	start = in_below(in, (uint32_t)total + 2);
	/* The model's position: page k of entry i, @start pages in. */
	for (i = 0, k = start; i < n && k >= entry_pages(&l->e[i].seg); i++)
		k -= entry_pages(&l->e[i].seg);
	for_each_sg_page(l->e[0].sg, &piter, n, start)
	{
		while (i < n && k == entry_pages(&l->e[i].seg)) {
			i++;
			k = 0;
		}
		FUZZ_CHECK(i < n, "page walk from %lu: more than %lu pages",
			   start, total - start);
		FUZZ_CHECK(piter.sg == l->e[i].sg &&
				   sg_page_iter_page(&piter) ==
					   nth_page(l->e[i].seg.page, k),
			   "page walk from %lu: page %lu is not entry %u's "
			   "page %lu",
			   start, seen, i, k);
		k++;
		seen++;
	}
	FUZZ_CHECK(seen == (start < total ? total - start : 0),
		   "page walk from %lu saw %lu of %lu pages", start, seen,
		   total);
}
