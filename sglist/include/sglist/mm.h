/* SPDX-License-Identifier: MIT */
/*
 * mm.h - simulated physical memory: page frames, the page allocator,
 * kmalloc and the linear map.
 *
 * One simulated RAM per process occupies physical (and bus) addresses
 * [0, sim_mem_size()). Its bytes live in one sparse host mapping, so the
 * host only pays for pages that are touched. Every page frame has a
 * struct page in mem_map; page frame 0 is reserved so that physical
 * address 0 is never a valid buffer.
 */
#ifndef SGLIST_MM_H
#define SGLIST_MM_H

#include <sglist/bug.h>
#include <sglist/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr) (((addr) + PAGE_SIZE - 1) & PAGE_MASK)
#define offset_in_page(p) ((unsigned long)(p) & ~PAGE_MASK)

/* Allocation flags. Only __GFP_ZERO (clear) and __GFP_NOWARN (a failure
 * leaves sim_mem_last_error() alone) change behaviour: nothing sleeps here. */
#define __GFP_ZERO 0x100u
#define __GFP_NOWARN 0x200u
#define GFP_KERNEL 0x01u
#define GFP_ATOMIC 0x02u
#define GFP_NOWAIT 0x04u
#define GFP_NOIO 0x08u
#define GFP_DMA32 0x10u

/* What kmalloc(0) returns: not NULL, but never dereferenceable. */
#define ZERO_SIZE_PTR ((void *)16)
#define ZERO_OR_NULL_PTR(x) ((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/**
 * struct page - one simulated page frame
 *
 * Driver code treats it as opaque. The allocator only writes it for
 * kmalloc's pages, so plain alloc_pages() never touches mem_map. Its
 * fields are 32-bit, frame numbers and in-page offsets where Linux keeps
 * pointers: scattered placement writes nearly every page of mem_map, so
 * its size is host memory.
 */
struct page {
	u32 flags;    /* PG_* bits of kmalloc and page_frag */
	u32 priv;     /* slab: size class; page run: frame count;
		       * fragment block: order */
	u32 inuse;    /* slab: objects handed out; fragment block:
		       * references (fragments + its cache) */
	u32 freelist; /* slab: in-page offset of the first free object,
		       * PAGE_SIZE when none is free */
	/* slab: the partial-page list, by frame number; 0 (reserved) ends it */
	u32 next, prev;
};

/* Where the simulated RAM lives on the host; read through the inlines. */
struct sim_mem_layout {
	char *virt;	      /* host address of physical address 0 */
	struct page *mem_map; /* struct page of every frame, by pfn */
	unsigned long nr_frames;
};
extern struct sim_mem_layout sim_mem_layout;

enum sim_mem_placement { SIM_MEM_CONTIGUOUS, SIM_MEM_SCATTERED };

/**
 * sim_mem_init - reserve the simulated RAM
 * @bytes: RAM size, a multiple of PAGE_SIZE, at least two pages and at most
 *	2^32 frames (16 TiB)
 * @placement: SIM_MEM_CONTIGUOUS hands out the lowest free frames first;
 *	SIM_MEM_SCATTERED puts each allocation at a random free place
 * @seed: seed of the scattered placement (same seed, same frames)
 *
 * Return: 0, -EINVAL for a bad size or a RAM that already exists, or
 * -ENOMEM when the host refuses the mapping.
 */
int sim_mem_init(uint64_t bytes, enum sim_mem_placement placement,
		 uint64_t seed);

/**
 * sim_mem_exit - release the simulated RAM and everything allocated in it
 */
void sim_mem_exit(void);

/** sim_mem_base - host address of physical address 0, or NULL */
void *sim_mem_base(void);

/** sim_mem_size - bytes of simulated RAM, 0 when none exists */
uint64_t sim_mem_size(void);

/**
 * sim_mem_pages_in_use - page frames allocated, kmalloc's pages included
 *
 * The reserved frame 0 is not counted, so a fresh RAM reports 0. Tests
 * compare it before and after to find leaks LeakSanitizer cannot see.
 */
unsigned long sim_mem_pages_in_use(void);

/** sim_mem_pages_free - page frames still free */
unsigned long sim_mem_pages_free(void);

/**
 * sim_mem_frames_fresh - are these frames in their first allocation?
 * @page: the first frame
 * @count: frames from @page on
 *
 * True if none of them was freed since sim_mem_init(): the allocator never
 * handed their bytes to anyone before, so they hold the zeros the host
 * mapping started with, unless their owner wrote them. Lets a caller skip
 * clearing memory that is already zero. False for frames outside the RAM.
 */
bool sim_mem_frames_fresh(const struct page *page, unsigned long count);

/**
 * sim_mem_last_error - why the last allocation failed
 *
 * Return: a message naming the failed request, the frames still free and
 * the largest free run, or "" if nothing has failed since sim_mem_init().
 */
const char *sim_mem_last_error(void);

/**
 * alloc_pages - allocate 2^@order physically contiguous page frames
 * @gfp: allocation flags (__GFP_ZERO clears the pages)
 * @order: log2 of the frame count; the run is aligned to its size
 *
 * Return: the first frame's struct page, or NULL (see sim_mem_last_error()).
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);

/**
 * __free_pages - free frames from alloc_pages()
 * @page: the first frame, as alloc_pages() returned it
 * @order: the order it was allocated with
 */
void __free_pages(struct page *page, unsigned int order);

#define alloc_page(gfp) alloc_pages(gfp, 0)
#define __free_page(page) __free_pages((page), 0)

/**
 * __get_free_pages - alloc_pages() returning the linear-map address
 * @gfp: allocation flags
 * @order: log2 of the frame count
 *
 * Return: the address as an unsigned long, or 0.
 */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);

/**
 * free_pages - free pages from __get_free_pages()
 * @addr: the address it returned (0 is ignored)
 * @order: the order it was allocated with
 */
void free_pages(unsigned long addr, unsigned int order);

/*
 * Page fragments: small buffers packed back to back into blocks of
 * physically contiguous page frames, as the kernel's page_frag_alloc()
 * hands out network buffers. A block returns to the page allocator when
 * every fragment of it has been freed and the cache has moved on.
 */
#define PAGE_FRAG_CACHE_MAX_ORDER 3
#define PAGE_FRAG_CACHE_MAX_SIZE (PAGE_SIZE << PAGE_FRAG_CACHE_MAX_ORDER)

/* A fragment cache: the block being carved and how far. Zero-initialise. */
struct page_frag_cache {
	struct page *page; /* head frame of the current block, or NULL */
	unsigned int size; /* bytes in the current block */
	unsigned int offset; /* bytes of it already handed out */
};

/**
 * page_frag_alloc - carve @fragsz bytes from a fragment cache
 * @nc: the cache
 * @fragsz: fragment size, 1..PAGE_FRAG_CACHE_MAX_SIZE
 * @gfp: flags for a new block (__GFP_ZERO clears the whole block)
 *
 * Fragments follow one another without padding; when the current block
 * cannot hold @fragsz more bytes, a new block of 2^PAGE_FRAG_CACHE_MAX_ORDER
 * frames is allocated (one frame if no such run is free), placed by the
 * page allocator's policy.
 *
 * Return: the fragment's linear-map address, or NULL (bad size, or no
 * memory: see sim_mem_last_error()).
 */
void *page_frag_alloc(struct page_frag_cache *nc, unsigned int fragsz,
		      gfp_t gfp);

/**
 * page_frag_free - free a fragment from page_frag_alloc()
 * @addr: any address inside the fragment
 */
void page_frag_free(void *addr);

/**
 * page_frag_cache_drain - let go of the cache's current block
 * @nc: the cache; it is empty (and reusable) afterwards
 *
 * The block is freed now if no fragment of it is still allocated, else
 * when its last fragment is freed.
 */
void page_frag_cache_drain(struct page_frag_cache *nc);

#define __get_free_page(gfp) __get_free_pages((gfp), 0)
#define get_zeroed_page(gfp) __get_free_pages((gfp) | __GFP_ZERO, 0)
#define free_page(addr) free_pages((addr), 0)

/**
 * kmalloc - allocate @size bytes of simulated RAM
 * @size: bytes wanted; 0 returns ZERO_SIZE_PTR
 * @gfp: allocation flags
 *
 * Up to 2 KiB come from power-of-two size classes carved out of pages the
 * allocator owns; larger requests get their own run of contiguous frames.
 * Return: a linear-map address or NULL.
 */
void *kmalloc(size_t size, gfp_t gfp);

/**
 * kmalloc_array - kmalloc() of @n elements of @size bytes
 * @n: element count
 * @size: element size
 * @gfp: allocation flags
 *
 * Return: as kmalloc(), NULL if @n * @size overflows.
 */
void *kmalloc_array(size_t n, size_t size, gfp_t gfp);

/**
 * kfree - free memory from kmalloc() and friends
 * @ptr: the pointer returned, NULL or ZERO_SIZE_PTR
 */
void kfree(const void *ptr);

/**
 * ksize - usable size of a kmalloc() allocation
 * @ptr: the pointer returned
 *
 * Return: the size-class or page-run size, at least what was asked for.
 */
size_t ksize(const void *ptr);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return kmalloc_array(n, size, gfp | __GFP_ZERO);
}

/**
 * get_order - smallest order whose run holds @size bytes
 * @size: bytes, at least 1
 */
static inline unsigned int get_order(unsigned long size)
{
	unsigned int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - sim_mem_layout.mem_map);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return sim_mem_layout.mem_map + pfn;
}

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn < sim_mem_layout.nr_frames;
}

static inline struct page *nth_page(struct page *page, unsigned long n)
{
	return page + n;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

static inline void *page_address(const struct page *page)
{
	return sim_mem_layout.virt + (page_to_pfn(page) << PAGE_SHIFT);
}

static inline void *phys_to_virt(phys_addr_t phys)
{
	return sim_mem_layout.virt + phys;
}

/* True if @addr lies in the simulated RAM's linear map. */
static inline bool virt_addr_valid(const void *addr)
{
	const char *p = (const char *)addr;

	return sim_mem_layout.virt && p >= sim_mem_layout.virt &&
	       (unsigned long)(p - sim_mem_layout.virt) <
		       (sim_mem_layout.nr_frames << PAGE_SHIFT);
}

static inline phys_addr_t virt_to_phys(const void *addr)
{
	BUG_ON(!virt_addr_valid(addr));
	return (phys_addr_t)((const char *)addr - sim_mem_layout.virt);
}

static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(virt_to_phys(addr) >> PAGE_SHIFT);
}

#ifdef __cplusplus
}
#endif

#endif /* SGLIST_MM_H */
