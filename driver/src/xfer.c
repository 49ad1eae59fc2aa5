// SPDX-License-Identifier: MIT
/*
 * xfer.c - preparing and releasing a transfer: descriptor chunks, then
 * the DMA mapping of the caller's lists, in the order a Linux driver
 * would do them.
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
 * Only what the code below cannot survive (a chunk with no entry), answered
 * with -EINVAL as a kernel entry point must. The rules users'
 * configurations are judged by live in tb::validate() (tb/validate.h),
 * which refuses these cases first with the key named.
 */
static int spec_valid(const struct dmasim_xfer_spec *spec)
{
	return spec->entries >= 1 && spec->chain_depth >= 1 &&
	       spec->chain_depth <= spec->entries;
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

static uint64_t list_bytes(const struct sg_table *sgt)
{
	struct scatterlist *sg;
	uint64_t bytes = 0;
	unsigned int i;

	for_each_sgtable_sg(sgt, sg, i) bytes += sg->length;
	return bytes;
}

/**
 * dmasim_xfer_alloc - start a transfer: its descriptor chunks
 * @dd: probed device
 * @spec: what to transfer
 * @out: receives the transfer on success
 *
 * The chunks come first, like a driver's descriptor pool, so they do not
 * depend on how fragmented the data buffers leave memory; a request for a
 * ring (@spec->for_ring) has none, the ring's slots take its descriptors.
 * The caller then
 * puts its lists in @out->src and @out->dst (those the direction uses)
 * and calls dmasim_xfer_map().
 *
 * Return: 0; -EINVAL for an invalid @spec; -ENOMEM when simulated memory
 * runs out. Nothing stays allocated on error.
 */
int dmasim_xfer_alloc(struct dmasim_dev *dd,
		      const struct dmasim_xfer_spec *spec,
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
	ret = spec->for_ring ? 0 : dmasim_alloc_descriptors(dd->dev, x);
	if (ret) {
		dmasim_xfer_unmap(dd, x);
		dmasim_xfer_free(x);
		return ret;
	}
	*out = x;
	return 0;
}

/**
 * dmasim_xfer_map - map a transfer's lists and write its descriptors
 * @dd: the device the transfer was allocated for
 * @x: transfer from dmasim_xfer_alloc() with its lists set
 *
 * A request for a ring is only mapped: dmasim_ring_submit() writes its
 * descriptors into the ring.
 *
 * Return: 0 or a dma_map_sgtable() or descriptor error (-EINVAL when a
 * mem_to_mem transfer's lists map to different segment counts); on error
 * the caller unmaps with dmasim_xfer_unmap() before freeing its lists.
 */
int dmasim_xfer_map(struct dmasim_dev *dd, struct dmasim_xfer *x)
{
	int ret = map_lists(dd, x);

	/* One descriptor moves both sides: the lists must map alike. */
	if (!ret && x->spec.dir == DMA_HW_MEM_TO_MEM &&
	    x->dst.nents != x->src.nents)
		ret = -EINVAL;
	if (ret)
		return ret;
	/* Writing the descriptors counts the bytes; a ring request has none. */
	if (!x->spec.for_ring)
		return dmasim_build_descriptors(x);
	x->bytes = list_bytes(dmasim_described_list(x));
	return 0;
}

/**
 * dmasim_xfer_unmap - release the descriptors and unmap the lists
 * @dd: the device the transfer was allocated for
 * @x: transfer, may be partly built; what is already released is skipped
 *
 * The lists themselves stay the caller's, to free once this returns.
 */
void dmasim_xfer_unmap(struct dmasim_dev *dd, struct dmasim_xfer *x)
{
	dmasim_free_descriptors(dd->dev, x);
	if (x->dst_mapped)
		dma_unmap_sgtable(dd->dev, &x->dst, DMA_FROM_DEVICE, 0);
	if (x->src_mapped)
		dma_unmap_sgtable(dd->dev, &x->src, DMA_TO_DEVICE, 0);
	x->dst_mapped = x->src_mapped = 0;
	/* No translation of the caller's pages may outlive them in the IOTLB. */
	dmasim_iommu_invalidate(dd);
}

/**
 * dmasim_xfer_free - free a transfer
 * @x: transfer from dmasim_xfer_alloc(), unmapped with dmasim_xfer_unmap()
 *     (the caller frees its lists in between); NULL is a no-op
 */
void dmasim_xfer_free(struct dmasim_xfer *x)
{
	kfree(x);
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
	const struct sg_table *list = dmasim_described_list(x);
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
