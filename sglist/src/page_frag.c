// SPDX-License-Identifier: MIT
/*
 * page_frag.c - the page fragment allocator: small buffers carved back to
 * back from blocks of contiguous page frames.
 *
 * A block's head frame carries PG_FRAG, its order in priv and a reference
 * count in inuse: one per live fragment plus one while a cache carves it.
 * Only the head frame's struct page is written, so a block of untouched
 * fragments costs no host memory beyond that one entry of mem_map.
 */
#include "mm_internal.h"

/* The head frame of the block holding @page (itself, or its aligned run). */
static struct page *frag_head(struct page *page)
{
	unsigned long mask = (1UL << PAGE_FRAG_CACHE_MAX_ORDER) - 1;
	struct page *head;

	if (page->flags & PG_FRAG)
		return page;
	head = pfn_to_page(page_to_pfn(page) & ~mask);
	BUG_ON(!(head->flags & PG_FRAG) ||
	       head->priv != PAGE_FRAG_CACHE_MAX_ORDER);
	return head;
}

/* Drops one reference to a block; the last one frees it. */
static void frag_put(struct page *head)
{
	BUG_ON(head->inuse == 0);
	if (--head->inuse)
		return;
	head->flags &= ~PG_FRAG;
	__free_pages(head, (unsigned int)head->priv);
}

/* Replaces the cache's block with a fresh one (largest order that fits). */
static int frag_refill(struct page_frag_cache *nc, gfp_t gfp)
{
	unsigned int order = PAGE_FRAG_CACHE_MAX_ORDER;
	/* Quietly: a failure here only means falling back to one frame. */
	struct page *page = alloc_pages(gfp | __GFP_NOWARN, order);

	if (!page) {
		order = 0;
		page = alloc_pages(gfp, order);
	}
	if (!page)
		return -ENOMEM;
	page_frag_cache_drain(nc);
	page->flags |= PG_FRAG;
	page->priv = order;
	page->inuse = 1; /* the cache's own reference */
	nc->page = page;
	nc->size = (unsigned int)(PAGE_SIZE << order);
	nc->offset = 0;
	return 0;
}

void *page_frag_alloc(struct page_frag_cache *nc, unsigned int fragsz,
		      gfp_t gfp)
{
	char *va;

	if (fragsz == 0 || fragsz > PAGE_FRAG_CACHE_MAX_SIZE)
		return NULL;
	if (!nc->page || fragsz > nc->size - nc->offset) {
		if (frag_refill(nc, gfp))
			return NULL;
		if (fragsz > nc->size) /* only a single frame was free */
			return NULL;
	}
	va = (char *)page_address(nc->page) + nc->offset;
	nc->offset += fragsz;
	nc->page->inuse++;
	return va;
}

void page_frag_free(void *addr)
{
	BUG_ON(!virt_addr_valid(addr));
	frag_put(frag_head(virt_to_page(addr)));
}

void page_frag_cache_drain(struct page_frag_cache *nc)
{
	if (nc->page)
		frag_put(nc->page);
	nc->page = NULL;
	nc->size = 0;
	nc->offset = 0;
}
