// SPDX-License-Identifier: MIT
/*
 * fuzz_model.c - the reference model's entries, the walk check that
 * compares the real list with it, and a cursor over the model's bytes.
 */
#include "fuzz_model.h"

#include "fuzz_check.h"

/* Length choices: empty, tiny, to the page end, to the run end, whole
 * pages from a page boundary (the IOMMU can merge those), anything. */
static void seg_decode(struct fuzz_seg *seg, struct fuzz_in *in,
		       const struct pool_run *run)
{
	size_t pos = in_below(in, (uint32_t)run->bytes), left;

	switch (in_u8(in) % 6) {
	case 0:
		seg->len = 0;
		break;
	case 1:
		seg->len = 1 + in_u8(in) % 16;
		break;
	case 2:
		seg->len = PAGE_SIZE - pos % PAGE_SIZE;
		break;
	case 3:
		seg->len = run->bytes - pos;
		break;
	case 4:
		pos &= PAGE_MASK;
		seg->len = (1 + in_u8(in) % ((run->bytes - pos) / PAGE_SIZE)) *
			   PAGE_SIZE;
		break;
	default:
		seg->len = in_below(in, run->bytes - pos + 1);
		break;
	}
	left = run->bytes - pos;
	if (seg->len > left)
		seg->len = left;
	seg->phys = page_to_phys(run->page) + pos;
}

void seg_set(struct scatterlist *sg, struct fuzz_seg *seg, struct fuzz_in *in,
	     struct fuzz_pool *pool)
{
	const struct pool_run *run = &pool->run[in_u8(in) % pool->nruns];
	unsigned int pos, how;

	seg_decode(seg, in, run);
	pos = (unsigned int)(seg->phys - page_to_phys(run->page));
	/* The frame holding the first byte, and the offset within it. */
	seg->page = pfn_to_page(seg->phys >> PAGE_SHIFT);
	seg->offset = pos % PAGE_SIZE;
	how = in_u8(in) % 3;
	switch (how) {
	case 0: /* the run's first page, offset beyond a page */
		seg->page = run->page;
		seg->offset = pos;
		sg_set_page(sg, run->page, seg->len, pos);
		break;
	case 1:
		sg_set_page(sg, seg->page, seg->len, seg->offset);
		break;
	default:
		sg_set_buf(sg, phys_to_virt(seg->phys), seg->len);
		break;
	}
}

void list_free(struct fuzz_list *l)
{
	unsigned int a;

	switch (l->kind) {
	case LIST_NONE:
		return;
	case LIST_TABLE:
		if (l->max_ents == SG_MAX_SINGLE_ALLOC)
			sg_free_table(&l->sgt);
		else
			sim_sg_free_table_chunked(&l->sgt, l->max_ents);
		break;
	case LIST_CHAIN:
		for (a = 0; a < l->narr; a++)
			kfree(l->arr[a]);
		break;
	case LIST_PAGES:
		sg_free_table(&l->sgt);
		break;
	case LIST_APPEND:
		sg_free_append_table(&l->app);
		break;
	}
	FUZZ_CHECK(sim_mem_pages_in_use() == l->pages_before,
		   "list kind %d freed: %lu pages in use, %lu before", l->kind,
		   sim_mem_pages_in_use(), l->pages_before);
	l->kind = LIST_NONE;
}

struct sg_table *list_table(struct fuzz_list *l)
{
	if (l->kind == LIST_CHAIN)
		return NULL;
	return l->kind == LIST_APPEND ? &l->app.sgt : &l->sgt;
}

void list_update_len(struct fuzz_list *l)
{
	unsigned int i;

	for (i = 0; i < l->n && !l->e[i].end; i++)
		;
	FUZZ_CHECK(i < l->n, "model: no entry carries an end mark");
	l->len = i + 1;
}

static void check_entry(struct scatterlist *sg, const struct fuzz_ent *e,
			unsigned int i, bool last)
{
	FUZZ_CHECK(sg == e->sg, "walk: entry %u is %p, model says %p", i,
		   (void *)sg, (void *)e->sg);
	FUZZ_CHECK(!sg_is_chain(sg), "walk: entry %u is a chain link", i);
	FUZZ_CHECK(sg_page(sg) == e->seg.page && sg->offset == e->seg.offset &&
			   sg->length == e->seg.len,
		   "entry %u: page %p offset %u length %u, model says %p %u %u",
		   i, (void *)sg_page(sg), sg->offset, sg->length,
		   (void *)e->seg.page, e->seg.offset, e->seg.len);
	FUZZ_CHECK(sg_phys(sg) == e->seg.phys &&
			   sg_virt(sg) == phys_to_virt(e->seg.phys),
		   "entry %u: sg_phys %#llx, model says %#llx", i,
		   (unsigned long long)sg_phys(sg),
		   (unsigned long long)e->seg.phys);
	FUZZ_CHECK(sg_is_last(sg) == last, "entry %u: sg_is_last %d of %s", i,
		   sg_is_last(sg), last ? "the last" : "an inner entry");
}

void list_check(struct fuzz_list *l)
{
	struct scatterlist *head = l->e[0].sg, *sg = head;
	unsigned int i;

	for (i = 0; i < l->len; i++) {
		FUZZ_CHECK(sg, "walk ended after %u entries, model has %u", i,
			   l->len);
		check_entry(sg, &l->e[i], i, i + 1 == l->len);
		sg = sg_next(sg);
	}
	FUZZ_CHECK(!sg, "walk goes past the %u entries of the model", l->len);
	FUZZ_CHECK(sg_nents(head) == (int)l->len, "sg_nents %d, model %u",
		   sg_nents(head), l->len);
	FUZZ_CHECK(sg_last(head, l->len) == l->e[l->len - 1].sg,
		   "sg_last(%u) is not the model's last entry", l->len);
}

u64 list_bytes(const struct fuzz_list *l, unsigned int n)
{
	u64 bytes = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		bytes += l->e[i].seg.len;
	return bytes;
}

int list_nents_for_len(const struct fuzz_list *l, u64 len)
{
	u64 bytes = 0;
	unsigned int i;

	if (!len)
		return 0;
	for (i = 0; i < l->len; i++) {
		bytes += l->e[i].seg.len;
		if (bytes >= len)
			return (int)i + 1;
	}
	return -EINVAL;
}

void cursor_start(struct list_cursor *c, const struct fuzz_list *l,
		  unsigned int n)
{
	c->l = l;
	c->n = n;
	c->i = 0;
	c->off = 0;
}

size_t cursor_take(struct list_cursor *c, size_t max, phys_addr_t *phys)
{
	const struct fuzz_seg *seg;
	size_t take;

	while (c->i < c->n && c->off == c->l->e[c->i].seg.len) {
		c->i++;
		c->off = 0;
	}
	if (c->i == c->n)
		return 0;
	seg = &c->l->e[c->i].seg;
	*phys = seg->phys + c->off;
	take = seg->len - c->off;
	if (take > PAGE_SIZE - offset_in_page(*phys))
		take = PAGE_SIZE - offset_in_page(*phys);
	if (take > max)
		take = max;
	c->off += (unsigned int)take;
	return take;
}

u64 cursor_skip(struct list_cursor *c, u64 bytes)
{
	u64 done = 0;
	phys_addr_t phys;
	size_t k;

	while (done < bytes && (k = cursor_take(c, bytes - done, &phys)))
		done += k;
	return done;
}
