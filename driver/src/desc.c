// SPDX-License-Identifier: MIT
/*
 * desc.c - turns a DMA-mapped scatter list into hardware descriptor chunks
 * (docs/driver.md). Each chunk is a physically contiguous block of page
 * frames; chained_pages ends every non-final chunk in a chain descriptor,
 * linked_list makes each descriptor point at its successor.
 */
#include <errno.h>
#include <string.h>

#include <dmasim/driver/dmasim_dma.h>

#include "desc_write.h"

/* Where the next descriptor goes. */
struct desc_cursor {
	unsigned int chunk;
	unsigned int slot;
};

/**
 * dmasim_xfer_desc - host pointer to a descriptor slot
 * @x: prepared transfer
 * @chunk: chunk index
 * @slot: slot index inside the chunk
 *
 * Return: pointer into simulated memory (for building or inspection).
 */
void *dmasim_xfer_desc(struct dmasim_xfer *x, unsigned int chunk,
		       unsigned int slot)
{
	char *base = page_address(x->chunks[chunk].page);

	return base + (size_t)slot * dmasim_desc_stride(&x->spec);
}

/**
 * dmasim_xfer_desc_bus - bus address of a descriptor slot
 * @x: prepared transfer
 * @chunk: chunk index
 * @slot: slot index inside the chunk
 *
 * Return: the address the controller reads the descriptor from.
 */
uint64_t dmasim_xfer_desc_bus(const struct dmasim_xfer *x, unsigned int chunk,
			      unsigned int slot)
{
	return x->chunks[chunk].bus +
	       (uint64_t)slot * dmasim_desc_stride(&x->spec);
}

/**
 * dmasim_free_descriptors - unmap and free the descriptor chunks of a
 * transfer
 * @dev: the device they were mapped for
 * @x: transfer; chunks never allocated or mapped are skipped
 */
void dmasim_free_descriptors(struct device *dev, struct dmasim_xfer *x)
{
	struct dmasim_chunk *c;
	unsigned int i;

	if (!x->chunks)
		return;
	for (i = 0; i < x->nr_chunks; i++) {
		c = &x->chunks[i];
		if (c->mapped)
			dma_unmap_page(dev, c->bus, c->mapped,
				       DMA_BIDIRECTIONAL);
		if (c->page)
			__free_pages(c->page, c->order);
	}
	kfree(x->chunks);
	x->chunks = NULL;
	x->nr_chunks = 0;
}

/**
 * dmasim_alloc_descriptors - allocate and map the descriptor chunks of a
 * transfer
 * @dev: the device that reads them (and writes their status back)
 * @x: transfer with its spec set
 *
 * Sized for @x->spec.entries descriptors, before any data buffer exists:
 * like a driver's descriptor pool, the chunks must not depend on how
 * fragmented the data pages leave memory. A mapping that merges segments
 * only ever needs fewer slots per chunk. Each chunk is mapped
 * bidirectionally, so behind an IOMMU it gets an IOVA the controller can
 * fetch from and write status back to.
 *
 * Return: 0 or -ENOMEM; on error the caller frees with
 * dmasim_free_descriptors().
 */
int dmasim_alloc_descriptors(struct device *dev, struct dmasim_xfer *x)
{
	unsigned int depth = x->spec.chain_depth, i, slots;
	struct dmasim_chunk *c;

	x->chunks = kcalloc(depth, sizeof(*x->chunks), GFP_KERNEL);
	if (!x->chunks)
		return -ENOMEM;
	x->nr_chunks = depth;
	for (i = 0; i < depth; i++) {
		c = &x->chunks[i];
		slots = dmasim_chunk_slots(x->spec.format, x->spec.entries,
					   depth, i);
		c->order = get_order((uint64_t)slots *
				     dmasim_desc_stride(&x->spec));
		c->page = alloc_pages(GFP_KERNEL, c->order);
		if (!c->page)
			return -ENOMEM;
		c->bus = dma_map_page(dev, c->page, 0, PAGE_SIZE << c->order,
				      DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, c->bus))
			return -ENOMEM;
		c->mapped = PAGE_SIZE << c->order;
	}
	return 0;
}

/*
 * Clears the pages chunk @i's slots occupy: status write-back fields and
 * reserved words start at zero, and so does whatever a fetch
 * over-prefetches (it never crosses a page). The block's pages past the
 * slots (a 257-slot chunk has an order-2 block of 4 pages and uses 3) stay
 * untouched, so they cost no host memory.
 */
static void clear_chunk(struct dmasim_xfer *x, unsigned int i)
{
	unsigned int slots = dmasim_chunk_slots(x->spec.format, x->spec.entries,
						x->nr_chunks, i);

	memset(page_address(x->chunks[i].page), 0,
	       PAGE_ALIGN((size_t)slots * dmasim_desc_stride(&x->spec)));
}

/*
 * Splits @entries mapped segments over the chunks. An IOMMU may merge the
 * list into fewer segments than there are chunks: then only the first
 * @entries chunks are linked, one descriptor each (every chunk has room
 * for a descriptor and a link), and the others are cleared here. A linked
 * chunk is cleared as its first descriptor is written (fill_descriptors()),
 * so its pages are still in the cache for the writes.
 */
static void layout_chunks(struct dmasim_xfer *x, unsigned int entries)
{
	unsigned int i;

	x->nr_linked = entries < x->nr_chunks ? entries : x->nr_chunks;
	for (i = 0; i < x->nr_chunks; i++) {
		x->chunks[i].nr_desc =
			i < x->nr_linked
				? dmasim_chunk_entries(entries, x->nr_linked, i)
				: 0;
		if (i >= x->nr_linked)
			clear_chunk(x, i);
	}
}

static int cursor_is_chunk_end(const struct dmasim_xfer *x,
			       const struct desc_cursor *cur)
{
	return cur->slot + 1 == x->chunks[cur->chunk].nr_desc;
}

static int cursor_is_last(const struct dmasim_xfer *x,
			  const struct desc_cursor *cur)
{
	return cur->chunk + 1 == x->nr_linked && cursor_is_chunk_end(x, cur);
}

/* The fields every layout shares; compact layouts keep the low bits
 * (desc_fits() checks they lose none). */
#define STORE_FIELDS(desc, d)                 \
	do {                                  \
		(desc)->src = (d)->src;       \
		(desc)->dst = (d)->dst;       \
		(desc)->length = (d)->length; \
		(desc)->flags = (d)->flags;   \
	} while (0)

/* Writes @d into a slot in the layout the controller reports (CAPS); the
 * 64-byte layouts are the 32/48-byte ones plus ignored bytes left at 0,
 * and so are the APP words. */
void desc_store(const struct dmasim_xfer_spec *spec, void *slot,
		const struct desc_data *d)
{
	struct dma_hw_layout layout = dmasim_desc_layout(spec);
	int compact = spec->desc_bytes == DMA_HW_DESC16_SIZE;
	struct dma_hw_ll_desc32 *l32 = slot;
	struct dma_hw_ll_desc24 *l16 = slot;
	struct dma_hw_ll_desc *l = slot;
	struct dma_hw_desc16 *c16 = slot;
	struct dma_hw_desc *c = slot;

	if (dma_hw_layout_is_ll32(&layout)) {
		STORE_FIELDS(l32, d);
		l32->next = d->next;
	} else if (spec->format == DMA_HW_FMT_LINKED_LIST && compact) {
		STORE_FIELDS(l16, d);
		l16->next = (uint32_t)d->next;
	} else if (spec->format == DMA_HW_FMT_LINKED_LIST) {
		STORE_FIELDS(l, d);
		l->next = d->next;
	} else if (compact) {
		STORE_FIELDS(c16, d);
	} else {
		STORE_FIELDS(c, d);
	}
}

/* Compact descriptors hold only 32-bit addresses. */
int desc_fits(const struct dmasim_xfer_spec *spec, const struct desc_data *d)
{
	return spec->desc_bytes != DMA_HW_DESC16_SIZE ||
	       (d->next | d->src | d->dst) <= UINT32_MAX;
}

static int write_chained(struct dmasim_xfer *x, const struct desc_cursor *cur,
			 const struct desc_data *d)
{
	struct desc_data link = {0, 0, 0, 0, DMA_DESC_CHAIN};

	desc_store(&x->spec, dmasim_xfer_desc(x, cur->chunk, cur->slot), d);
	if (!cursor_is_chunk_end(x, cur) || cursor_is_last(x, cur))
		return desc_fits(&x->spec, d) ? 0 : -ERANGE;
	/* The slot after a non-final chunk's data links to the next chunk. */
	link.src = dmasim_xfer_desc_bus(x, cur->chunk + 1, 0);
	desc_store(&x->spec, dmasim_xfer_desc(x, cur->chunk, cur->slot + 1),
		   &link);
	return desc_fits(&x->spec, d) && desc_fits(&x->spec, &link) ? 0
								    : -ERANGE;
}

static int write_linked(struct dmasim_xfer *x, const struct desc_cursor *cur,
			struct desc_data *d)
{
	if (cursor_is_last(x, cur)) {
		d->next = 0;
	} else if (cursor_is_chunk_end(x, cur)) {
		d->next = dmasim_xfer_desc_bus(x, cur->chunk + 1, 0);
		d->flags |= DMA_DESC_CHAIN;
	} else {
		d->next = dmasim_xfer_desc_bus(x, cur->chunk, cur->slot + 1);
	}
	desc_store(&x->spec, dmasim_xfer_desc(x, cur->chunk, cur->slot), d);
	return desc_fits(&x->spec, d) ? 0 : -ERANGE;
}

static void cursor_advance(const struct dmasim_xfer *x, struct desc_cursor *cur)
{
	if (cursor_is_chunk_end(x, cur)) {
		cur->chunk++;
		cur->slot = 0;
	} else {
		cur->slot++;
	}
}

/**
 * dmasim_described_list - the list whose mapped segments the data
 * descriptors describe, in order
 * @x: transfer
 *
 * Return: @x->dst for dev_to_mem, else @x->src.
 */
const struct sg_table *dmasim_described_list(const struct dmasim_xfer *x)
{
	return x->spec.dir == DMA_HW_DEV_TO_MEM ? &x->dst : &x->src;
}

/*
 * The data descriptor of mapped segment @sg (@dsg: the destination list's
 * segment beside it in mem_to_mem, advanced past it): addresses, length
 * and the spec's per-descriptor flags; next and END are the caller's.
 */
int desc_describe(const struct dmasim_xfer *x, struct scatterlist *sg,
		  struct scatterlist **dsg, struct desc_data *d)
{
	d->next = 0;
	d->length = sg_dma_len(sg);
	d->src = x->spec.dir == DMA_HW_DEV_TO_MEM ? 0 : sg_dma_address(sg);
	d->dst = x->spec.dir == DMA_HW_MEM_TO_DEV ? 0 : sg_dma_address(sg);
	if (x->spec.dir == DMA_HW_MEM_TO_MEM) {
		/* One length moves both sides: an IOMMU must have merged the
		 * two lists alike. */
		if (sg_dma_len(*dsg) != d->length)
			return -EINVAL;
		d->dst = sg_dma_address(*dsg);
		*dsg = sg_next(*dsg);
	}
	d->flags = x->spec.irq_per_desc ? DMA_DESC_IRQ : 0;
	if (x->spec.deburst)
		d->flags |= DMA_DESC_DEBURST;
	return 0;
}

/* Writes the data descriptors; @bytes: the payload bytes they describe. */
static int fill_descriptors(struct dmasim_xfer *x, uint64_t *bytes)
{
	const struct sg_table *list = dmasim_described_list(x);
	struct scatterlist *sg, *dsg = x->dst.sgl;
	struct desc_cursor cur = {0, 0};
	struct desc_data d;
	unsigned int i;
	int ret;

	*bytes = 0;
	for_each_sgtable_dma_sg(list, sg, i)
	{
		ret = desc_describe(x, sg, &dsg, &d);
		if (ret)
			return ret;
		*bytes += d.length;
		if (cur.slot == 0)
			clear_chunk(x, cur.chunk);
		if (cursor_is_last(x, &cur))
			d.flags |= DMA_DESC_END;
		if (x->spec.format == DMA_HW_FMT_LINKED_LIST)
			ret = write_linked(x, &cur, &d);
		else
			ret = write_chained(x, &cur, &d);
		if (ret)
			return ret;
		cursor_advance(x, &cur);
	}
	return 0;
}

/**
 * dmasim_build_descriptors - write the descriptor chunks of a transfer
 * @x: transfer whose chunks are allocated and whose lists are DMA-mapped
 *
 * The mapped segment count (which an IOMMU may make smaller than the list)
 * is split over the chunks as docs/descriptor-formats.md defines; with fewer
 * segments than chunks, over as many chunks as segments. Sets @x->bytes
 * to the bytes the descriptors move (an IOMMU's merged segments add up to
 * the list's entries), so the list takes no walk of its own for it.
 *
 * Return: 0, -EINVAL if there are no chunks or segments, or the source
 * and destination map to different segments (dmasim_xfer_map() checks
 * their counts), or -ERANGE if an address does not fit the compact
 * layout's 32 bits.
 */
int dmasim_build_descriptors(struct dmasim_xfer *x)
{
	unsigned int entries = dmasim_described_list(x)->nents;
	uint64_t bytes;
	int ret;

	if (x->nr_chunks < 1 || entries < 1 || entries > x->spec.entries)
		return -EINVAL;
	layout_chunks(x, entries);
	ret = fill_descriptors(x, &bytes);
	if (ret)
		return ret;
	x->bytes = bytes;
	x->head = dmasim_xfer_desc_bus(x, 0, 0);
	return 0;
}
