// SPDX-License-Identifier: MIT
/*
 * iommu.c - a simulated IOMMU: one I/O virtual address space per device,
 * translated by real page tables in simulated memory.
 *
 * dma_map_sg() lays the entries out back to back in one IOVA range, each
 * keeping its offset within its page, and maps their pages there. Entries
 * that end and start on a page boundary become contiguous in IOVA space
 * and merge into one DMA segment, up to the device's maximum segment size
 * and never across its segment boundary.
 *
 * The translations live in the page-table format of <dmasim/hw/iommu_hw.h>:
 * table frames are allocated from simulated RAM, so the model's walker
 * reads exactly what this file writes, and sim_iommu_iova_to_phys() walks
 * the same tables. Like Linux's iommu_map(), a run that is 2 MiB aligned
 * on both sides and at least 2 MiB long gets 2 MiB leaves (when the
 * domain allows them), the rest 4 KiB leaves; in such a domain a mapping
 * of 2 MiB or more starts its IOVA range at its first page's physical
 * offset within 2 MiB, so physically contiguous runs line up. The IOVA
 * allocator's own bookkeeping is host memory.
 */
#include "dma_internal.h"

#include <dmasim/hw/iommu_hw.h>
#include <sglist/mm.h>
#include <stdlib.h>

#define IOMMU_LARGE_BYTES (1ull << IOMMU_LARGE_SHIFT)

struct iova_range {
	u64 start;
	u64 len;
	struct iova_range *next; /* sorted by start */
};

struct sim_iommu {
	u64 base;
	u64 size;
	unsigned int levels;	   /* page-table levels, root = level @levels */
	u64 max_page;		   /* PAGE_SIZE, or IOMMU_LARGE_BYTES */
	phys_addr_t root;	   /* the root table's frame */
	struct iova_range *ranges; /* live mappings */
};

/* ---- Page-table entries in simulated RAM (little endian) ------------- */

static u64 pte_get(phys_addr_t table, unsigned int idx)
{
	const u8 *p = (const u8 *)phys_to_virt(table) + (size_t)idx * 8;
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void pte_set(phys_addr_t table, unsigned int idx, u64 v)
{
	u8 *p = (u8 *)phys_to_virt(table) + (size_t)idx * 8;
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (u8)v;
}

static bool pte_present(u64 pte)
{
	return pte & IOMMU_PTE_PRESENT;
}

/* A level-2 entry mapping a 2 MiB page rather than a level-1 table. */
static bool pte_is_large(u64 pte, unsigned int level)
{
	return level == 2 && (pte & IOMMU_PTE_LEAF);
}

static phys_addr_t pte_addr(u64 pte)
{
	return pte & IOMMU_PTE_ADDR_MASK;
}

/* A zeroed table frame, or 0 when simulated RAM is full. */
static phys_addr_t table_alloc(void)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	return page ? page_to_phys(page) : 0;
}

/* Frees @table (at @level) and every lower table it points to. */
static void table_free(phys_addr_t table, unsigned int level)
{
	unsigned int i;
	u64 pte;

	for (i = 0; level > 1 && i < IOMMU_PT_ENTRIES; i++) {
		pte = pte_get(table, i);
		if (pte_present(pte) && !pte_is_large(pte, level))
			table_free(pte_addr(pte), level - 1);
	}
	__free_pages(pfn_to_page(table >> PAGE_SHIFT), 0);
}

/*
 * The table at @level whose entry translates @iova: descends from the root,
 * allocating missing tables when @alloc. Return: its frame, or 0 if a table
 * is missing (or could not be allocated) or a 2 MiB leaf covers @iova.
 */
static phys_addr_t table_for(struct sim_iommu *iommu, u64 iova,
			     unsigned int level, bool alloc)
{
	phys_addr_t table = iommu->root, next;
	unsigned int lvl;
	u64 pte;

	for (lvl = iommu->levels; lvl > level; lvl--) {
		pte = pte_get(table, IOMMU_PT_INDEX(iova, lvl));
		if (pte_is_large(pte, lvl))
			return 0;
		if (!pte_present(pte)) {
			next = alloc ? table_alloc() : 0;
			if (!next)
				return 0;
			pte_set(table, IOMMU_PT_INDEX(iova, lvl),
				next | IOMMU_PTE_PRESENT);
			pte = next | IOMMU_PTE_PRESENT;
		}
		table = pte_addr(pte);
	}
	return table;
}

/* Whether a 2 MiB leaf can map @iova -> @phys with @bytes left to map. */
static bool fits_large(struct sim_iommu *iommu, u64 iova, phys_addr_t phys,
		       u64 bytes)
{
	phys_addr_t table;

	if (iommu->max_page < IOMMU_LARGE_BYTES || bytes < IOMMU_LARGE_BYTES ||
	    (iova | phys) & (IOMMU_LARGE_BYTES - 1))
		return false;
	/* A level-1 table left there by earlier 4 KiB mappings stays. */
	table = table_for(iommu, iova, 2, true);
	return table && !pte_present(pte_get(table, IOMMU_PT_INDEX(iova, 2)));
}

/* Clears the leaves of [@iova, @iova + @bytes); missing ones are skipped. */
static void unmap_run(struct sim_iommu *iommu, u64 iova, u64 bytes)
{
	u64 end = iova + bytes, pte;
	phys_addr_t table;

	while (iova < end) {
		table = table_for(iommu, iova, 2, false);
		pte = table ? pte_get(table, IOMMU_PT_INDEX(iova, 2)) : 0;
		if (pte_is_large(pte, 2)) {
			pte_set(table, IOMMU_PT_INDEX(iova, 2), 0);
			iova += IOMMU_LARGE_BYTES;
			continue;
		}
		table = table_for(iommu, iova, 1, false);
		if (table)
			pte_set(table, IOMMU_PT_INDEX(iova, 1), 0);
		iova += PAGE_SIZE;
	}
}

/*
 * Maps [@iova, @iova + @bytes) to [@phys, ...), both page aligned, with the
 * largest leaves that fit. Return: 0, or -ENOMEM (the run is then unmapped).
 */
static int map_run(struct sim_iommu *iommu, u64 iova, phys_addr_t phys,
		   u64 bytes, bool writable)
{
	u64 flags = IOMMU_PTE_PRESENT | (writable ? IOMMU_PTE_WRITE : 0);
	u64 done = 0, step;
	phys_addr_t table;
	unsigned int level;

	while (done < bytes) {
		level = fits_large(iommu, iova + done, phys + done,
				   bytes - done)
				? 2
				: 1;
		step = level == 2 ? IOMMU_LARGE_BYTES : PAGE_SIZE;
		table = table_for(iommu, iova + done, level, true);
		if (!table) {
			unmap_run(iommu, iova, done);
			return -ENOMEM;
		}
		pte_set(table, IOMMU_PT_INDEX(iova + done, level),
			(phys + done) | flags |
				(level == 2 ? IOMMU_PTE_LEAF : 0));
		done += step;
	}
	return 0;
}

/* ---- The I/O address space ------------------------------------------- */

static bool valid_levels(unsigned int levels)
{
	return levels >= IOMMU_MIN_LEVELS && levels <= IOMMU_MAX_LEVELS;
}

int sim_iommu_attach_tables(struct device *dev, u64 iova_base, u64 iova_size,
			    unsigned int levels, u64 max_page_bytes)
{
	struct sim_iommu *iommu;

	if (dev->sim_iommu)
		return -EBUSY;
	if (!iova_base || iova_base % PAGE_SIZE || !iova_size ||
	    iova_size % PAGE_SIZE || iova_base + iova_size < iova_base ||
	    !valid_levels(levels) ||
	    iova_base + iova_size > 1ull << IOMMU_IOVA_BITS(levels) ||
	    (max_page_bytes != PAGE_SIZE &&
	     max_page_bytes != IOMMU_LARGE_BYTES))
		return -EINVAL;
	iommu = calloc(1, sizeof(*iommu));
	if (!iommu)
		return -ENOMEM;
	iommu->root = table_alloc();
	if (!iommu->root) {
		free(iommu);
		return -ENOMEM;
	}
	iommu->base = iova_base;
	iommu->size = iova_size;
	iommu->levels = levels;
	iommu->max_page = max_page_bytes;
	dev->sim_iommu = iommu;
	return 0;
}

int sim_iommu_attach(struct device *dev, u64 iova_base, u64 iova_size)
{
	unsigned int levels = IOMMU_MIN_LEVELS;

	/* The fewest levels whose IOVA space holds the range. */
	while (levels < IOMMU_MAX_LEVELS && iova_base + iova_size > iova_base &&
	       iova_base + iova_size > 1ull << IOMMU_IOVA_BITS(levels))
		levels++;
	return sim_iommu_attach_tables(dev, iova_base, iova_size, levels,
				       PAGE_SIZE);
}

void sim_iommu_detach(struct device *dev)
{
	struct sim_iommu *iommu = dev->sim_iommu;

	if (!iommu)
		return;
	BUG_ON(iommu->ranges); /* a mapping is still live */
	table_free(iommu->root, iommu->levels);
	free(iommu);
	dev->sim_iommu = NULL;
}

phys_addr_t sim_iommu_root_table(struct device *dev)
{
	return dev->sim_iommu ? dev->sim_iommu->root : 0;
}

phys_addr_t sim_iommu_iova_to_phys(struct device *dev, dma_addr_t iova)
{
	struct sim_iommu *iommu = dev->sim_iommu;
	phys_addr_t table;
	unsigned int lvl;
	u64 pte;

	if (!iommu)
		return iova;
	if (iova >= 1ull << IOMMU_IOVA_BITS(iommu->levels))
		return 0;
	table = iommu->root;
	for (lvl = iommu->levels;; lvl--) {
		pte = pte_get(table, IOMMU_PT_INDEX(iova, lvl));
		if (!pte_present(pte))
			return 0;
		if (pte_is_large(pte, lvl))
			return pte_addr(pte) | (iova & (IOMMU_LARGE_BYTES - 1));
		if (lvl == 1)
			return pte_addr(pte) | (iova & ~PAGE_MASK);
		table = pte_addr(pte);
	}
}

/* Replaces the 2 MiB leaf @pte (entry @idx of level-2 table @l2) by a
 * level-1 table of the same 512 pages with the same permissions. */
static int split_large(phys_addr_t l2, unsigned int idx, u64 pte)
{
	u64 flags = pte & ~(IOMMU_PTE_ADDR_MASK | IOMMU_PTE_LEAF);
	phys_addr_t table = table_alloc();
	unsigned int i;

	if (!table)
		return -ENOMEM;
	for (i = 0; i < IOMMU_PT_ENTRIES; i++)
		pte_set(table, i, (pte_addr(pte) + (u64)i * PAGE_SIZE) | flags);
	pte_set(l2, idx, table | IOMMU_PTE_PRESENT);
	return 0;
}

int sim_iommu_revoke(struct device *dev, dma_addr_t iova)
{
	struct sim_iommu *iommu = dev->sim_iommu;
	phys_addr_t table;
	u64 pte;
	int ret;

	if (!iommu || !sim_iommu_iova_to_phys(dev, iova))
		return -ENOENT;
	table = table_for(iommu, iova, 2, false);
	pte = table ? pte_get(table, IOMMU_PT_INDEX(iova, 2)) : 0;
	if (pte_is_large(pte, 2)) {
		ret = split_large(table, IOMMU_PT_INDEX(iova, 2), pte);
		if (ret)
			return ret;
	}
	table = table_for(iommu, iova, 1, false);
	pte_set(table, IOMMU_PT_INDEX(iova, 1), 0);
	return 0;
}

/* ---- IOVA allocation and mapping ------------------------------------- */

static bool has_boundary(unsigned long mask)
{
	return mask != ~0UL;
}

static u64 round_up_to(u64 x, u64 align)
{
	return (x + align - 1) / align * align;
}

/*
 * Where an entry of @len bytes at page offset @off goes, given the layout
 * has used @pos bytes: start a new boundary window rather than straddle one.
 */
static u64 place_entry(u64 pos, unsigned int off, unsigned int len,
		       unsigned long boundary)
{
	if (has_boundary(boundary) &&
	    dma_crosses_boundary(pos + off, len, boundary))
		return round_up_to(pos, (u64)boundary + 1);
	return pos;
}

/* IOVA bytes the entries need, or -EINVAL if one can never be mapped. */
static s64 layout_size(struct device *dev, struct scatterlist *sgl, int nents)
{
	unsigned int max_seg = dma_get_max_seg_size(dev);
	unsigned long boundary = dma_get_seg_boundary(dev);
	struct scatterlist *sg;
	u64 pos = 0;
	int i;

	for_each_sg(sgl, sg, nents, i)
	{
		unsigned int off = offset_in_page(sg_phys(sg));

		if (sg->length > max_seg ||
		    (has_boundary(boundary) &&
		     (u64)off + sg->length > (u64)boundary + 1))
			return -EINVAL;
		pos = place_entry(pos, off, sg->length, boundary);
		pos += PAGE_ALIGN((u64)off + sg->length);
	}
	return (s64)pos;
}

/* First IOVA >= @start where @len bytes fit the boundary rules. */
static u64 fit_start(u64 start, u64 len, unsigned long boundary)
{
	if (!has_boundary(boundary))
		return start;
	/* Longer than a window: align it so relative layout = absolute. */
	if (len > (u64)boundary + 1 ||
	    dma_crosses_boundary(start, len, boundary))
		return round_up_to(start, (u64)boundary + 1);
	return start;
}

/* The first x >= @start with x = @phase (mod @align, a power of two). */
static u64 round_up_phase(u64 start, u64 align, u64 phase)
{
	u64 x = round_up_to(start, align) + phase;

	return x >= start + align ? x - align : x;
}

/*
 * Where a range's start must sit within a large page so that it maps the
 * page-aligned physical address @phys (its first page) with the same
 * offset: then IOVA and physical address agree modulo the large page all
 * along a physically contiguous run, and its aligned interior gets large
 * leaves. Always 0 in a 4 KiB domain.
 */
static u64 large_page_phase(struct sim_iommu *iommu, phys_addr_t phys)
{
	return phys & (iommu->max_page - 1) & PAGE_MASK;
}

/*
 * Where a range of @len bytes may start at or after @start: when it is at
 * least a large page long, at @phase within a large page (as Linux's
 * iommu-dma aligns IOVAs to the largest page a mapping can use), and
 * fitting the segment boundary. A range longer than a boundary window, or
 * whose phase would push it over one, starts window aligned instead (the
 * layout's relative boundary checks need that).
 */
static u64 range_start(struct sim_iommu *iommu, u64 start, u64 len,
		       unsigned long boundary, u64 phase)
{
	u64 window = (u64)boundary + 1, cand;

	if (len < iommu->max_page)
		return fit_start(start, len, boundary);
	if (has_boundary(boundary) && phase + len > window)
		return fit_start(round_up_to(start, iommu->max_page), len,
				 boundary);
	cand = round_up_phase(start, iommu->max_page, phase);
	if (dma_crosses_boundary(cand, len, boundary))
		cand = round_up_to(cand, window) + phase;
	return cand;
}

/*
 * Reserve @len bytes of IOVA space below @limit, placed as range_start()
 * says for @phase; 0 if none is free.
 */
static u64 iova_alloc(struct sim_iommu *iommu, u64 len, u64 limit,
		      unsigned long boundary, u64 phase)
{
	struct iova_range **link = &iommu->ranges, *r;
	u64 start = iommu->base, cand;

	for (;; link = &(*link)->next) {
		u64 gap_end = *link && (*link)->start < limit ? (*link)->start
							      : limit;

		cand = range_start(iommu, start, len, boundary, phase);
		if (cand >= start && cand <= gap_end && len <= gap_end - cand)
			break;
		if (!*link)
			return 0;
		start = (*link)->start + (*link)->len;
	}
	r = malloc(sizeof(*r));
	if (!r)
		return 0;
	r->start = cand;
	r->len = len;
	r->next = *link;
	*link = r;
	return r->start;
}

/* Forget the range starting at @start. Return: false if there is none. */
static bool iova_free(struct sim_iommu *iommu, u64 start)
{
	struct iova_range **link = &iommu->ranges, *r;

	while (*link && (*link)->start != start)
		link = &(*link)->next;
	if (!*link)
		return false;
	r = *link;
	unmap_run(iommu, r->start, r->len);
	*link = r->next;
	free(r);
	return true;
}

/* The device may write through a mapping made for @dir. */
static bool dir_writable(enum dma_data_direction dir)
{
	return dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL;
}

/* Pages mapped so far but not yet written into the tables. */
struct pending_run {
	u64 iova;
	phys_addr_t phys;
	u64 bytes;
};

/* Adds a page-aligned piece, writing the run out when it stops being
 * contiguous on both sides. Return: 0 or -ENOMEM. */
static int run_add(struct sim_iommu *iommu, struct pending_run *run, u64 iova,
		   phys_addr_t phys, u64 bytes, bool writable)
{
	int ret = 0;

	if (run->bytes && run->iova + run->bytes == iova &&
	    run->phys + run->bytes == phys) {
		run->bytes += bytes;
		return 0;
	}
	if (run->bytes)
		ret = map_run(iommu, run->iova, run->phys, run->bytes,
			      writable);
	run->iova = iova;
	run->phys = phys;
	run->bytes = bytes;
	return ret;
}

/*
 * Give each entry its IOVA, map its pages and write the merged DMA segments
 * into the list's first entries. Return: the segment count, or -ENOMEM.
 */
static int map_entries(struct device *dev, struct scatterlist *sgl, int nents,
		       u64 range, bool writable)
{
	unsigned int max_seg = dma_get_max_seg_size(dev);
	unsigned long boundary = dma_get_seg_boundary(dev);
	struct scatterlist *sg, *out = NULL;
	struct pending_run run = {0, 0, 0};
	u64 pos = 0;
	int i, count = 0;

	for_each_sg(sgl, sg, nents, i)
	{
		phys_addr_t phys = sg_phys(sg);
		unsigned int off = offset_in_page(phys);
		u64 iova;

		pos = place_entry(pos, off, sg->length, boundary);
		iova = range + pos + off;
		if (run_add(dev->sim_iommu, &run, range + pos, phys & PAGE_MASK,
			    PAGE_ALIGN((u64)off + sg->length), writable))
			return -ENOMEM;
		pos += PAGE_ALIGN((u64)off + sg->length);
		if (out && sg_dma_address(out) + sg_dma_len(out) == iova &&
		    (u64)sg_dma_len(out) + sg->length <= max_seg &&
		    !dma_crosses_boundary(sg_dma_address(out),
					  (u64)sg_dma_len(out) + sg->length,
					  boundary)) {
			sg_dma_len(out) += sg->length;
			continue;
		}
		out = out ? sg_next(out) : sgl;
		sg_dma_address(out) = iova;
		sg_dma_len(out) = sg->length;
		count++;
	}
	if (map_run(dev->sim_iommu, run.iova, run.phys, run.bytes, writable))
		return -ENOMEM;
	return count;
}

/* Entries past the DMA segments carry no mapping. */
static void clear_unused(struct scatterlist *sgl, int count, int nents)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i)
	{
		if (i < count)
			continue;
		sg_dma_address(sg) = DMA_MAPPING_ERROR;
		sg_dma_len(sg) = 0;
	}
}

/* The end of the IOVA space the device's DMA mask lets it reach. */
static u64 iova_limit(struct device *dev)
{
	struct sim_iommu *iommu = dev->sim_iommu;
	u64 mask = dma_get_mask(dev);
	u64 limit = iommu->base + iommu->size;

	return mask < limit - 1 ? mask + 1 : limit;
}

int iommu_map_sg(struct device *dev, struct scatterlist *sgl, int nents,
		 enum dma_data_direction dir)
{
	struct sim_iommu *iommu = dev->sim_iommu;
	s64 len = layout_size(dev, sgl, nents);
	u64 range;
	int count;

	if (len < 0)
		return (int)len;
	/* The first entry starts the layout: its page sets the phase. */
	range = iova_alloc(iommu, len ? (u64)len : PAGE_SIZE, iova_limit(dev),
			   dma_get_seg_boundary(dev),
			   nents ? large_page_phase(iommu, sg_phys(sgl)) : 0);
	if (!range)
		return -ENOMEM;
	count = map_entries(dev, sgl, nents, range, dir_writable(dir));
	if (count < 0) {
		iova_free(iommu, range);
		return count;
	}
	clear_unused(sgl, count, nents);
	return count;
}

dma_addr_t iommu_map_phys(struct device *dev, phys_addr_t phys, size_t size,
			  enum dma_data_direction dir)
{
	struct sim_iommu *iommu = dev->sim_iommu;
	u64 off = offset_in_page(phys);
	u64 len = PAGE_ALIGN(off + size);
	u64 range = iova_alloc(iommu, len, iova_limit(dev), ~0UL,
			       large_page_phase(iommu, phys));

	if (!range)
		return DMA_MAPPING_ERROR;
	if (map_run(iommu, range, phys & PAGE_MASK, len, dir_writable(dir))) {
		iova_free(iommu, range);
		return DMA_MAPPING_ERROR;
	}
	return range + off;
}

bool iommu_unmap(struct device *dev, dma_addr_t addr)
{
	return iova_free(dev->sim_iommu, addr & PAGE_MASK);
}
