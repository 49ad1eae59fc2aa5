// SPDX-License-Identifier: MIT
/*
 * load.c - one transfer of a workload: the driver's descriptor chunks,
 * then the data buffers, then the driver's mapping, in the order a Linux
 * driver and its caller would do them.
 */
#include <errno.h>

#include <dmasim/workload/workload.h>

static int alloc_lists(struct dmasim_xfer *x, const struct dmasim_seg_spec *seg)
{
	const struct dmasim_xfer_spec *spec = &x->spec;
	int ret;

	if (spec->dir == DMA_HW_DEV_TO_MEM)
		return dmasim_buf_alloc(&x->dst, spec->entries, seg);
	ret = dmasim_buf_alloc(&x->src, spec->entries, seg);
	if (ret || spec->dir == DMA_HW_MEM_TO_DEV)
		return ret;
	/* The same draws: the destination has the source's shape. */
	return dmasim_buf_alloc(&x->dst, spec->entries, seg);
}

/**
 * dmasim_load_free - unmap a transfer, free its buffers and the transfer
 * @dd: the device the transfer was prepared for
 * @x: transfer from dmasim_load_prep(), may be partly built; NULL is a no-op
 * @layout: the layout its buffers were allocated with
 */
void dmasim_load_free(struct dmasim_dev *dd, struct dmasim_xfer *x,
		      enum dmasim_buf_layout layout)
{
	if (!x)
		return;
	dmasim_xfer_unmap(dd, x);
	dmasim_buf_free(&x->dst, layout);
	dmasim_buf_free(&x->src, layout);
	dmasim_xfer_free(x);
}

/**
 * dmasim_load_prep - allocate, map and describe one transfer
 * @dd: probed device
 * @spec: what to transfer and how its segments look
 * @out: receives the transfer on success
 *
 * Return: 0; -EINVAL for an invalid @spec (the driver's, or an in-page
 * offset past the page); -ENOMEM when simulated memory runs out; a
 * dma_map_sgtable() error. Nothing stays allocated on error.
 */
int dmasim_load_prep(struct dmasim_dev *dd, const struct dmasim_load_spec *spec,
		     struct dmasim_xfer **out)
{
	struct dmasim_xfer *x;
	int ret;

	if (spec->seg.offset >= PAGE_SIZE)
		return -EINVAL;
	ret = dmasim_xfer_alloc(dd, &spec->xfer, &x);
	if (ret)
		return ret;
	ret = alloc_lists(x, &spec->seg);
	if (!ret)
		ret = dmasim_xfer_map(dd, x);
	if (ret) {
		dmasim_load_free(dd, x, spec->seg.layout);
		return ret;
	}
	*out = x;
	return 0;
}
