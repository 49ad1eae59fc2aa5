// SPDX-License-Identifier: MIT
/*
 * sim_mem.c - the simulated RAM's host mapping and its lifetime.
 *
 * The RAM and mem_map are each one anonymous MAP_NORESERVE mapping: the
 * kernel backs a page only when it is first written, so a 64 GiB RAM
 * costs nothing until used.
 */
#include "mm_internal.h"

#include <string.h>
#include <sys/mman.h>

static void *map_sparse(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * mem_map is written wherever a frame is allocated, and scattered
 * placement spreads a run's allocations over the whole RAM: a few
 * thousand of them touch every page of it. Backed in 2 MiB pages that is
 * a few faults instead of one per 4 KiB (1,536 for a 1 GiB RAM), for at
 * most mem_map's size in RSS, 0.6% of the simulated RAM. Only advice: a
 * host without transparent huge pages backs it as before.
 */
static void *map_mem_map(size_t bytes)
{
	void *p = map_sparse(bytes);

	if (p)
		madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

static size_t mem_map_bytes(unsigned long nr_frames)
{
	return PAGE_ALIGN(nr_frames * sizeof(struct page));
}

int sim_mem_init(uint64_t bytes, enum sim_mem_placement placement,
		 uint64_t seed)
{
	unsigned long nr_frames = bytes >> PAGE_SHIFT;

	if (sim_mem_layout.virt || bytes % PAGE_SIZE || nr_frames < 2 ||
	    nr_frames > UINT32_MAX || /* struct page links are 32-bit */
	    (placement != SIM_MEM_CONTIGUOUS && placement != SIM_MEM_SCATTERED))
		return -EINVAL;
	sim_mem_layout.virt = map_sparse(bytes);
	sim_mem_layout.mem_map = map_mem_map(mem_map_bytes(nr_frames));
	sim_mem_layout.nr_frames = nr_frames;
	if (!sim_mem_layout.virt || !sim_mem_layout.mem_map ||
	    frames_init(nr_frames, placement, seed)) {
		sim_mem_exit();
		return -ENOMEM;
	}
	sim_mem_clear_error();
	return 0;
}

void sim_mem_exit(void)
{
	slab_reset();
	frames_exit();
	if (sim_mem_layout.mem_map)
		munmap(sim_mem_layout.mem_map,
		       mem_map_bytes(sim_mem_layout.nr_frames));
	if (sim_mem_layout.virt)
		munmap(sim_mem_layout.virt,
		       sim_mem_layout.nr_frames << PAGE_SHIFT);
	memset(&sim_mem_layout, 0, sizeof(sim_mem_layout));
}

void *sim_mem_base(void)
{
	return sim_mem_layout.virt;
}

uint64_t sim_mem_size(void)
{
	return (uint64_t)sim_mem_layout.nr_frames << PAGE_SHIFT;
}

unsigned long sim_mem_pages_in_use(void)
{
	return frames_in_use();
}

unsigned long sim_mem_pages_free(void)
{
	return frames_free_count();
}

bool sim_mem_frames_fresh(const struct page *page, unsigned long count)
{
	unsigned long pfn = page_to_pfn(page);

	return pfn < sim_mem_layout.nr_frames &&
	       count <= sim_mem_layout.nr_frames - pfn &&
	       frames_never_freed(pfn, count);
}
