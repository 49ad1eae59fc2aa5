// SPDX-License-Identifier: MIT
/*
 * ring.c - a descriptor ring a channel works through TAIL
 * (CAPS.TAIL_POINTER, docs/driver.md "Descriptor rings"), as AXI DMA's
 * Linux driver keeps its BD ring: slots allocated once and closed on
 * themselves, each request's descriptors written at the head and handed
 * over by moving TAIL to its last one, completions reaped in order.
 */
#include <errno.h>
#include <string.h>

#include <dmasim/driver/dmasim_dma.h>

#include "chan_regs.h"
#include "desc_write.h"

/* STATUS reads a polled dmasim_ring_stop() waits for ABORT to take: an
 * idle channel stops within one, a busy one once its bursts in flight end. */
#define RING_STOP_POLLS 100000

static unsigned int ring_stride(const struct dmasim_ring *r)
{
	return dmasim_desc_stride(&r->spec);
}

static void *slot_addr(struct dmasim_ring *r, unsigned int slot)
{
	return (char *)page_address(r->block.page) +
	       (size_t)slot * ring_stride(r);
}

static uint64_t slot_bus(const struct dmasim_ring *r, unsigned int slot)
{
	return r->block.bus + (uint64_t)slot * ring_stride(r);
}

/* The slots (chained_pages: and the chain back) mapped as one block the
 * controller reads descriptors from and writes status back to. */
static int alloc_block(struct dmasim_dev *dd, struct dmasim_ring *r)
{
	unsigned int total =
		r->slots + (r->spec.format == DMA_HW_FMT_CHAINED_PAGES);
	struct desc_data link = {0, 0, 0, 0, DMA_DESC_CHAIN};

	r->block.order = get_order((uint64_t)total * ring_stride(r));
	r->block.page = alloc_pages(GFP_KERNEL, r->block.order);
	if (!r->block.page)
		return -ENOMEM;
	r->block.bus =
		dma_map_page(dd->dev, r->block.page, 0,
			     PAGE_SIZE << r->block.order, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dd->dev, r->block.bus))
		return -ENOMEM;
	r->block.mapped = PAGE_SIZE << r->block.order;
	memset(page_address(r->block.page), 0, (size_t)total * ring_stride(r));
	if (r->spec.format != DMA_HW_FMT_CHAINED_PAGES)
		return 0;
	link.src = slot_bus(r, 0);
	desc_store(&r->spec, slot_addr(r, r->slots), &link);
	return desc_fits(&r->spec, &link) ? 0 : -ERANGE;
}

/**
 * dmasim_ring_alloc - allocate a descriptor ring for a channel
 * @dd: probed device whose controller runs channels to TAIL (CAPS)
 * @channel: the channel that will work it
 * @spec: direction, format and per-descriptor flags of its requests
 *        (entries and chain_depth are not used)
 * @slots: data descriptors it holds at once, >= 1
 * @out: receives the ring
 *
 * Return: 0; -ENODEV without CAPS.TAIL_POINTER; -EINVAL for a bad channel
 * or no slots; -ENOMEM when simulated memory (or IOVA space) runs out;
 * -ERANGE if the ring lies above the compact layout's 32 bits. Nothing
 * stays allocated on error.
 */
int dmasim_ring_alloc(struct dmasim_dev *dd, unsigned int channel,
		      const struct dmasim_xfer_spec *spec, unsigned int slots,
		      struct dmasim_ring **out)
{
	struct dmasim_ring *r;
	int ret;

	if (!dd->tail_pointer)
		return -ENODEV;
	if (channel >= dd->nr_channels || slots < 1)
		return -EINVAL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->ch = &dd->chan[channel];
	r->spec = *spec;
	r->spec.desc_bytes = dd->desc_bytes;
	r->spec.next_in_slot = dd->next_in_slot;
	r->spec.app_words = dd->app_words;
	r->slots = slots;
	r->queue = kcalloc(slots, sizeof(*r->queue), GFP_KERNEL);
	ret = r->queue ? alloc_block(dd, r) : -ENOMEM;
	if (ret) {
		dmasim_ring_free(dd, r);
		return ret;
	}
	*out = r;
	return 0;
}

/**
 * dmasim_ring_start - give a channel its ring and START it
 * @r: allocated ring; its channel has nothing in flight
 *
 * The channel then waits, idle, for the first dmasim_ring_submit().
 *
 * Return: 0, or -EBUSY if the channel is in use.
 */
int dmasim_ring_start(struct dmasim_ring *r)
{
	struct dmasim_chan *ch = r->ch;

	if (ch->active || ch->ring)
		return -EBUSY;
	ch->ring = r;
	reinit_completion(&ch->done);
	chan_point(ch, slot_bus(r, 0));
	chan_start(ch, &r->spec);
	return 0;
}

/*
 * Writes @d into slot @slot, which the driver owns: the status words the
 * hardware wrote there last time round are cleared with it. linked_list
 * names the next slot; chained_pages' last slot is followed by the chain.
 */
static int fill_slot(struct dmasim_ring *r, unsigned int slot,
		     struct desc_data *d)
{
	if (r->spec.format == DMA_HW_FMT_LINKED_LIST)
		d->next = slot_bus(r, slot + 1 == r->slots ? 0 : slot + 1);
	memset(slot_addr(r, slot), 0, ring_stride(r));
	desc_store(&r->spec, slot_addr(r, slot), d);
	return desc_fits(&r->spec, d) ? 0 : -ERANGE;
}

/**
 * dmasim_ring_submit - hand a mapped transfer to the ring's channel
 * @r: started ring
 * @x: request prepared for a ring (spec.for_ring) whose lists are mapped
 *     (dmasim_xfer_map())
 *
 * Writes a data descriptor per mapped segment at the ring's head, the
 * last one with DMA_DESC_IRQ so its completion is reported (unless
 * polled), then moves TAIL to it. The ring owns @x until dmasim_ring_pop()
 * returns it.
 *
 * Return: 0; -ENOSPC if fewer slots are free than @x has segments, or
 * @slots requests are waiting to be popped; -E2BIG if it has more segments
 * than the ring has slots; -EINVAL if it was not prepared for a ring, or
 * its direction or format differ from the ring's; -ERANGE for an address
 * the compact layout cannot hold.
 */
int dmasim_ring_submit(struct dmasim_ring *r, struct dmasim_xfer *x)
{
	const struct sg_table *list = dmasim_described_list(x);
	struct scatterlist *sg, *dsg = x->dst.sgl;
	unsigned int n = list->nents, i, slot = r->head;
	struct desc_data d;
	uint64_t tail = 0; /* the loop below runs n >= 1 times and sets it */
	int ret;

	if (!x->spec.for_ring || x->spec.dir != r->spec.dir ||
	    x->spec.format != r->spec.format || n < 1)
		return -EINVAL;
	if (n > r->slots)
		return -E2BIG;
	if (n > r->slots - r->used || r->queued == r->slots)
		return -ENOSPC;
	for_each_sgtable_dma_sg(list, sg, i)
	{
		ret = desc_describe(x, sg, &dsg, &d);
		if (!ret && i + 1 == n && !r->ch->dd->polled)
			d.flags |= DMA_DESC_IRQ;
		if (!ret)
			ret = fill_slot(r, slot, &d);
		if (ret)
			return ret;
		tail = slot_bus(r, slot);
		slot = slot + 1 == r->slots ? 0 : slot + 1;
	}
	r->head = slot;
	r->used += n;
	r->queue[(r->queue_head + r->queued++) % r->slots] = x;
	x->status = DMA_STATUS_BUSY;
	x->bytes_done = 0;
	x->descs_done = 0;
	writel((uint32_t)tail, chan_reg(r->ch, DMA_CH_TAIL_LO));
	writel((uint32_t)(tail >> 32), chan_reg(r->ch, DMA_CH_TAIL_HI));
	return 0;
}

/*
 * Whether the hardware writes back the status of every request's last
 * descriptor (CAPS write-back policy): of each one with irq_only, as that
 * one carries DMA_DESC_IRQ unless polled. Otherwise, as on an engine whose
 * completion lives only in registers, the reap counts DESCS_DONE.
 */
static int ring_reads_status(const struct dmasim_ring *r)
{
	switch (r->ch->dd->writeback) {
	case DMA_HW_WB_PER_DESCRIPTOR:
		return 1;
	case DMA_HW_WB_IRQ_ONLY:
		return !r->ch->dd->polled;
	default:
		return 0;
	}
}

/* The status word in @slot: 0 as the driver cleared it, DONE | error << 8
 * once the hardware wrote it back. */
static uint32_t slot_status(struct dmasim_ring *r, unsigned int slot)
{
	const struct dma_hw_layout l = dmasim_desc_layout(&r->spec);
	const char *at = (const char *)slot_addr(r, slot) +
			 dma_hw_layout_status_offset(&l);
	uint16_t half;
	uint32_t word;

	if (dma_hw_layout_short_status(&l)) {
		memcpy(&half, at, sizeof(half));
		return half;
	}
	memcpy(&word, at, sizeof(word));
	return word;
}

/*
 * Whether the oldest unreaped request, @x, is done; *@desc_status gets how:
 * its last descriptor's status word where the hardware writes one (the
 * slot @x began at is the first the hardware still owns), else DONE once
 * DESCS_DONE has counted past it, *@fresh being those not yet given out.
 */
static int request_done(struct dmasim_ring *r, struct dmasim_xfer *x,
			uint32_t *fresh, uint32_t *desc_status)
{
	unsigned int n = dmasim_described_list(x)->nents;
	unsigned int first = (r->head + r->slots - r->used) % r->slots;

	if (ring_reads_status(r)) {
		*desc_status = slot_status(r, (first + n - 1) % r->slots);
		return *desc_status != 0;
	}
	if (n > *fresh)
		return 0;
	*fresh -= n;
	r->descs_done += n;
	*desc_status = DMA_DESC_STATUS_DONE;
	return 1;
}

/**
 * dmasim_ring_reap - take back the requests the hardware completed
 * @r: started ring
 *
 * Reads STATUS, as AXI DMA's driver reads DMASR in its handler, then the
 * status word the hardware wrote back into each request's last descriptor,
 * oldest first, as AXI DMA's driver reads its BDs' Cmplt bits: the
 * hardware retires descriptors in ring order, so a written last status
 * means the whole request is done. DONE completes the transfer with
 * STATUS DONE, its bytes and descriptors; an error code ends it with
 * STATUS ERROR and that code. Either way its slots return to the ring.
 * Where the write-back policy writes no status for a request's last
 * descriptor (last, none, or irq_only when polled), DESCS_DONE, read once,
 * says how many descriptors completed instead. A channel STATUS shows
 * stopped ends every request still in the ring with that STATUS.
 *
 * Return: how many requests completed or failed; they are the oldest
 * ones, to be taken with dmasim_ring_pop().
 */
unsigned int dmasim_ring_reap(struct dmasim_ring *r)
{
	uint32_t status = readl(chan_reg(r->ch, DMA_CH_STATUS));
	uint32_t fresh = 0, desc_status, err;
	unsigned int reaped = 0, k;
	struct dmasim_xfer *x;

	if (!ring_reads_status(r))
		fresh = readl(chan_reg(r->ch, DMA_CH_DESCS_DONE)) -
			r->descs_done;

	for (k = 0; (x = dmasim_ring_peek(r, k)); k++) {
		if (x->status != DMA_STATUS_BUSY)
			continue; /* reaped before, not popped yet */
		if (!request_done(r, x, &fresh, &desc_status))
			break;
		r->used -= dmasim_described_list(x)->nents;
		err = (desc_status & DMA_DESC_STATUS_ERR_MASK) >>
		      DMA_DESC_STATUS_ERR_SHIFT;
		if (err) {
			x->status = DMA_STATUS_ERROR |
				    (err << DMA_STATUS_ERR_SHIFT);
		} else {
			x->status = DMA_STATUS_DONE;
			x->descs_done = dmasim_described_list(x)->nents;
			x->bytes_done = x->bytes;
		}
		reaped++;
	}
	if (status & DMA_STATUS_BUSY)
		return reaped;
	for (; (x = dmasim_ring_peek(r, k)); k++) {
		x->status = status;
		reaped++;
	}
	return reaped;
}

/**
 * dmasim_ring_peek - a request in the ring, by age
 * @r: ring
 * @k: 0 for the oldest request not yet popped, 1 for the next, ...
 *
 * Return: the transfer, still the ring's (its status says whether it was
 * reaped), or NULL if fewer than @k + 1 requests are in the ring.
 */
struct dmasim_xfer *dmasim_ring_peek(const struct dmasim_ring *r,
				     unsigned int k)
{
	return k < r->queued ? r->queue[(r->queue_head + k) % r->slots] : NULL;
}

/**
 * dmasim_ring_pop - the oldest request, once reaped
 * @r: ring
 *
 * Return: the transfer, back in the caller's hands, or NULL if the oldest
 * request is still the hardware's (or there is none).
 */
struct dmasim_xfer *dmasim_ring_pop(struct dmasim_ring *r)
{
	struct dmasim_xfer *x = dmasim_ring_peek(r, 0);

	if (!x || x->status == DMA_STATUS_BUSY)
		return NULL;
	r->queue_head = (r->queue_head + 1) % r->slots;
	r->queued--;
	return x;
}

/**
 * dmasim_ring_stop - stop the ring's channel
 * @r: started ring with every request reaped
 *
 * Writes ABORT and sleeps until the interrupt handler sees the channel
 * stopped (unless an error stopped it already), or, polled, reads STATUS
 * until it is; the channel is then free for another ring or transfer.
 *
 * Return: 0; -EBUSY if requests are still in the ring; -ETIMEDOUT if a
 * polled channel is still BUSY after RING_STOP_POLLS reads.
 */
int dmasim_ring_stop(struct dmasim_ring *r)
{
	struct dmasim_chan *ch = r->ch;
	unsigned int polls = 0;

	if (r->queued)
		return -EBUSY;
	r->stopping = 1;
	if (readl(chan_reg(ch, DMA_CH_STATUS)) & DMA_STATUS_BUSY) {
		writel(DMA_CTRL_ABORT, chan_reg(ch, DMA_CH_CTRL));
		if (!ch->dd->polled)
			wait_for_completion(&ch->done);
		else
			while (readl(chan_reg(ch, DMA_CH_STATUS)) &
			       DMA_STATUS_BUSY)
				if (++polls == RING_STOP_POLLS)
					return -ETIMEDOUT;
	}
	ch->ring = NULL;
	return 0;
}

/**
 * dmasim_ring_free - unmap and free a ring
 * @dd: the device it was allocated for
 * @r: ring not started, or stopped; NULL is a no-op
 */
void dmasim_ring_free(struct dmasim_dev *dd, struct dmasim_ring *r)
{
	if (!r)
		return;
	if (r->block.mapped)
		dma_unmap_page(dd->dev, r->block.bus, r->block.mapped,
			       DMA_BIDIRECTIONAL);
	if (r->block.page)
		__free_pages(r->block.page, r->block.order);
	kfree(r->queue);
	kfree(r);
	dmasim_iommu_invalidate(dd);
}
