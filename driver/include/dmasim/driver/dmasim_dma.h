/* SPDX-License-Identifier: MIT */
/*
 * dmasim_dma.h - a kernel-style driver for the dmasim DMA controller.
 *
 * The driver maps its caller's scatter-gather tables for DMA and turns the
 * mapped lists into hardware descriptor chunks (see docs/driver.md). It
 * programs a channel through MMIO, sleeps until the interrupt handler
 * completes it and reads back the status. It uses only sglist/ and
 * <dmasim/hw/dma_hw.h>; where the data buffers come from is the caller's
 * business (the testbench's are in <dmasim/workload/workload.h>).
 */
#ifndef DMASIM_DRIVER_DMASIM_DMA_H
#define DMASIM_DRIVER_DMASIM_DMA_H

#include <stdint.h>

#include <dmasim/driver/io.h>
#include <dmasim/hw/dma_hw.h>
#include <sglist/dma-mapping.h>
#include <sglist/mm.h>
#include <sglist/scatterlist.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What to transfer and how to describe it to the hardware. */
struct dmasim_xfer_spec {
	enum dma_hw_direction dir;
	enum dma_hw_format format;
	unsigned int entries;	  /* scatter list length (descriptor slots) */
	unsigned int chain_depth; /* descriptor chunks, 1..entries */
	/* chained_pages slot size, 16, 32 or 64 (0 means 32);
	 * dmasim_xfer_alloc() replaces it with what the controller reports in
	 * CAPS */
	unsigned int desc_bytes;
	/* linked_list next inside the 32/64-byte slot, and APP words per
	 * descriptor: replaced from CAPS by dmasim_xfer_alloc() as desc_bytes
	 */
	int next_in_slot;
	unsigned int app_words;
	/* every data descriptor raises DMA_DESC_IRQ when done, so the handler
	 * reaps completions while the channel still runs */
	int irq_per_desc;
	/* every data descriptor carries DMA_DESC_DEBURST: one-beat bursts */
	int deburst;
	/* a request for a descriptor ring, which writes its descriptors
	 * (dmasim_ring_submit()): it has no descriptor chunks of its own,
	 * and entries and chain_depth only bound its list */
	int for_ring;
};

/* One physically contiguous block of descriptors. */
struct dmasim_chunk {
	struct page *page;
	unsigned int order;   /* the chunk spans 1 << order page frames */
	unsigned int nr_desc; /* data descriptors in this chunk */
	uint64_t bus;	      /* its DMA address (an IOVA behind an IOMMU) */
	uint64_t mapped;      /* bytes dma_map_page() mapped; 0 = not mapped */
};

/* A prepared transfer: the caller's lists, mapped, and descriptor chunks. */
struct dmasim_xfer {
	struct dmasim_xfer_spec spec;
	/* The caller's lists, set between dmasim_xfer_alloc() and
	 * dmasim_xfer_map(); the driver maps them but never frees them. */
	struct sg_table src; /* memory source (mem_to_mem, mem_to_dev) */
	struct sg_table dst; /* memory destination (mem_to_mem, dev_to_mem) */
	struct dmasim_chunk *chunks;
	unsigned int nr_chunks;
	/* chunks the descriptors use: nr_chunks, or fewer when an IOMMU
	 * merged the list into fewer segments than chunks */
	unsigned int nr_linked;
	uint64_t head;	/* bus address written to DESC_ADDR */
	uint64_t bytes; /* payload bytes described */
	int src_mapped; /* dma_map_sgtable() succeeded on src */
	int dst_mapped; /* ... and on dst */
	/* Set by dmasim_xfer_submit(): its channel's count of submits. */
	unsigned int seq;
	/* the caller's, never touched by the driver (a ring hands its
	 * requests back with it) */
	void *context;
	/* Filled in by dmasim_xfer_wait(). */
	uint32_t status;
	uint64_t bytes_done;
	uint32_t descs_done;
};

struct dmasim_dev;
struct dmasim_ring;

struct dmasim_chan {
	struct dmasim_dev *dd;
	unsigned int id;
	struct completion done;
	struct dmasim_xfer *active;
	/* START for @active has been written: from here on the channel's
	 * STATUS describes @active, before it a previous transfer. */
	int started;
	unsigned int seq; /* transfers submitted so far */
	/* seq of the last transfer the handler completed */
	unsigned int completed_seq;
	/* the descriptor ring the channel works (dmasim_ring_start()), or NULL
	 */
	struct dmasim_ring *ring;
};

/*
 * A ring of descriptor slots a channel works through its TAIL register
 * (CAPS.TAIL_POINTER): requests are written at the head and handed over
 * by moving TAIL; the hardware completes them in order, and the driver
 * reaps them by the status words it writes back and gets their slots back.
 */
struct dmasim_ring {
	struct dmasim_chan *ch;
	/* direction, format and per-descriptor flags of every request, and
	 * the layout from CAPS */
	struct dmasim_xfer_spec spec;
	struct dmasim_chunk block; /* the slots, physically contiguous */
	/* data slots; chained_pages adds one that chains back to the first */
	unsigned int slots;
	unsigned int head; /* next slot to fill */
	unsigned int used; /* slots the hardware owns: submitted, not reaped */
	/* DESCS_DONE when last reaped, where the write-back policy leaves
	 * requests no status word to reap by */
	uint32_t descs_done;
	/* the requests submitted and not yet popped, oldest first: a
	 * circular queue of @slots entries; the one record of their order */
	struct dmasim_xfer **queue;
	unsigned int queue_head;
	unsigned int queued;
	int stopping; /* dmasim_ring_stop() wrote ABORT */
};

struct dmasim_dev {
	void __iomem *regs;
	struct device *dev;
	unsigned int nr_channels;
	unsigned int desc_bytes; /* CAPS: chained_pages slot size */
	int next_in_slot;	 /* CAPS: linked_list next inside the slot */
	unsigned int app_words;	 /* CAPS: APP words per descriptor */
	enum dma_hw_writeback
		writeback; /* CAPS: which descriptors get a status */
	int tail_pointer;  /* CAPS: channels run to TAIL (descriptor rings) */
	/* completions are polled (dmasim_set_polling()): no interrupt is
	 * enabled or unmasked */
	int polled;
	uint32_t irq_mask;
	/* The controller translates through dev's IOMMU page tables, so every
	 * unmap is followed by an IOTLB invalidation. */
	int iommu;
	uint32_t irq_pending;	/* channels the last handler run acknowledged */
	uint32_t irq_completed; /* ... and of those, the ones it completed */
	struct dmasim_chan chan[DMA_MAX_CHANNELS];
};

typedef enum { IRQ_NONE = 0, IRQ_HANDLED = 1 } irqreturn_t;

/* ---- Descriptor chunk layout (docs/descriptor-formats.md) ------------ */

unsigned int dmasim_chunk_entries(unsigned int entries, unsigned int depth,
				  unsigned int index);
unsigned int dmasim_chunk_slots(enum dma_hw_format format, unsigned int entries,
				unsigned int depth, unsigned int index);
struct dma_hw_layout dmasim_desc_layout(const struct dmasim_xfer_spec *spec);
unsigned int dmasim_desc_stride(const struct dmasim_xfer_spec *spec);

/* ---- Transfers --------------------------------------------------------- */

uint64_t dmasim_desc_pages_needed(const struct dmasim_xfer_spec *spec);
int dmasim_xfer_alloc(struct dmasim_dev *dd,
		      const struct dmasim_xfer_spec *spec,
		      struct dmasim_xfer **out);
int dmasim_xfer_map(struct dmasim_dev *dd, struct dmasim_xfer *x);
void dmasim_xfer_unmap(struct dmasim_dev *dd, struct dmasim_xfer *x);
void dmasim_xfer_free(struct dmasim_xfer *x);
void *dmasim_xfer_desc(struct dmasim_xfer *x, unsigned int chunk,
		       unsigned int slot);
uint64_t dmasim_xfer_desc_bus(const struct dmasim_xfer *x, unsigned int chunk,
			      unsigned int slot);

int dmasim_alloc_descriptors(struct device *dev, struct dmasim_xfer *x);
int dmasim_build_descriptors(struct dmasim_xfer *x);
void dmasim_free_descriptors(struct device *dev, struct dmasim_xfer *x);
int dmasim_xfer_revoke(struct dmasim_dev *dd, struct dmasim_xfer *x,
		       unsigned int index);
const struct sg_table *dmasim_described_list(const struct dmasim_xfer *x);

/* ---- Descriptor rings (CAPS.TAIL_POINTER) ------------------------------ */

int dmasim_ring_alloc(struct dmasim_dev *dd, unsigned int channel,
		      const struct dmasim_xfer_spec *spec, unsigned int slots,
		      struct dmasim_ring **out);
int dmasim_ring_start(struct dmasim_ring *r);
int dmasim_ring_submit(struct dmasim_ring *r, struct dmasim_xfer *x);
unsigned int dmasim_ring_reap(struct dmasim_ring *r);
struct dmasim_xfer *dmasim_ring_peek(const struct dmasim_ring *r,
				     unsigned int k);
struct dmasim_xfer *dmasim_ring_pop(struct dmasim_ring *r);
int dmasim_ring_stop(struct dmasim_ring *r);
void dmasim_ring_free(struct dmasim_dev *dd, struct dmasim_ring *r);

/* ---- Channels ---------------------------------------------------------- */

int dmasim_probe(struct dmasim_dev *dd, uint64_t regs_bus_addr,
		 struct device *dev);
void dmasim_remove(struct dmasim_dev *dd);
void dmasim_iommu_invalidate(struct dmasim_dev *dd);
irqreturn_t dmasim_irq_handler(int irq, void *dev_id);
int dmasim_xfer_submit(struct dmasim_chan *ch, struct dmasim_xfer *x);
int dmasim_xfer_wait(struct dmasim_chan *ch);
void dmasim_set_polling(struct dmasim_dev *dd, int on);
int dmasim_chan_poll(struct dmasim_chan *ch);
void dmasim_chan_abort(struct dmasim_chan *ch);

static inline unsigned int dmasim_status_error(uint32_t status)
{
	return (status & DMA_STATUS_ERR_MASK) >> DMA_STATUS_ERR_SHIFT;
}

const char *dmasim_error_name(unsigned int error);

#ifdef __cplusplus
}
#endif

#endif /* DMASIM_DRIVER_DMASIM_DMA_H */
