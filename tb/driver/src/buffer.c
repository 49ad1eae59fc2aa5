// SPDX-License-Identifier: MIT
/*
 * buffer.c - data buffers of a transfer: one physically contiguous block
 * of page frames per scatter list segment, so the placement policy of the
 * page allocator decides how fragmented the list is.
 */
#include <errno.h>

#include <dmasim/driver/dmasim_dma.h>

static unsigned int seg_order(const struct scatterlist *sg)
{
	return get_order((uint64_t)sg->offset + sg->length);
}

/* Gives one segment of @len bytes at @offset its own block of pages. */
static int seg_fill(struct scatterlist *sg, uint32_t len, uint32_t offset)
{
	struct page *page =
		alloc_pages(GFP_KERNEL, get_order((uint64_t)offset + len));

	if (!page)
		return -ENOMEM;
	sg_set_page(sg, page, len, offset);
	return 0;
}

/**
 * dmasim_buf_free - free a list made by dmasim_buf_alloc*()
 * @sgt: the table; segments without a page (a failed allocation) are skipped
 */
void dmasim_buf_free(struct sg_table *sgt)
{
	struct scatterlist *sg;
	unsigned int i;

	if (!sgt->sgl)
		return;
	for_each_sgtable_sg(sgt, sg, i)
	{
		if (sg_page(sg))
			__free_pages(sg_page(sg), seg_order(sg));
	}
	sg_free_table(sgt);
}

/**
 * dmasim_buf_alloc - allocate a scatter list and its data buffers
 * @sgt: table to fill; must be zeroed
 * @entries: number of segments, >= 1
 * @seg: segment lengths and in-page offset
 *
 * Return: 0, or -ENOMEM with nothing left allocated.
 */
int dmasim_buf_alloc(struct sg_table *sgt, unsigned int entries,
		     const struct dmasim_seg_spec *seg)
{
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
		ret = seg_fill(sg, dmasim_seg_next_len(&rng, seg), seg->offset);
		if (ret) {
			dmasim_buf_free(sgt);
			return ret;
		}
	}
	return 0;
}

/**
 * dmasim_buf_alloc_like - allocate a list with the segment lengths and
 * offsets of another, on freshly allocated (so differently placed) pages
 * @sgt: table to fill; must be zeroed
 * @like: the list to copy the shape of
 *
 * Return: 0, or -ENOMEM with nothing left allocated.
 */
int dmasim_buf_alloc_like(struct sg_table *sgt, const struct sg_table *like)
{
	struct scatterlist *sg, *from = like->sgl;
	unsigned int i;
	int ret;

	ret = sg_alloc_table(sgt, like->orig_nents, GFP_KERNEL);
	if (ret)
		return ret;
	for_each_sgtable_sg(sgt, sg, i)
	{
		ret = seg_fill(sg, from->length, from->offset);
		if (ret) {
			dmasim_buf_free(sgt);
			return ret;
		}
		from = sg_next(from);
	}
	return 0;
}
