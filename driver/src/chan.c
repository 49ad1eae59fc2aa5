// SPDX-License-Identifier: MIT
/*
 * chan.c - probing the controller, programming a channel, the interrupt
 * handler and waiting for completion.
 */
#include <errno.h>

#include <dmasim/driver/dmasim_dma.h>

#include "chan_regs.h"

static void __iomem *reg(const struct dmasim_dev *dd, uint32_t offset)
{
	return (char __iomem *)dd->regs + offset;
}

void __iomem *chan_reg(const struct dmasim_chan *ch, uint32_t offset)
{
	return reg(ch->dd, DMA_CH_BASE(ch->id) + offset);
}

/*
 * Behind an IOMMU (@dd->dev attached with page tables), points the
 * controller at the root table and turns translation on before any START.
 */
static int iommu_enable(struct dmasim_dev *dd, uint32_t caps)
{
	uint64_t root = sim_iommu_root_table(dd->dev);

	dd->iommu = 0;
	if (!root)
		return 0;
	if (!(caps & DMA_CAPS_IOMMU))
		return -ENODEV;
	writel((uint32_t)root, reg(dd, DMA_REG_IOMMU_ROOT_LO));
	writel((uint32_t)(root >> 32), reg(dd, DMA_REG_IOMMU_ROOT_HI));
	writel(DMA_IOMMU_CTRL_ENABLE, reg(dd, DMA_REG_IOMMU_CTRL));
	dd->iommu = 1;
	return 0;
}

/**
 * dmasim_probe - find the controller and set up its channels
 * @dd: device state to initialise
 * @regs_bus_addr: bus address of the register window
 * @dev: the struct device used for DMA mapping
 *
 * Sets @dev's DMA limits to what the controller handles: 64-bit
 * addresses (32-bit with compact 16-byte descriptors, CAPS bits 23:16)
 * and segments up to the 32-bit descriptor length. CAPS also tells which
 * descriptors get a status write-back: a descriptor ring reaps by them
 * where the policy writes one per request (dmasim_ring_reap()); a START
 * transfer reads completion from STATUS, BYTES_DONE and DESCS_DONE.
 *
 * If @dev sits behind an IOMMU (sim_iommu_attach_tables()), programs the
 * controller's IOMMU with the root table and enables translation.
 *
 * Return: 0, -ENODEV if the version register does not match or @dev has
 * an IOMMU the controller lacks (CAPS), or a dma_set_*() error.
 */
int dmasim_probe(struct dmasim_dev *dd, uint64_t regs_bus_addr,
		 struct device *dev)
{
	unsigned int i;
	uint32_t caps;
	int ret;

	dd->regs = ioremap(regs_bus_addr, DMA_REGS_SIZE);
	dd->dev = dev;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (!ret)
		ret = dma_set_max_seg_size(dev, UINT32_MAX);
	if (ret)
		return ret;
	if (readl(reg(dd, DMA_REG_VERSION)) >> 16 != DMA_HW_VERSION >> 16)
		return -ENODEV;
	caps = readl(reg(dd, DMA_REG_CAPS));
	dd->nr_channels = caps & DMA_CAPS_CHANNELS_MASK;
	dd->desc_bytes =
		(caps & DMA_CAPS_DESC_SIZE_MASK) >> DMA_CAPS_DESC_SIZE_SHIFT;
	dd->next_in_slot = (caps & DMA_CAPS_NEXT_IN_SLOT) != 0;
	dd->app_words =
		(caps & DMA_CAPS_APP_WORDS_MASK) >> DMA_CAPS_APP_WORDS_SHIFT;
	dd->writeback = (enum dma_hw_writeback)(
		(caps & DMA_CAPS_WRITEBACK_MASK) >> DMA_CAPS_WRITEBACK_SHIFT);
	dd->tail_pointer = (caps & DMA_CAPS_TAIL_POINTER) != 0;
	/* Compact descriptors hold 32-bit addresses. */
	if (dd->desc_bytes == DMA_HW_DESC16_SIZE)
		ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
	if (ret)
		return ret;
	if (dd->nr_channels > DMA_MAX_CHANNELS)
		dd->nr_channels = DMA_MAX_CHANNELS;
	for (i = 0; i < dd->nr_channels; i++) {
		dd->chan[i].dd = dd;
		dd->chan[i].id = i;
		dd->chan[i].active = NULL;
		dd->chan[i].started = 0;
		dd->chan[i].seq = 0;
		dd->chan[i].completed_seq = 0;
		dd->chan[i].ring = NULL;
		init_completion(&dd->chan[i].done);
	}
	dd->polled = 0;
	dd->irq_mask = 0;
	writel(0, reg(dd, DMA_REG_IRQ_MASK));
	return iommu_enable(dd, caps);
}

/**
 * dmasim_remove - quiesce the controller's interrupts and turn its IOMMU
 * off
 * @dd: probed device with no transfer in flight
 */
void dmasim_remove(struct dmasim_dev *dd)
{
	dd->irq_mask = 0;
	writel(0, reg(dd, DMA_REG_IRQ_MASK));
	if (dd->iommu)
		writel(0, reg(dd, DMA_REG_IOMMU_CTRL));
	dd->iommu = 0;
	iounmap(dd->regs);
}

/**
 * dmasim_iommu_invalidate - drop every translation the IOTLB caches
 * @dd: probed device; without an IOMMU this does nothing
 *
 * Called after every unmap, so a later mapping of the same IOVA never
 * meets a stale translation.
 */
void dmasim_iommu_invalidate(struct dmasim_dev *dd)
{
	if (dd->iommu)
		writel(1, reg(dd, DMA_REG_IOMMU_INVALIDATE));
}

/*
 * Whether @ch's transfer has stopped, judged by the channel's STATUS for
 * this transfer, never by an interrupt having arrived: an interrupt may be
 * late. With per-descriptor interrupts and a long IRQ latency, a previous
 * transfer's descriptor interrupt can find that transfer stopped and
 * complete it while its own stop interrupt is still on the way; that one
 * then lands while the next transfer is being programmed, when STATUS
 * still reads the previous DONE, and used to be taken as the new
 * transfer's completion (0 bytes moved, STATUS BUSY at the check). So a
 * channel counts as stopped only once START has been written for the
 * transfer in flight and STATUS is no longer BUSY. The STATUS read comes
 * after the acknowledge, so a stop whose interrupt the acknowledge
 * swallowed is seen here (STATUS changes no later than the interrupt).
 */
static int chan_stopped(const struct dmasim_chan *ch)
{
	unsigned int seq = ch->seq;
	uint32_t status;

	if (!ch->active || !ch->started)
		return 0;
	status = readl(chan_reg(ch, DMA_CH_STATUS));
	/*
	 * The read lets the waiter run (there is no lock): it may have taken
	 * this transfer and submitted the next, whose completion this STATUS
	 * does not describe.
	 */
	return ch->seq == seq && ch->started && !(status & DMA_STATUS_BUSY);
}

/**
 * dmasim_set_polling - learn of completions by polling, not interrupts
 * @dd: probed device with nothing in flight
 * @on: nonzero: channels started from now on run with their interrupt
 *      disabled and masked, and their owner calls dmasim_chan_poll() (or
 *      dmasim_ring_reap()) while they have work, as a NAPI driver does
 */
void dmasim_set_polling(struct dmasim_dev *dd, int on)
{
	dd->polled = on != 0;
}

/**
 * dmasim_chan_poll - see whether a channel's transfer has stopped
 * @ch: channel with a submitted transfer, polled (dmasim_set_polling())
 *
 * Reads the channel's STATUS, as the interrupt handler does; if the
 * transfer has stopped, wakes its waiter (dmasim_xfer_wait()).
 *
 * Return: 1 if it stopped, else 0.
 */
int dmasim_chan_poll(struct dmasim_chan *ch)
{
	if (!chan_stopped(ch))
		return 0;
	ch->completed_seq = ch->seq;
	complete(&ch->done);
	return 1;
}

/**
 * dmasim_irq_handler - the controller's interrupt handler
 * @irq: interrupt number (unused)
 * @dev_id: the struct dmasim_dev
 *
 * Acknowledges every pending channel (write-1-to-clear) and wakes the
 * waiter of each whose transfer has stopped (chan_stopped()), noting the
 * transfer's seq in the channel's completed_seq; other interrupts report
 * completions to reap (irq_per_desc), or are a previous transfer's, and
 * wake nobody. A channel working a ring is marked completed in
 * irq_completed: its owner reaps the ring (dmasim_ring_reap()); the
 * handler wakes only dmasim_ring_stop(), once the channel has stopped.
 *
 * Return: IRQ_HANDLED if a channel was pending, else IRQ_NONE.
 */
irqreturn_t dmasim_irq_handler(int irq, void *dev_id)
{
	struct dmasim_dev *dd = dev_id;
	uint32_t pending;
	unsigned int i;

	(void)irq;
	pending = readl(reg(dd, DMA_REG_IRQ_STATUS)) & dd->irq_mask;
	dd->irq_pending = pending;
	dd->irq_completed = 0;
	if (!pending)
		return IRQ_NONE;
	writel(pending, reg(dd, DMA_REG_IRQ_STATUS));
	for (i = 0; i < dd->nr_channels; i++) {
		if (!(pending & (1u << i)))
			continue;
		if (dd->chan[i].ring) {
			dd->irq_completed |= 1u << i;
			if (dd->chan[i].ring->stopping &&
			    !(readl(chan_reg(&dd->chan[i], DMA_CH_STATUS)) &
			      DMA_STATUS_BUSY))
				complete(&dd->chan[i].done);
			continue;
		}
		if (!chan_stopped(&dd->chan[i]))
			continue;
		dd->irq_completed |= 1u << i;
		dd->chan[i].completed_seq = dd->chan[i].seq;
		complete(&dd->chan[i].done);
	}
	return IRQ_HANDLED;
}

/* Unmasks @ch's interrupt (unless polled) and points it at its first
 * descriptor. */
void chan_point(struct dmasim_chan *ch, uint64_t head)
{
	struct dmasim_dev *dd = ch->dd;

	if (!dd->polled) {
		dd->irq_mask |= 1u << ch->id;
		writel(dd->irq_mask, reg(dd, DMA_REG_IRQ_MASK));
	}
	writel((uint32_t)head, chan_reg(ch, DMA_CH_DESC_ADDR_LO));
	writel((uint32_t)(head >> 32), chan_reg(ch, DMA_CH_DESC_ADDR_HI));
}

/* Writes START, with the stop interrupt enabled unless polled. */
void chan_start(struct dmasim_chan *ch, const struct dmasim_xfer_spec *spec)
{
	writel(DMA_CTRL_START | (ch->dd->polled ? 0 : DMA_CTRL_IRQ_EN) |
		       (((uint32_t)spec->dir << DMA_CTRL_DIR_SHIFT) &
			DMA_CTRL_DIR_MASK) |
		       (((uint32_t)spec->format << DMA_CTRL_FORMAT_SHIFT) &
			DMA_CTRL_FORMAT_MASK),
	       chan_reg(ch, DMA_CH_CTRL));
}

/**
 * dmasim_xfer_submit - start a prepared transfer on a channel
 * @ch: idle channel
 * @x: transfer mapped by dmasim_xfer_map()
 *
 * Unmasks the channel's interrupt, points it at @x->head and writes START.
 *
 * Return: 0, -EBUSY if the channel has a transfer in flight or works a
 * ring, -EINVAL if the controller runs channels to TAIL (CAPS) or @x was
 * prepared for a ring (it has no descriptors of its own).
 */
int dmasim_xfer_submit(struct dmasim_chan *ch, struct dmasim_xfer *x)
{
	if (ch->dd->tail_pointer || x->spec.for_ring)
		return -EINVAL;
	if (ch->active || ch->ring)
		return -EBUSY;
	ch->active = x;
	x->seq = ++ch->seq;
	reinit_completion(&ch->done);
	chan_point(ch, x->head);
	/* Set before the write; the handler's STATUS read is ordered after. */
	ch->started = 1;
	chan_start(ch, &x->spec);
	return 0;
}

/**
 * dmasim_xfer_wait - sleep until a channel's transfer stops
 * @ch: channel with a submitted transfer
 *
 * Reads the channel's status and counters into the transfer.
 *
 * Return: 0 if the channel stopped without error, -EIO on a hardware
 * error (the code is in the transfer's status), -EINVAL if idle.
 */
int dmasim_xfer_wait(struct dmasim_chan *ch)
{
	struct dmasim_xfer *x = ch->active;

	if (!x)
		return -EINVAL;
	wait_for_completion(&ch->done);
	x->status = readl(chan_reg(ch, DMA_CH_STATUS));
	x->bytes_done = readl(chan_reg(ch, DMA_CH_BYTES_DONE_LO)) |
			(uint64_t)readl(chan_reg(ch, DMA_CH_BYTES_DONE_HI))
				<< 32;
	x->descs_done = readl(chan_reg(ch, DMA_CH_DESCS_DONE));
	ch->started = 0;
	ch->active = NULL;
	return (x->status & DMA_STATUS_ERROR) ? -EIO : 0;
}

/**
 * dmasim_chan_abort - ask a channel to stop its transfer
 * @ch: channel; the abort completes through the interrupt as usual
 */
void dmasim_chan_abort(struct dmasim_chan *ch)
{
	writel(DMA_CTRL_ABORT, chan_reg(ch, DMA_CH_CTRL));
}
