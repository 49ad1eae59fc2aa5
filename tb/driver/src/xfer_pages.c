// SPDX-License-Identifier: MIT
/*
 * xfer_pages.c - how many page frames a transfer will take, without
 * allocating: what configuration checks need of the driver (its own file,
 * so they link none of the code that touches registers).
 */
#include <dmasim/driver/dmasim_dma.h>

/**
 * dmasim_xfer_pages_needed - page frames a transfer will allocate
 * @spec: the transfer
 *
 * Counts the data blocks of every list (drawing the same lengths as
 * dmasim_xfer_prep() will) and the descriptor chunks, without allocating.
 *
 * Return: number of page frames.
 */
uint64_t dmasim_xfer_pages_needed(const struct dmasim_xfer_spec *spec)
{
	uint64_t data = dmasim_buf_pages_needed(&spec->seg, spec->entries);
	/* mem_to_mem has a source and a destination list, the others one. */
	uint64_t lists = spec->dir == DMA_HW_MEM_TO_MEM ? 2 : 1;
	uint64_t desc = 0, slots;
	unsigned int i;

	for (i = 0; i < spec->chain_depth; i++) {
		slots = dmasim_chunk_slots(spec->format, spec->entries,
					   spec->chain_depth, i);
		desc += 1ull << get_order(slots * dmasim_desc_stride(spec));
	}
	return data * lists + desc;
}
