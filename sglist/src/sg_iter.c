// SPDX-License-Identifier: MIT
/*
 * sg_iter.c - page iterators, the mapping iterator and the copy helpers
 * built on it.
 */
#include <sglist/scatterlist.h>

#include <string.h>

/* Pages spanned by @bytes starting at @offset into an entry's page. */
static unsigned int page_count(unsigned int offset, unsigned int bytes)
{
	return (unsigned int)(PAGE_ALIGN((unsigned long)offset + bytes) >>
			      PAGE_SHIFT);
}

void __sg_page_iter_start(struct sg_page_iter *piter,
			  struct scatterlist *sglist, unsigned int nents,
			  unsigned long pgoffset)
{
	piter->__pg_advance = 0;
	piter->__nents = nents;
	piter->sg = sglist;
	piter->sg_pgoffset = (unsigned int)pgoffset;
}

/* Advance @piter, sizing each entry with @pages_of; false at the end. */
static bool page_iter_step(struct sg_page_iter *piter,
			   unsigned int (*pages_of)(const struct scatterlist *))
{
	if (!piter->__nents || !piter->sg)
		return false;
	piter->sg_pgoffset += piter->__pg_advance;
	piter->__pg_advance = 1;
	while (piter->sg_pgoffset >= pages_of(piter->sg)) {
		piter->sg_pgoffset -= pages_of(piter->sg);
		piter->sg = sg_next(piter->sg);
		if (!--piter->__nents || !piter->sg)
			return false;
	}
	return true;
}

static unsigned int cpu_pages(const struct scatterlist *sg)
{
	return page_count(sg->offset, sg->length);
}

static unsigned int dma_pages(const struct scatterlist *sg)
{
	return page_count(sg->offset, sg_dma_len(sg));
}

bool __sg_page_iter_next(struct sg_page_iter *piter)
{
	return page_iter_step(piter, cpu_pages);
}

bool __sg_page_iter_dma_next(struct sg_dma_page_iter *dma_iter)
{
	return page_iter_step(&dma_iter->base, dma_pages);
}

void sg_miter_start(struct sg_mapping_iter *miter, struct scatterlist *sgl,
		    unsigned int nents, unsigned int flags)
{
	memset(miter, 0, sizeof(*miter));
	__sg_page_iter_start(&miter->piter, sgl, nents, 0);
	miter->__flags = flags;
}

/* Make sure a page with unvisited bytes is current; false at the end. */
static bool miter_get_next_page(struct sg_mapping_iter *miter)
{
	struct scatterlist *sg;
	unsigned long end;

	if (miter->__remaining)
		return true;
	if (!__sg_page_iter_next(&miter->piter))
		return false;
	sg = miter->piter.sg;
	/*
	 * An empty entry has no bytes to visit; skipping its offset's pages
	 * would carry past its page count into the next entry.
	 */
	if (!sg->length) {
		miter->__remaining = 0;
		return true;
	}
	/* Only an entry's first page starts at its offset. */
	miter->__offset = miter->piter.sg_pgoffset ? 0 : sg->offset;
	miter->piter.sg_pgoffset += miter->__offset >> PAGE_SHIFT;
	miter->__offset &= PAGE_SIZE - 1;
	end = (unsigned long)sg->offset + sg->length;
	miter->__remaining =
		(unsigned int)(end -
			       ((unsigned long)miter->piter.sg_pgoffset
				<< PAGE_SHIFT) -
			       miter->__offset);
	if (miter->__remaining > PAGE_SIZE - miter->__offset)
		miter->__remaining = PAGE_SIZE - miter->__offset;
	return true;
}

bool sg_miter_skip(struct sg_mapping_iter *miter, off_t offset)
{
	sg_miter_stop(miter);
	while (offset) {
		unsigned int step;

		if (!miter_get_next_page(miter))
			return false;
		step = offset < miter->__remaining ? (unsigned int)offset
						   : miter->__remaining;
		miter->__offset += step;
		miter->__remaining -= step;
		offset -= step;
	}
	return true;
}

bool sg_miter_next(struct sg_mapping_iter *miter)
{
	sg_miter_stop(miter);
	/* A page whose entry is empty yields no piece: move past it. */
	do {
		if (!miter_get_next_page(miter))
			return false;
	} while (!miter->__remaining);
	miter->page = sg_page_iter_page(&miter->piter);
	miter->consumed = miter->length = miter->__remaining;
	miter->addr = (char *)page_address(miter->page) + miter->__offset;
	return true;
}

void sg_miter_stop(struct sg_mapping_iter *miter)
{
	BUG_ON(miter->consumed > miter->length);
	if (!miter->addr)
		return;
	miter->__offset += (unsigned int)miter->consumed;
	miter->__remaining -= (unsigned int)miter->consumed;
	miter->page = NULL;
	miter->addr = NULL;
	miter->length = 0;
	miter->consumed = 0;
}

/*
 * Walk @buflen bytes of the list after @skip, handing each piece to @fn
 * with the matching position in a linear buffer. Return: bytes walked.
 */
static size_t
sg_walk(struct scatterlist *sgl, unsigned int nents, size_t buflen, off_t skip,
	unsigned int flags,
	void (*fn)(void *piece, size_t len, size_t pos, void *ctx), void *ctx)
{
	struct sg_mapping_iter miter;
	size_t done = 0;

	sg_miter_start(&miter, sgl, nents, flags);
	if (!sg_miter_skip(&miter, skip))
		return 0;
	while (done < buflen && sg_miter_next(&miter)) {
		size_t len = miter.length < buflen - done ? miter.length
							  : buflen - done;

		fn(miter.addr, len, done, ctx);
		miter.consumed = len;
		done += len;
	}
	sg_miter_stop(&miter);
	return done;
}

static void copy_to_buf(void *piece, size_t len, size_t pos, void *buf)
{
	memcpy((char *)buf + pos, piece, len);
}

static void copy_from_buf(void *piece, size_t len, size_t pos, void *buf)
{
	memcpy(piece, (const char *)buf + pos, len);
}

static void zero_piece(void *piece, size_t len, size_t pos, void *ctx)
{
	(void)pos;
	(void)ctx;
	memset(piece, 0, len);
}

size_t sg_copy_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
		      size_t buflen, off_t skip, bool to_buffer)
{
	if (to_buffer)
		return sg_walk(sgl, nents, buflen, skip,
			       SG_MITER_ATOMIC | SG_MITER_FROM_SG, copy_to_buf,
			       buf);
	return sg_walk(sgl, nents, buflen, skip,
		       SG_MITER_ATOMIC | SG_MITER_TO_SG, copy_from_buf, buf);
}

size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen)
{
	return sg_copy_buffer(sgl, nents, (void *)buf, buflen, 0, false);
}

size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
			 size_t buflen)
{
	return sg_copy_buffer(sgl, nents, buf, buflen, 0, true);
}

size_t sg_pcopy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			    const void *buf, size_t buflen, off_t skip)
{
	return sg_copy_buffer(sgl, nents, (void *)buf, buflen, skip, false);
}

size_t sg_pcopy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			  void *buf, size_t buflen, off_t skip)
{
	return sg_copy_buffer(sgl, nents, buf, buflen, skip, true);
}

size_t sg_zero_buffer(struct scatterlist *sgl, unsigned int nents,
		      size_t buflen, off_t skip)
{
	return sg_walk(sgl, nents, buflen, skip,
		       SG_MITER_ATOMIC | SG_MITER_TO_SG, zero_piece, NULL);
}
