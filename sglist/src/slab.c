// SPDX-License-Identifier: MIT
/*
 * slab.c - kmalloc over simulated page frames.
 *
 * Requests up to KMALLOC_MAX_CACHE bytes are rounded up to a power-of-two
 * size class; each class carves objects out of whole pages it owns and
 * keeps the pages with free objects on a list. Larger requests get their
 * own run of contiguous frames. Either way the memory is simulated RAM, so
 * scatterlist arrays have bus addresses like in a kernel.
 */
#include "mm_internal.h"

#include <string.h>

#define KMALLOC_MIN_SHIFT 3
#define KMALLOC_MAX_SHIFT 11
#define KMALLOC_MAX_CACHE (1UL << KMALLOC_MAX_SHIFT)
#define NR_CLASSES (KMALLOC_MAX_SHIFT - KMALLOC_MIN_SHIFT + 1)

static struct page *partial[NR_CLASSES]; /* pages with free objects */

void slab_reset(void)
{
	memset(partial, 0, sizeof(partial));
}

static unsigned int size_class(size_t size)
{
	unsigned int idx = 0;

	while ((1UL << (idx + KMALLOC_MIN_SHIFT)) < size)
		idx++;
	return idx;
}

static size_t class_bytes(unsigned long idx)
{
	return 1UL << (idx + KMALLOC_MIN_SHIFT);
}

/* A partial-list link: a frame number, 0 for none (frame 0 is reserved). */
static struct page *link_page(u32 pfn)
{
	return pfn ? pfn_to_page(pfn) : NULL;
}

static u32 link_of(const struct page *page)
{
	return page ? (u32)page_to_pfn(page) : 0;
}

static void partial_add(struct page *page)
{
	struct page **head = &partial[page->priv];

	page->prev = 0;
	page->next = link_of(*head);
	if (*head)
		(*head)->prev = link_of(page);
	*head = page;
}

static void partial_del(struct page *page)
{
	if (page->prev)
		link_page(page->prev)->next = page->next;
	else
		partial[page->priv] = link_page(page->next);
	if (page->next)
		link_page(page->next)->prev = page->prev;
}

/* A slab's free objects chain through their first word, as in-page offsets. */
#define NO_FREE_OBJECT ((u32)PAGE_SIZE)

static u32 *free_link(struct page *page, u32 offset)
{
	return (u32 *)((char *)page_address(page) + offset);
}

/* A fresh page for class @idx with all its objects on its free list. */
static struct page *slab_grow(unsigned int idx)
{
	u32 size = (u32)class_bytes(idx);
	unsigned long pfn = frames_alloc(1, 1);
	struct page *page;
	u32 offset;

	if (!pfn)
		return NULL;
	page = pfn_to_page(pfn);
	page->flags = PG_SLAB;
	page->priv = idx;
	page->inuse = 0;
	page->freelist = 0;
	for (offset = 0; offset + size < PAGE_SIZE; offset += size)
		*free_link(page, offset) = offset + size;
	*free_link(page, offset) = NO_FREE_OBJECT;
	partial_add(page);
	return page;
}

static void *slab_alloc(size_t size)
{
	unsigned int idx = size_class(size);
	struct page *page = partial[idx] ? partial[idx] : slab_grow(idx);
	u32 *obj;

	if (!page)
		return NULL;
	obj = free_link(page, page->freelist);
	page->freelist = *obj;
	page->inuse++;
	if (page->freelist == NO_FREE_OBJECT)
		partial_del(page);
	return obj;
}

static void slab_free(struct page *page, void *obj)
{
	u32 offset = (u32)offset_in_page(obj);

	BUG_ON(offset % class_bytes(page->priv));
	if (page->freelist == NO_FREE_OBJECT)
		partial_add(page);
	*free_link(page, offset) = page->freelist;
	page->freelist = offset;
	if (--page->inuse)
		return;
	partial_del(page);
	page->flags = 0;
	frames_free(page_to_pfn(page), 1);
}

static void *run_alloc(size_t size)
{
	unsigned long count = PAGE_ALIGN(size) >> PAGE_SHIFT;
	unsigned long pfn = frames_alloc(count, 1);
	struct page *page;

	if (!pfn)
		return NULL;
	page = pfn_to_page(pfn);
	page->flags = PG_RUN;
	page->priv = (u32)count;
	return page_address(page);
}

void *kmalloc(size_t size, gfp_t gfp)
{
	void *p;

	if (!size)
		return ZERO_SIZE_PTR;
	p = size <= KMALLOC_MAX_CACHE ? slab_alloc(size) : run_alloc(size);
	if (!p) {
		sim_mem_set_error("kmalloc(%zu): out of simulated memory; %lu "
				  "of %lu frames free, largest free run %lu",
				  size, frames_free_count(),
				  sim_mem_layout.nr_frames,
				  frames_largest_free_run());
		return NULL;
	}
	if (gfp & __GFP_ZERO)
		memset(p, 0, size);
	return p;
}

void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > SIZE_MAX / size) {
		sim_mem_set_error("kmalloc_array(%zu, %zu): size overflows", n,
				  size);
		return NULL;
	}
	return kmalloc(n * size, gfp);
}

/* The kmalloc page that owns @ptr, or NULL if kmalloc did not return it. */
static struct page *kmalloc_page(const void *ptr)
{
	struct page *page;

	if (!virt_addr_valid(ptr))
		return NULL;
	page = virt_to_page(ptr);
	if (page->flags & PG_SLAB)
		return page;
	if ((page->flags & PG_RUN) && !offset_in_page(ptr))
		return page;
	return NULL;
}

void kfree(const void *ptr)
{
	struct page *page;

	if (ZERO_OR_NULL_PTR(ptr))
		return;
	page = kmalloc_page(ptr);
	BUG_ON(!page);
	if (page->flags & PG_SLAB) {
		slab_free(page, (void *)ptr);
		return;
	}
	page->flags = 0;
	frames_free(page_to_pfn(page), page->priv);
}

size_t ksize(const void *ptr)
{
	struct page *page;

	if (ZERO_OR_NULL_PTR(ptr))
		return 0;
	page = kmalloc_page(ptr);
	BUG_ON(!page);
	if (page->flags & PG_SLAB)
		return class_bytes(page->priv);
	return (size_t)page->priv << PAGE_SHIFT;
}
