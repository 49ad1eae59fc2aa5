/* SPDX-License-Identifier: MIT */
/*
 * scatterlist.h - the Linux chained scatterlist API over simulated memory.
 *
 * A scatterlist is an array of entries, each naming a run of bytes in
 * physical memory by page, offset and length. Arrays are joined into one
 * long list by turning the final entry of an array into a chain link that
 * points at the next array; the list's last data entry carries an end
 * marker. Both flags live in the low bits of page_link, which is why
 * struct page pointers must be at least 4-byte aligned.
 */
#ifndef SGLIST_SCATTERLIST_H
#define SGLIST_SCATTERLIST_H

#include <sglist/bug.h>
#include <sglist/mm.h>
#include <sglist/types.h>

#include <limits.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct scatterlist {
	unsigned long page_link; /* struct page * | SG_CHAIN | SG_END */
	unsigned int offset;	 /* byte offset from the page's start */
	unsigned int length;	 /* bytes */
	dma_addr_t dma_address;	 /* set by dma_map_sg() */
	unsigned int dma_length; /* set by dma_map_sg() */
};

#define SG_CHAIN 0x01UL
#define SG_END 0x02UL
#define SG_PAGE_LINK_MASK (SG_CHAIN | SG_END)

/* Entries per one-page array: the chunk size sg_alloc_table() uses. */
#define SG_MAX_SINGLE_ALLOC (PAGE_SIZE / sizeof(struct scatterlist))

#define sg_dma_address(sg) ((sg)->dma_address)
#define sg_dma_len(sg) ((sg)->dma_length)

struct sg_table {
	struct scatterlist *sgl; /* the list */
	unsigned int nents;	 /* mapped entries (dma_map_sgtable) */
	unsigned int orig_nents; /* data entries, chain links excluded */
};

struct sg_append_table {
	struct sg_table sgt;	  /* the table being built */
	struct scatterlist *prv;  /* last data entry so far */
	unsigned int total_nents; /* allocated slots, for freeing */
};

static inline bool sg_is_chain(const struct scatterlist *sg)
{
	return sg->page_link & SG_CHAIN;
}

static inline bool sg_is_last(const struct scatterlist *sg)
{
	return sg->page_link & SG_END;
}

/* The array a chain link points to. */
static inline struct scatterlist *sg_chain_ptr(const struct scatterlist *sg)
{
	return (struct scatterlist *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

/*
 * A chain link is one entry in a chunk: out of line, sg_next() keeps a
 * branch the CPU predicts past, where an inlined select would make every
 * step wait for the next entry's load (a list walk ran at memory latency).
 */
__attribute__((cold)) struct scatterlist *
sim_sg_follow_chain(const struct scatterlist *link);

/**
 * sg_next - the entry after @sg, following a chain link
 * @sg: a data entry
 *
 * Return: the next data entry, or NULL if @sg is marked as the end.
 */
static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	if (sg_is_last(sg))
		return NULL;
	sg++;
	if (sg_is_chain(sg))
		sg = sim_sg_follow_chain(sg);
	return sg;
}

#define for_each_sg(sglist, sg, nr, __i)               \
	for ((__i) = 0, (sg) = (sglist); (__i) < (nr); \
	     (__i)++, (sg) = sg_next(sg))

/* Walk a table's data entries, or its DMA segments after mapping. */
#define for_each_sgtable_sg(sgt, sg, i) \
	for_each_sg((sgt)->sgl, sg, (sgt)->orig_nents, i)
#define for_each_sgtable_dma_sg(sgt, sg, i) \
	for_each_sg((sgt)->sgl, sg, (sgt)->nents, i)

/**
 * sg_assign_page - point @sg at @page, keeping its chain and end bits
 * @sg: a data entry (not a chain link)
 * @page: the page; its pointer's low two bits must be clear
 */
static inline void sg_assign_page(struct scatterlist *sg, struct page *page)
{
	unsigned long flags = sg->page_link & SG_PAGE_LINK_MASK;

	BUG_ON((unsigned long)page & SG_PAGE_LINK_MASK);
	BUG_ON(sg_is_chain(sg));
	sg->page_link = flags | (unsigned long)page;
}

/**
 * sg_set_page - describe @len bytes at @offset into @page
 * @sg: a data entry
 * @page: first page of the bytes
 * @len: byte count; @offset + @len must fit in an unsigned int
 * @offset: offset from the page's start, may exceed a page
 */
static inline void sg_set_page(struct scatterlist *sg, struct page *page,
			       unsigned int len, unsigned int offset)
{
	BUG_ON(len > UINT_MAX - offset);
	sg_assign_page(sg, page);
	sg->offset = offset;
	sg->length = len;
}

/* The page of a data entry; a chain link has none. */
static inline struct page *sg_page(const struct scatterlist *sg)
{
	BUG_ON(sg_is_chain(sg));
	return (struct page *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

/**
 * sg_set_buf - describe a buffer in simulated RAM's linear map
 * @sg: a data entry
 * @buf: the buffer; all of it must lie in simulated RAM
 * @buflen: its length in bytes
 */
static inline void sg_set_buf(struct scatterlist *sg, const void *buf,
			      unsigned int buflen)
{
	BUG_ON(!virt_addr_valid(buf));
	BUG_ON(buflen && !virt_addr_valid((const char *)buf + (buflen - 1)));
	sg_set_page(sg, virt_to_page(buf), buflen, offset_in_page(buf));
}

/* Physical address of the entry's first byte. */
static inline phys_addr_t sg_phys(const struct scatterlist *sg)
{
	return page_to_phys(sg_page(sg)) + sg->offset;
}

/* Linear-map address of the entry's first byte. */
static inline void *sg_virt(const struct scatterlist *sg)
{
	return (char *)page_address(sg_page(sg)) + sg->offset;
}

/* Make @sg the last entry: a chain link marked so becomes a data entry. */
static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->page_link |= SG_END;
	sg->page_link &= ~SG_CHAIN;
}

static inline void sg_unmark_end(struct scatterlist *sg)
{
	sg->page_link &= ~SG_END;
}

/* Mark the final slot of a fresh array of @nents entries as the end. */
static inline void sg_init_marker(struct scatterlist *sgl, unsigned int nents)
{
	sg_mark_end(&sgl[nents - 1]);
}

/* Turn @chain_sg into a link to @sgl. */
static inline void __sg_chain(struct scatterlist *chain_sg,
			      struct scatterlist *sgl)
{
	BUG_ON((unsigned long)sgl & SG_PAGE_LINK_MASK);
	chain_sg->offset = 0;
	chain_sg->length = 0;
	chain_sg->page_link = ((unsigned long)sgl | SG_CHAIN) & ~SG_END;
}

/**
 * sg_chain - join the array @prv to the list @sgl
 * @prv: the first array
 * @prv_nents: entries in @prv; its last one becomes the chain link
 * @sgl: the list that follows
 *
 * The link slot must be the array's final slot, as sg_init_table() left
 * it (end-marked), or an existing link being redirected.
 */
static inline void sg_chain(struct scatterlist *prv, unsigned int prv_nents,
			    struct scatterlist *sgl)
{
	BUG_ON(prv_nents == 0 || !sgl);
	BUG_ON(!sg_is_last(&prv[prv_nents - 1]) &&
	       !sg_is_chain(&prv[prv_nents - 1]));
	__sg_chain(&prv[prv_nents - 1], sgl);
}

/**
 * sg_nents - count the data entries of a list
 * @sg: the first entry
 *
 * Return: entries up to and including the one marked as the end.
 */
int sg_nents(struct scatterlist *sg);

/**
 * sg_nents_for_len - entries needed to cover @len bytes
 * @sg: the first entry
 * @len: bytes
 *
 * Return: the entry count (0 for @len 0), or -EINVAL if the whole list
 * holds fewer than @len bytes.
 */
int sg_nents_for_len(struct scatterlist *sg, u64 len);

/**
 * sg_last - the last of the first @nents entries, across chain links
 * @sgl: the first entry
 * @nents: entries to walk, at least 1
 */
struct scatterlist *sg_last(struct scatterlist *sgl, unsigned int nents);

/**
 * sg_init_table - clear an array of @nents entries and mark its end
 * @sgl: the array
 * @nents: its length, at least 1
 */
void sg_init_table(struct scatterlist *sgl, unsigned int nents);

/**
 * sg_init_one - a one-entry list describing @buf
 * @sg: the entry
 * @buf: a buffer in simulated RAM
 * @buflen: its length
 */
void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen);

typedef struct scatterlist *(sg_alloc_fn)(unsigned int, gfp_t);
typedef void(sg_free_fn)(struct scatterlist *, unsigned int);

/**
 * __sg_alloc_table - allocate a chained table in arrays of @max_ents
 * @table: the table to fill in
 * @nents: data entries wanted
 * @max_ents: slots per array; each non-final array spends one on the link
 * @first_chunk: optional preallocated first array, or NULL
 * @nents_first_chunk: slots in @first_chunk
 * @gfp: allocation flags
 * @alloc_fn: allocates one array
 *
 * Return: 0, -EINVAL for @nents 0 (or @max_ents < 2), -ENOMEM. On
 * -ENOMEM the table holds what was allocated; free it with
 * __sg_free_table() and the same @max_ents.
 */
int __sg_alloc_table(struct sg_table *table, unsigned int nents,
		     unsigned int max_ents, struct scatterlist *first_chunk,
		     unsigned int nents_first_chunk, gfp_t gfp,
		     sg_alloc_fn *alloc_fn);

/**
 * __sg_free_table - free a table built by __sg_alloc_table()
 * @table: the table
 * @max_ents: the @max_ents it was allocated with
 * @nents_first_chunk: the preallocated first array's slots, or 0
 * @free_fn: frees one array
 * @num_ents: data entries to free, normally @table->orig_nents
 */
void __sg_free_table(struct sg_table *table, unsigned int max_ents,
		     unsigned int nents_first_chunk, sg_free_fn *free_fn,
		     unsigned int num_ents);

/**
 * sg_alloc_table - allocate a table of @nents data entries
 * @table: the table
 * @nents: data entries
 * @gfp: allocation flags
 *
 * Arrays hold SG_MAX_SINGLE_ALLOC slots (one page) and are chained.
 * Return: 0, -EINVAL or -ENOMEM (nothing stays allocated on failure).
 */
int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp);

/** sg_free_table - free a table from sg_alloc_table() */
void sg_free_table(struct sg_table *table);

/**
 * sim_sg_alloc_table_chunked - sg_alloc_table() with @max_ents slots per array
 * @table: the table
 * @nents: data entries
 * @max_ents: slots per array (>= 2), may exceed a page: arrays are kmalloc'd
 * @gfp: allocation flags
 *
 * Sets the chain depth: a table spans ceil((nents - 1) / (max_ents - 1))
 * arrays (1 for nents 1). Return: as sg_alloc_table().
 */
int sim_sg_alloc_table_chunked(struct sg_table *table, unsigned int nents,
			       unsigned int max_ents, gfp_t gfp);

/** sim_sg_free_table_chunked - free a table from sim_sg_alloc_table_chunked()
 */
void sim_sg_free_table_chunked(struct sg_table *table, unsigned int max_ents);

/**
 * sg_alloc_append_table_from_pages - append pages to a table, merging runs
 * @sgt_append: the table; zero it before the first call
 * @pages: the pages
 * @n_pages: how many
 * @offset: offset into the first page; must be 0 when appending
 * @size: bytes described, from @offset
 * @max_segment: longest entry, rounded down to a page multiple (>= PAGE_SIZE)
 * @left_pages: pages still to be appended by later calls (0 on the last);
 *	while non-zero a slot is kept free for the chain link
 * @gfp_mask: allocation flags
 *
 * Physically consecutive pages become one entry of at most @max_segment
 * bytes; a first page that continues the previous call's last entry
 * extends it. Return: 0, -EINVAL or -ENOMEM.
 */
int sg_alloc_append_table_from_pages(struct sg_append_table *sgt_append,
				     struct page **pages, unsigned int n_pages,
				     unsigned int offset, unsigned long size,
				     unsigned int max_segment,
				     unsigned int left_pages, gfp_t gfp_mask);

/**
 * sg_alloc_table_from_pages_segment - a table for a page array, merged
 * @sgt: the table
 * @pages: the pages
 * @n_pages: how many
 * @offset: offset into the first page (only the first entry has one)
 * @size: bytes described, from @offset
 * @max_segment: longest entry, rounded down to a page multiple (>= PAGE_SIZE)
 * @gfp_mask: allocation flags
 *
 * Return: 0, -EINVAL or -ENOMEM. Free with sg_free_table().
 */
int sg_alloc_table_from_pages_segment(struct sg_table *sgt, struct page **pages,
				      unsigned int n_pages, unsigned int offset,
				      unsigned long size,
				      unsigned int max_segment, gfp_t gfp_mask);

/** sg_free_append_table - free a table from sg_alloc_append_table_from_pages()
 */
void sg_free_append_table(struct sg_append_table *sgt_append);

/* sg_alloc_table_from_pages_segment() without a segment limit. */
static inline int sg_alloc_table_from_pages(struct sg_table *sgt,
					    struct page **pages,
					    unsigned int n_pages,
					    unsigned int offset,
					    unsigned long size, gfp_t gfp_mask)
{
	return sg_alloc_table_from_pages_segment(sgt, pages, n_pages, offset,
						 size, UINT_MAX, gfp_mask);
}

/* Page-by-page iteration over a list's bytes (for_each_sg_page). */
struct sg_page_iter {
	struct scatterlist *sg;	  /* current entry */
	unsigned int sg_pgoffset; /* page index within that entry */
	unsigned int __nents;	  /* entries left */
	int __pg_advance;	  /* pages to step on the next call */
};

struct sg_dma_page_iter {
	struct sg_page_iter base;
};

void __sg_page_iter_start(struct sg_page_iter *piter,
			  struct scatterlist *sglist, unsigned int nents,
			  unsigned long pgoffset);
/* Step to the next page of the entries' CPU view; false at the end. */
bool __sg_page_iter_next(struct sg_page_iter *piter);
/* Step to the next page of the entries' DMA view; false at the end. */
bool __sg_page_iter_dma_next(struct sg_dma_page_iter *dma_iter);

static inline struct page *sg_page_iter_page(struct sg_page_iter *piter)
{
	return nth_page(sg_page(piter->sg), piter->sg_pgoffset);
}

static inline dma_addr_t
sg_page_iter_dma_address(struct sg_dma_page_iter *dma_iter)
{
	return sg_dma_address(dma_iter->base.sg) +
	       ((dma_addr_t)dma_iter->base.sg_pgoffset << PAGE_SHIFT);
}

#define for_each_sg_page(sglist, piter, nents, pgoffset)                   \
	for (__sg_page_iter_start((piter), (sglist), (nents), (pgoffset)); \
	     __sg_page_iter_next(piter);)

#define for_each_sg_dma_page(sglist, dma_iter, dma_nents, pgoffset)         \
	for (__sg_page_iter_start(&(dma_iter)->base, (sglist), (dma_nents), \
				  (pgoffset));                              \
	     __sg_page_iter_dma_next(dma_iter);)

#define for_each_sgtable_page(sgt, piter, pgoffset) \
	for_each_sg_page((sgt)->sgl, piter, (sgt)->orig_nents, pgoffset)
#define for_each_sgtable_dma_page(sgt, dma_iter, pgoffset) \
	for_each_sg_dma_page((sgt)->sgl, dma_iter, (sgt)->nents, pgoffset)

/* Mapping iterator: walks a list in pieces that never cross a page. */
#define SG_MITER_ATOMIC (1 << 0)  /* accepted; nothing sleeps here */
#define SG_MITER_TO_SG (1 << 1)	  /* the caller writes the list */
#define SG_MITER_FROM_SG (1 << 2) /* the caller reads the list */

struct sg_mapping_iter {
	struct page *page; /* page of the current piece */
	void *addr;	   /* its address */
	size_t length;	   /* its length */
	size_t consumed;   /* bytes the caller used; set before next/stop */
	struct sg_page_iter piter;
	unsigned int __offset;	  /* offset of the next piece in its page */
	unsigned int __remaining; /* bytes left in the current page */
	unsigned int __flags;
};

/**
 * sg_miter_start - start a mapping iterator
 * @miter: the iterator
 * @sgl: the list
 * @nents: entries to walk
 * @flags: SG_MITER_* flags
 */
void sg_miter_start(struct sg_mapping_iter *miter, struct scatterlist *sgl,
		    unsigned int nents, unsigned int flags);

/**
 * sg_miter_next - map the next piece
 * @miter: the iterator
 *
 * Unless the caller set @miter->consumed lower, the previous piece counts
 * as fully used. Return: true with addr/length set, false at the end.
 */
bool sg_miter_next(struct sg_mapping_iter *miter);

/**
 * sg_miter_skip - advance @offset bytes without mapping them
 * @miter: the iterator
 * @offset: bytes to skip
 *
 * Return: true, or false if the list ends first.
 */
bool sg_miter_skip(struct sg_mapping_iter *miter, off_t offset);

/** sg_miter_stop - finish the current piece (call before dropping @miter) */
void sg_miter_stop(struct sg_mapping_iter *miter);

/**
 * sg_copy_buffer - copy between a linear buffer and a list
 * @sgl: the list
 * @nents: entries
 * @buf: the buffer
 * @buflen: its length
 * @skip: list bytes to skip first
 * @to_buffer: true copies list -> buffer, false buffer -> list
 *
 * Return: bytes copied (less than @buflen if the list is shorter).
 */
size_t sg_copy_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
		      size_t buflen, off_t skip, bool to_buffer);

size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen);
size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
			 size_t buflen);
size_t sg_pcopy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			    const void *buf, size_t buflen, off_t skip);
size_t sg_pcopy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			  void *buf, size_t buflen, off_t skip);

/**
 * sg_zero_buffer - zero @buflen bytes of a list after @skip
 * @sgl: the list
 * @nents: entries
 * @buflen: bytes to zero
 * @skip: bytes to skip first
 *
 * Return: bytes zeroed.
 */
size_t sg_zero_buffer(struct scatterlist *sgl, unsigned int nents,
		      size_t buflen, off_t skip);

#ifdef __cplusplus
}
#endif

#endif /* SGLIST_SCATTERLIST_H */
