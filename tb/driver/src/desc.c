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

/* Where the next descriptor goes. */
struct desc_cursor {
	unsigned int chunk;
	unsigned int slot;
};

/* One data descriptor's payload, in hardware terms. */
struct desc_data {
	uint64_t src;
	uint64_t dst;
	uint32_t length;
	uint32_t flags;
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

	return base + (size_t)slot * dmasim_desc_size(x->spec.format);
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
	return (uint64_t)page_to_phys(x->chunks[chunk].page) +
	       (uint64_t)slot * dmasim_desc_size(x->spec.format);
}

/**
 * dmasim_free_descriptors - free the descriptor chunks of a transfer
 * @x: transfer; chunks never allocated are skipped
 */
void dmasim_free_descriptors(struct dmasim_xfer *x)
{
	unsigned int i;

	if (!x->chunks)
		return;
	for (i = 0; i < x->nr_chunks; i++) {
		if (x->chunks[i].page)
			__free_pages(x->chunks[i].page, x->chunks[i].order);
	}
	kfree(x->chunks);
	x->chunks = NULL;
	x->nr_chunks = 0;
}

/**
 * dmasim_alloc_descriptors - allocate the descriptor chunks of a transfer
 * @x: transfer with its spec set
 *
 * Sized for @x->spec.entries descriptors, before any data buffer exists:
 * like a driver's descriptor pool, the chunks must not depend on how
 * fragmented the data pages leave memory. A mapping that merges segments
 * only ever needs fewer slots per chunk.
 *
 * Return: 0 or -ENOMEM; on error the caller frees with
 * dmasim_free_descriptors().
 */
int dmasim_alloc_descriptors(struct dmasim_xfer *x)
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
				     dmasim_desc_size(x->spec.format));
		c->page = alloc_pages(GFP_KERNEL, c->order);
		if (!c->page)
			return -ENOMEM;
	}
	return 0;
}

/* Splits @entries mapped segments over the chunks and clears them. */
static void layout_chunks(struct dmasim_xfer *x, unsigned int entries)
{
	struct dmasim_chunk *c;
	unsigned int i;

	for (i = 0; i < x->nr_chunks; i++) {
		c = &x->chunks[i];
		c->nr_desc = dmasim_chunk_entries(entries, x->nr_chunks, i);
		/* Status write-back fields and reserved words start at zero. */
		memset(page_address(c->page), 0, (size_t)PAGE_SIZE << c->order);
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
	return cur->chunk + 1 == x->nr_chunks && cursor_is_chunk_end(x, cur);
}

static void write_chained(struct dmasim_xfer *x, const struct desc_cursor *cur,
			  const struct desc_data *d)
{
	struct dma_hw_desc *desc = dmasim_xfer_desc(x, cur->chunk, cur->slot);

	desc->src = d->src;
	desc->dst = d->dst;
	desc->length = d->length;
	desc->flags = d->flags;
	if (!cursor_is_chunk_end(x, cur) || cursor_is_last(x, cur))
		return;
	/* The slot after a non-final chunk's data links to the next chunk. */
	desc = dmasim_xfer_desc(x, cur->chunk, cur->slot + 1);
	desc->src = dmasim_xfer_desc_bus(x, cur->chunk + 1, 0);
	desc->flags = DMA_DESC_CHAIN;
}

static void write_linked(struct dmasim_xfer *x, const struct desc_cursor *cur,
			 const struct desc_data *d)
{
	struct dma_hw_ll_desc *desc =
		dmasim_xfer_desc(x, cur->chunk, cur->slot);

	desc->src = d->src;
	desc->dst = d->dst;
	desc->length = d->length;
	desc->flags = d->flags;
	if (cursor_is_last(x, cur))
		return;
	if (cursor_is_chunk_end(x, cur)) {
		desc->next = dmasim_xfer_desc_bus(x, cur->chunk + 1, 0);
		desc->flags |= DMA_DESC_CHAIN;
	} else {
		desc->next = dmasim_xfer_desc_bus(x, cur->chunk, cur->slot + 1);
	}
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

/* The list whose mapped segments define the descriptors. */
static const struct sg_table *primary_list(const struct dmasim_xfer *x)
{
	return x->spec.dir == DMA_HW_DEV_TO_MEM ? &x->dst : &x->src;
}

static void fill_descriptors(struct dmasim_xfer *x)
{
	const struct sg_table *list = primary_list(x);
	struct scatterlist *sg, *dsg = x->dst.sgl;
	struct desc_cursor cur = {0, 0};
	struct desc_data d;
	unsigned int i;

	for_each_sgtable_dma_sg(list, sg, i)
	{
		d.length = sg_dma_len(sg);
		d.src = x->spec.dir == DMA_HW_DEV_TO_MEM ? 0
							 : sg_dma_address(sg);
		d.dst = x->spec.dir == DMA_HW_MEM_TO_DEV ? 0
							 : sg_dma_address(sg);
		if (x->spec.dir == DMA_HW_MEM_TO_MEM) {
			d.dst = sg_dma_address(dsg);
			dsg = sg_next(dsg);
		}
		d.flags = cursor_is_last(x, &cur) ? DMA_DESC_END : 0;
		if (x->spec.format == DMA_HW_FMT_LINKED_LIST)
			write_linked(x, &cur, &d);
		else
			write_chained(x, &cur, &d);
		cursor_advance(x, &cur);
	}
}

/**
 * dmasim_build_descriptors - write the descriptor chunks of a transfer
 * @x: transfer whose chunks are allocated and whose lists are DMA-mapped
 *
 * The mapped segment count (which an IOMMU may make smaller than the list)
 * is split over the chunks as design section 7 defines.
 *
 * Return: 0, or -EINVAL if the chunks outnumber the mapped segments or the
 * source and destination map differently.
 */
int dmasim_build_descriptors(struct dmasim_xfer *x)
{
	unsigned int entries = primary_list(x)->nents;

	if (x->nr_chunks < 1 || x->nr_chunks > entries ||
	    entries > x->spec.entries)
		return -EINVAL;
	if (x->spec.dir == DMA_HW_MEM_TO_MEM && x->dst.nents != entries)
		return -EINVAL;
	layout_chunks(x, entries);
	fill_descriptors(x);
	x->head = dmasim_xfer_desc_bus(x, 0, 0);
	return 0;
}
