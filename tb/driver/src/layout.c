// SPDX-License-Identifier: MIT
/*
 * layout.c - how a list of descriptors is split over descriptor chunks
 * (design section 7): D chunks, the first (entries mod D) holding
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
 * dmasim_desc_size - bytes of one descriptor
 * @format: descriptor format
 * @desc_bytes: chained_pages slot size from CAPS: 16, 32 or 64 (0 = 32)
 *
 * A linked_list descriptor adds its next pointer to the slot's layout.
 *
 * Return: DMA_HW_DESC16_SIZE, DMA_HW_DESC_SIZE or DMA_HW_DESC64_SIZE for
 * chained_pages; DMA_HW_LL_DESC24_SIZE, DMA_HW_LL_DESC_SIZE or
 * DMA_HW_LL_DESC80_SIZE for linked_list.
 */
unsigned int dmasim_desc_size(enum dma_hw_format format,
			      unsigned int desc_bytes)
{
	return dma_hw_desc_size(format, desc_bytes);
}

/**
 * dmasim_desc_pages_needed - page frames a transfer's descriptor chunks take
 * @spec: the transfer
 *
 * Return: the frames dmasim_xfer_alloc() will allocate for @spec's chunks
 * (each a power-of-two block of frames).
 */
uint64_t dmasim_desc_pages_needed(const struct dmasim_xfer_spec *spec)
{
	uint64_t pages = 0, slots;
	unsigned int i;

	for (i = 0; i < spec->chain_depth; i++) {
		slots = dmasim_chunk_slots(spec->format, spec->entries,
					   spec->chain_depth, i);
		pages += 1ull << get_order(slots *
					   dmasim_desc_size(spec->format,
							    spec->desc_bytes));
	}
	return pages;
}
