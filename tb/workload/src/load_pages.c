// SPDX-License-Identifier: MIT
/*
 * load_pages.c - how many page frames a transfer will take, without
 * allocating: what configuration checks need (its own file, so they link
 * none of the code that touches registers).
 */
#include <dmasim/workload/workload.h>

/**
 * dmasim_load_pages_needed - page frames a transfer will allocate
 * @spec: the transfer
 *
 * Counts the data blocks of every list (drawing the same lengths as
 * dmasim_load_prep() will) and the descriptor chunks, without allocating.
 *
 * Return: number of page frames.
 */
uint64_t dmasim_load_pages_needed(const struct dmasim_load_spec *spec)
{
	uint64_t data = dmasim_buf_pages_needed(&spec->seg, spec->xfer.entries);
	/* mem_to_mem has a source and a destination list, the others one. */
	uint64_t lists = spec->xfer.dir == DMA_HW_MEM_TO_MEM ? 2 : 1;

	return data * lists + dmasim_desc_pages_needed(&spec->xfer);
}
