/* SPDX-License-Identifier: MIT */
/*
 * desc_write.h - writing one hardware descriptor: shared by a transfer's
 * own descriptor chunks (desc.c) and descriptor rings (ring.c).
 */
#ifndef DMASIM_DRIVER_DESC_WRITE_H
#define DMASIM_DRIVER_DESC_WRITE_H

#include <dmasim/driver/dmasim_dma.h>

/* One descriptor's fields, in hardware terms (next: linked_list only). */
struct desc_data {
	uint64_t next;
	uint64_t src;
	uint64_t dst;
	uint32_t length;
	uint32_t flags;
};

int desc_describe(const struct dmasim_xfer *x, struct scatterlist *sg,
		  struct scatterlist **dsg, struct desc_data *d);
void desc_store(const struct dmasim_xfer_spec *spec, void *slot,
		const struct desc_data *d);
int desc_fits(const struct dmasim_xfer_spec *spec, const struct desc_data *d);

#endif /* DMASIM_DRIVER_DESC_WRITE_H */
