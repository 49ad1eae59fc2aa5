/* SPDX-License-Identifier: MIT */
/*
 * segments.h - what the segments of one scatter list look like: how their
 * lengths are drawn and where their buffers live. The one definition of
 * these workload notions: the workload library draws and places segments
 * by them (workload.h), and the testbench's WorkloadConfig (tb/sim_config.h)
 * holds them as they are. Plain C with no sglist/ types, so configuration
 * code can include it.
 */
#ifndef DMASIM_WORKLOAD_SEGMENTS_H
#define DMASIM_WORKLOAD_SEGMENTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How segment lengths are chosen. */
enum dmasim_seg_dist {
	DMASIM_SEG_FIXED,     /* every segment is @bytes long */
	DMASIM_SEG_UNIFORM,   /* uniform in [@min, @max] */
	DMASIM_SEG_LOGNORMAL, /* log-normal with mean @bytes, clamped to [@min,
				 @max] */
	DMASIM_SEG_LIST,      /* segment i is @lengths[i] long, at in-page
				 offset @offsets[i] (a replayed request) */
};

/* Where segment buffers live. */
enum dmasim_buf_layout {
	DMASIM_BUF_PAGES,  /* each segment in page frames of its own */
	DMASIM_BUF_PACKED, /* back to back, as page_frag_alloc() hands them out
			    */
};

/* The segments of one scatter list. */
struct dmasim_seg_spec {
	enum dmasim_seg_dist dist;
	uint64_t bytes;
	uint64_t min;
	uint64_t max;
	double sigma;	 /* log-normal: standard deviation of ln(length) */
	uint32_t offset; /* in-page offset of every segment, < PAGE_SIZE */
	uint64_t seed;
	enum dmasim_buf_layout layout; /* packed ignores @offset */
	const uint32_t *lengths;       /* DMASIM_SEG_LIST: one per segment */
	const uint32_t *offsets;       /* DMASIM_SEG_LIST: one per segment */
};

#ifdef __cplusplus
}
#endif

#endif /* DMASIM_WORKLOAD_SEGMENTS_H */
