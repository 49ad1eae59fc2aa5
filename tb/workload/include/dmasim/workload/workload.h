/* SPDX-License-Identifier: MIT */
/*
 * workload.h - the testbench's workloads in the driver's terms: scatter
 * lists whose segment lengths are drawn from a seeded distribution and
 * whose buffers come from simulated physical memory, handed to the
 * driver (dmasim/driver/dmasim_dma.h) as a caller of a Linux driver hands
 * it its lists. Testbench code, not part of the driver: a platform with
 * its own buffers needs only the driver.
 */
#ifndef DMASIM_WORKLOAD_WORKLOAD_H
#define DMASIM_WORKLOAD_WORKLOAD_H

#include <stdint.h>

#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/workload/segments.h>
#include <sglist/scatterlist.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One transfer of a workload: what the driver describes, and its segments. */
struct dmasim_load_spec {
	struct dmasim_xfer_spec xfer;
	struct dmasim_seg_spec seg;
};

/* ---- Segment lengths --------------------------------------------------- */

struct dmasim_seg_rng {
	uint64_t state;
};

void dmasim_seg_rng_init(struct dmasim_seg_rng *rng,
			 const struct dmasim_seg_spec *seg);
uint32_t dmasim_seg_next_len(struct dmasim_seg_rng *rng,
			     const struct dmasim_seg_spec *seg);
uint32_t dmasim_seg_offset(const struct dmasim_seg_spec *seg, unsigned int i);

/* ---- Data buffers ------------------------------------------------------ */

int dmasim_buf_alloc(struct sg_table *sgt, unsigned int entries,
		     const struct dmasim_seg_spec *seg);
void dmasim_buf_free(struct sg_table *sgt, enum dmasim_buf_layout layout);
uint64_t dmasim_buf_pages_needed(const struct dmasim_seg_spec *seg,
				 unsigned int entries);
int dmasim_buf_is_fragment(enum dmasim_buf_layout layout, uint32_t length);

/* ---- Transfers --------------------------------------------------------- */

uint64_t dmasim_load_pages_needed(const struct dmasim_load_spec *spec);
int dmasim_load_prep(struct dmasim_dev *dd, const struct dmasim_load_spec *spec,
		     struct dmasim_xfer **out);
void dmasim_load_free(struct dmasim_dev *dd, struct dmasim_xfer *x,
		      enum dmasim_buf_layout layout);

#ifdef __cplusplus
}
#endif

#endif /* DMASIM_WORKLOAD_WORKLOAD_H */
