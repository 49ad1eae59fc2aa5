/* SPDX-License-Identifier: MIT */
/*
 * mm_internal.h - what the parts of the simulated memory share privately.
 */
#ifndef SGLIST_MM_INTERNAL_H
#define SGLIST_MM_INTERNAL_H

#include <sglist/mm.h>

/* Frame allocator (page_alloc.c). */
int frames_init(unsigned long nr_frames, enum sim_mem_placement placement,
		uint64_t seed);
void frames_exit(void);
/* First pfn of @count free frames aligned to @align, now in use; 0 if none. */
unsigned long frames_alloc(unsigned long count, unsigned long align);
/* True if all of [@pfn, @pfn + @count) is allocated (catches bad frees). */
bool frames_allocated(unsigned long pfn, unsigned long count);
void frames_free(unsigned long pfn, unsigned long count);
/* No frame of the run was freed since frames_init(). */
bool frames_never_freed(unsigned long pfn, unsigned long count);
unsigned long frames_in_use(void);
unsigned long frames_free_count(void);
unsigned long frames_largest_free_run(void);

/* struct page flags: who carved the frame (each allocator owns its bits). */
#define PG_SLAB 0x1UL /* slab.c: page is carved into one size class */
#define PG_RUN 0x2UL  /* slab.c: page heads a large kmalloc's frame run */
#define PG_FRAG 0x4UL /* page_frag.c: page heads a fragment block */

/* kmalloc (slab.c): forget every size class's pages. */
void slab_reset(void);

/* Record why an allocation failed, for sim_mem_last_error() (mm_state.c). */
void sim_mem_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void sim_mem_clear_error(void);

#endif /* SGLIST_MM_INTERNAL_H */
