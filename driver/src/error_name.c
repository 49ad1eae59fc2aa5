// SPDX-License-Identifier: MIT
/*
 * error_name.c - channel error codes by the names the register map gives
 * them, so messages say CHAIN_LOOP rather than "error 6".
 */
#include <dmasim/driver/dmasim_dma.h>

/**
 * dmasim_error_name - the name of a channel error code
 * @error: enum dma_hw_error, as dmasim_status_error() extracts it
 *
 * Return: "CHAIN_LOOP", "DATA_BUS", ...; "UNKNOWN" for a code the
 * hardware does not define.
 */
const char *dmasim_error_name(unsigned int error)
{
	static const char *const names[] = {
		[DMA_ERR_NONE] = "NONE",
		[DMA_ERR_DESC_BUS] = "DESC_BUS",
		[DMA_ERR_DESC_ADDRESS] = "DESC_ADDRESS",
		[DMA_ERR_DATA_BUS] = "DATA_BUS",
		[DMA_ERR_DATA_ADDRESS] = "DATA_ADDRESS",
		[DMA_ERR_ZERO_LENGTH] = "ZERO_LENGTH",
		[DMA_ERR_CHAIN_LOOP] = "CHAIN_LOOP",
		[DMA_ERR_BAD_DESCRIPTOR] = "BAD_DESCRIPTOR",
		[DMA_ERR_ABORTED] = "ABORTED",
		[DMA_ERR_TRANSLATION] = "TRANSLATION",
		[DMA_ERR_TAIL_UNREACHED] = "TAIL_UNREACHED",
	};

	if (error >= sizeof(names) / sizeof(names[0]) || !names[error])
		return "UNKNOWN";
	return names[error];
}
