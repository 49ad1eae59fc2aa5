// SPDX-License-Identifier: MIT
/*
 * xfer.c - preparing and releasing a transfer: data buffers, DMA mapping
 * and descriptor chunks, in the order a Linux driver would do them.
 */
#include <errno.h>

#include <dmasim/driver/dmasim_dma.h>

static int has_src(const struct dmasim_xfer_spec *spec)
{
	return spec->dir != DMA_HW_DEV_TO_MEM;
}

static int has_dst(const struct dmasim_xfer_spec *spec)
{
	return spec->dir != DMA_HW_MEM_TO_DEV;
}

/*
 * Only what the code below cannot survive (a chunk with no entry, an offset
 * past its page), answered with -EINVAL as a kernel entry point must. The
 * rules users' configurations are judged by live in tb::validate()
 * (tb/validate.h), which refuses these cases first with the key named.
 */
static int spec_valid(const struct dmasim_xfer_spec *spec)
{
	return spec->entries >= 1 && spec->chain_depth >= 1 &&
	       spec->chain_depth <= spec->entries &&
	       spec->seg.offset < PAGE_SIZE;
}

static int map_lists(struct dmasim_dev *dd, struct dmasim_xfer *x)
{
	int ret;

	if (has_src(&x->spec)) {
		ret = dma_map_sgtable(dd->dev, &x->src, DMA_TO_DEVICE, 0);
		if (ret)
			return ret;
		x->src_mapped = 1;
	}
	if (has_dst(&x->spec)) {
		ret = dma_map_sgtable(dd->dev, &x->dst, DMA_FROM_DEVICE, 0);
		if (ret)
			return ret;
		x->dst_mapped = 1;
	}
	return 0;
}

static int alloc_lists(struct dmasim_xfer *x)
{
	const struct dmasim_xfer_spec *spec = &x->spec;
	int ret;

	if (spec->dir == DMA_HW_DEV_TO_MEM)
		return dmasim_buf_alloc(&x->dst, spec->entries, &spec->seg);
	ret = dmasim_buf_alloc(&x->src, spec->entries, &spec->seg);
	if (ret || spec->dir == DMA_HW_MEM_TO_DEV)
		return ret;
	return dmasim_buf_alloc_like(&x->dst, &x->src, spec->seg.layout);
}

static uint64_t list_bytes(const struct sg_table *sgt)
{
	struct scatterlist *sg;
	uint64_t bytes = 0;
	unsigned int i;

	for_each_sgtable_sg(sgt, sg, i) bytes += sg->length;
	return bytes;
}

/**
 * dmasim_xfer_free - unmap and free everything a transfer holds
 * @dd: the device the transfer was prepared for
 * @x: transfer from dmasim_xfer_prep(), may be partly built; NULL is a no-op
 */
void dmasim_xfer_free(struct dmasim_dev *dd, struct dmasim_xfer *x)
{
	if (!x)
		return;
	dmasim_free_descriptors(dd->dev, x);
	if (x->dst_mapped)
		dma_unmap_sgtable(dd->dev, &x->dst, DMA_FROM_DEVICE, 0);
	if (x->src_mapped)
		dma_unmap_sgtable(dd->dev, &x->src, DMA_TO_DEVICE, 0);
	/* No translation of the freed pages may outlive them in the IOTLB. */
	dmasim_iommu_invalidate(dd);
	dmasim_buf_free(&x->dst, x->spec.seg.layout);
	dmasim_buf_free(&x->src, x->spec.seg.layout);
	kfree(x);
}

/**
 * dmasim_xfer_prep - allocate, map and describe one transfer
 * @dd: probed device
 * @spec: what to transfer
 * @out: receives the transfer on success
 *
 * Return: 0; -EINVAL for an invalid @spec; -ENOMEM when simulated memory
 * runs out; a dma_map_sgtable() error. Nothing stays allocated on error.
 */
int dmasim_xfer_prep(struct dmasim_dev *dd, const struct dmasim_xfer_spec *spec,
		     struct dmasim_xfer **out)
{
	struct dmasim_xfer *x;
	int ret;

	if (!spec_valid(spec))
		return -EINVAL;
	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	x->spec = *spec;
	/* The hardware decides the layout the descriptors are written in. */
	x->spec.desc_bytes = dd->desc_bytes;
	x->spec.next_in_slot = dd->next_in_slot;
	x->spec.app_words = dd->app_words;
	ret = dmasim_alloc_descriptors(dd->dev, x);
	if (!ret)
		ret = alloc_lists(x);
	if (!ret)
		ret = map_lists(dd, x);
	if (!ret)
		ret = dmasim_build_descriptors(x);
	if (ret) {
		dmasim_xfer_free(dd, x);
		return ret;
	}
	x->bytes =
		list_bytes(spec->dir == DMA_HW_DEV_TO_MEM ? &x->dst : &x->src);
	*out = x;
	return 0;
}

/* The list whose segments the data descriptors describe, in order. */
static const struct sg_table *described_list(const struct dmasim_xfer *x)
{
	return x->spec.dir == DMA_HW_DEV_TO_MEM ? &x->dst : &x->src;
}

/**
 * dmasim_xfer_revoke - take away the translation of one data descriptor's
 * first page, as a buggy driver that unmapped too early would
 * @dd: probed device whose IOMMU is on
 * @x: prepared transfer, not started
 * @index: data descriptor (0 = the first)
 *
 * Clears the IOMMU leaf of the page holding the first byte the descriptor
 * reads (or, device to memory, writes) and invalidates the IOTLB, so the
 * controller's access stops the channel with DMA_ERR_TRANSLATION.
 *
 * Return: 0, -ENODEV without an IOMMU, -EINVAL if @index is past the list.
 */
int dmasim_xfer_revoke(struct dmasim_dev *dd, struct dmasim_xfer *x,
		       unsigned int index)
{
	const struct sg_table *list = described_list(x);
	struct scatterlist *sg;
	unsigned int i;

	if (!dd->iommu)
		return -ENODEV;
	for_each_sgtable_dma_sg(list, sg, i)
	{
		if (i != index)
			continue;
		if (sim_iommu_revoke(dd->dev, sg_dma_address(sg)))
			return -EINVAL;
		dmasim_iommu_invalidate(dd);
		return 0;
	}
	return -EINVAL;
}
