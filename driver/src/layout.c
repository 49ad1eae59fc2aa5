// SPDX-License-Identifier: MIT
/*
 * layout.c - how a list of descriptors is split over descriptor chunks
 * (docs/descriptor-formats.md): D chunks, the first (entries mod D) holding
 * ceil(entries / D) data descriptors and the rest floor(entries / D).
 */
#include <assert.h>

#include <dmasim/driver/dmasim_dma.h>

/**
 * dmasim_chunk_entries - data descriptors held by one descriptor chunk
 * @entries: data descriptors in the whole list, >= 1
 * @depth: number of chunks, 1..@entries
 * @index: chunk index, 0..@depth-1
 *
 * Return: ceil(@entries / @depth) for the first (@entries mod @depth)
 * chunks, floor(@entries / @depth) for the others.
 */
unsigned int dmasim_chunk_entries(unsigned int entries, unsigned int depth,
				  unsigned int index)
{
	assert(depth >= 1 && depth <= entries &&
	       "dmasim_chunk_entries: bad depth");
	assert(index < depth && "dmasim_chunk_entries: bad index");
	return entries / depth + (index < entries % depth ? 1 : 0);
}

/**
 * dmasim_chunk_slots - descriptor slots one chunk occupies
 * @format: descriptor format
 * @entries: data descriptors in the whole list
 * @depth: number of chunks
 * @index: chunk index
 *
 * In chained_pages a non-final chunk ends in one chain descriptor; in
 * linked_list every slot is a data descriptor.
 *
 * Return: number of descriptor slots in chunk @index.
 */
unsigned int dmasim_chunk_slots(enum dma_hw_format format, unsigned int entries,
				unsigned int depth, unsigned int index)
{
	unsigned int slots = dmasim_chunk_entries(entries, depth, index);

	if (format == DMA_HW_FMT_CHAINED_PAGES && index + 1 < depth)
		slots++;
	return slots;
}

/**
 * dmasim_desc_layout - the descriptor layout a transfer is written in
 * @spec: transfer spec whose layout fields came from CAPS
 *
 * Return: format, slot size (0 means 32), next pointer placement and APP
 * words, as dma_hw.h's layout functions take them.
 */
struct dma_hw_layout dmasim_desc_layout(const struct dmasim_xfer_spec *spec)
{
	struct dma_hw_layout l = {
		spec->format,
		spec->desc_bytes ? spec->desc_bytes : DMA_HW_DESC_SIZE,
		spec->next_in_slot,
		spec->app_words,
	};

	return l;
}

/**
 * dmasim_desc_stride - bytes from one descriptor to the next in a chunk
 * @spec: transfer spec
 *
 * A linked_list descriptor adds its next pointer to the slot's layout
 * (24, 48, 80 bytes) unless it sits inside the slot (32, 64); APP words
 * follow the fields and round the stride up to DMA_HW_APP_ALIGN.
 *
 * Return: dma_hw_layout_stride() of the spec's layout.
 */
unsigned int dmasim_desc_stride(const struct dmasim_xfer_spec *spec)
{
	struct dma_hw_layout l = dmasim_desc_layout(spec);

	return dma_hw_layout_stride(&l);
}

/**
 * dmasim_desc_pages_needed - page frames a transfer's descriptor chunks take
 * @spec: the transfer
 *
 * Return: the frames dmasim_xfer_alloc() will allocate for @spec's chunks
 * (each a power-of-two block of frames; none for a ring's request).
 */
uint64_t dmasim_desc_pages_needed(const struct dmasim_xfer_spec *spec)
{
	uint64_t pages = 0, slots;
	unsigned int i;

	for (i = 0; !spec->for_ring && i < spec->chain_depth; i++) {
		slots = dmasim_chunk_slots(spec->format, spec->entries,
					   spec->chain_depth, i);
		pages += 1ull << get_order(slots * dmasim_desc_stride(spec));
	}
	return pages;
}
