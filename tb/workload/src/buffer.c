// SPDX-License-Identifier: MIT
/*
 * buffer.c - data buffers of a transfer. Pages layout: one physically
 * contiguous block of page frames per scatter list segment, so the
 * placement policy of the page allocator decides how fragmented the list
 * is. Packed layout: segments back to back in page fragments
 * (page_frag_alloc()), so small segments share frames; a segment too big
 * for a fragment block still gets frames of its own.
 */
#include <errno.h>

#include <dmasim/workload/workload.h>

/**
 * dmasim_buf_is_fragment - whether a segment lives in a page fragment
 * @layout: the list's layout
 * @length: the segment's length
 *
 * Return: nonzero for a packed segment that fits a fragment block.
 */
int dmasim_buf_is_fragment(enum dmasim_buf_layout layout, uint32_t length)
{
	return layout == DMASIM_BUF_PACKED &&
	       length <= PAGE_FRAG_CACHE_MAX_SIZE;
}

static unsigned int seg_order(const struct scatterlist *sg)
{
	return get_order((uint64_t)sg->offset + sg->length);
}

/* Gives one segment of @len bytes at @offset its own block of pages. */
static int seg_fill_pages(struct scatterlist *sg, uint32_t len, uint32_t offset)
{
	struct page *page =
		alloc_pages(GFP_KERNEL, get_order((uint64_t)offset + len));

	if (!page)
		return -ENOMEM;
	sg_set_page(sg, page, len, offset);
	return 0;
}

/* Places one segment of @len bytes: a fragment of @nc, or its own pages. */
static int seg_fill(struct scatterlist *sg, uint32_t len, uint32_t offset,
		    enum dmasim_buf_layout layout, struct page_frag_cache *nc)
{
	void *va;

	if (!dmasim_buf_is_fragment(layout, len))
		return seg_fill_pages(sg, len,
				      layout == DMASIM_BUF_PACKED ? 0 : offset);
	va = page_frag_alloc(nc, len, GFP_KERNEL);
	if (!va)
		return -ENOMEM;
	sg_set_buf(sg, va, len);
	return 0;
}

/**
 * dmasim_buf_free - free a list made by dmasim_buf_alloc*()
 * @sgt: the table; segments without a page (a failed allocation) are skipped
 * @layout: the layout it was allocated with
 */
void dmasim_buf_free(struct sg_table *sgt, enum dmasim_buf_layout layout)
{
	struct scatterlist *sg;
	unsigned int i;

	if (!sgt->sgl)
		return;
	for_each_sgtable_sg(sgt, sg, i)
	{
		if (!sg_page(sg))
			continue;
		if (dmasim_buf_is_fragment(layout, sg->length))
			page_frag_free(sg_virt(sg));
		else
			__free_pages(sg_page(sg), seg_order(sg));
	}
	sg_free_table(sgt);
}

/**
 * dmasim_buf_alloc - allocate a scatter list and its data buffers
 * @sgt: table to fill; must be zeroed
 * @entries: number of segments, >= 1
 * @seg: segment lengths, in-page offset and layout
 *
 * The same @seg draws the same lengths and offsets again: a second call
 * makes a list of the same shape on freshly allocated (so differently
 * placed) memory, without reading the first list.
 *
 * Return: 0, or -ENOMEM with nothing left allocated.
 */
int dmasim_buf_alloc(struct sg_table *sgt, unsigned int entries,
		     const struct dmasim_seg_spec *seg)
{
	struct page_frag_cache nc = {0};
	struct dmasim_seg_rng rng;
	struct scatterlist *sg;
	unsigned int i;
	int ret;

	ret = sg_alloc_table(sgt, entries, GFP_KERNEL);
	if (ret)
		return ret;
	dmasim_seg_rng_init(&rng, seg);
	for_each_sgtable_sg(sgt, sg, i)
	{
		ret = seg_fill(sg, dmasim_seg_next_len(&rng, seg),
			       dmasim_seg_offset(seg, i), seg->layout, &nc);
		if (ret)
			break;
	}
	page_frag_cache_drain(&nc);
	if (ret)
		dmasim_buf_free(sgt, seg->layout);
	return ret;
}

/* Pages of the blocks segment @i takes when it is not a fragment. */
static uint64_t own_pages(const struct dmasim_seg_spec *seg, unsigned int i,
			  uint32_t len)
{
	uint32_t offset =
		seg->layout == DMASIM_BUF_PACKED ? 0 : dmasim_seg_offset(seg, i);

	return 1ull << get_order((uint64_t)offset + len);
}

/*
 * @entries segments of seg->bytes: a fragment block holds
 * floor(block / bytes) of them (the next one does not fit what is left).
 */
static uint64_t fixed_pages_needed(const struct dmasim_seg_spec *seg,
				   unsigned int entries)
{
	uint32_t len = (uint32_t)seg->bytes;
	uint64_t per_block;

	if (!dmasim_buf_is_fragment(seg->layout, len))
		return entries * own_pages(seg, 0, len);
	per_block = PAGE_FRAG_CACHE_MAX_SIZE / len;
	return ((entries + per_block - 1) / per_block)
	       << PAGE_FRAG_CACHE_MAX_ORDER;
}

/**
 * dmasim_buf_pages_needed - page frames dmasim_buf_alloc() will take
 * @seg: the segments (the same lengths are drawn)
 * @entries: number of segments
 *
 * Counts a packed list's fragment blocks as page_frag_alloc() fills them
 * (a fragment that does not fit the rest of a block opens the next one).
 * Fixed lengths are counted by formula, drawn ones segment by segment.
 *
 * Return: number of page frames.
 */
uint64_t dmasim_buf_pages_needed(const struct dmasim_seg_spec *seg,
				 unsigned int entries)
{
	uint64_t pages = 0, block_used = PAGE_FRAG_CACHE_MAX_SIZE;
	struct dmasim_seg_rng rng;
	unsigned int i;
	uint32_t len;

	if (seg->dist == DMASIM_SEG_FIXED)
		return fixed_pages_needed(seg, entries);
	dmasim_seg_rng_init(&rng, seg);
	for (i = 0; i < entries; i++) {
		len = dmasim_seg_next_len(&rng, seg);
		if (!dmasim_buf_is_fragment(seg->layout, len)) {
			pages += own_pages(seg, i, len);
			continue;
		}
		if (len > PAGE_FRAG_CACHE_MAX_SIZE - block_used) {
			pages += 1ull << PAGE_FRAG_CACHE_MAX_ORDER;
			block_used = 0;
		}
		block_used += len;
	}
	return pages;
}
