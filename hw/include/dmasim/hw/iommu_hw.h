/* SPDX-License-Identifier: MIT */
/*
 * iommu_hw.h - the IOMMU's page-table format: what sglist's IOMMU layer
 * writes into simulated memory when it maps, and what the model's table
 * walker reads on an IOTLB miss. Registers are in dma_hw.h.
 *
 * A radix tree of 4 KiB tables of 512 little-endian 64-bit entries, like
 * x86-64 paging. With L levels (iommu.walk_levels, 2..5) an IOVA has
 * 12 + 9 x L bits; the root table is level L and its entry for an IOVA is
 * index IOMMU_PT_INDEX(iova, L). A level-1 entry maps a 4 KiB page; a
 * level-2 entry with IOMMU_PTE_LEAF maps a 2 MiB page (iova and physical
 * address both 2 MiB aligned). Every other present entry points to the
 * next lower table.
 */
#ifndef DMASIM_HW_IOMMU_HW_H
#define DMASIM_HW_IOMMU_HW_H

#include <stdint.h>

#define IOMMU_PT_ENTRIES    512u
#define IOMMU_PT_BYTES      4096u
#define IOMMU_MIN_LEVELS    2u
#define IOMMU_MAX_LEVELS    5u
#define IOMMU_PAGE_SHIFT    12u /* 4 KiB leaf at level 1 */
#define IOMMU_LARGE_SHIFT   21u /* 2 MiB leaf at level 2 */

#define IOMMU_PTE_PRESENT   0x0000000000000001ull /* entry is valid */
#define IOMMU_PTE_WRITE     0x0000000000000002ull /* leaf: the device may write */
#define IOMMU_PTE_LEAF      0x0000000000000080ull /* level 2: maps a 2 MiB page */
#define IOMMU_PTE_ADDR_MASK 0x000FFFFFFFFFF000ull /* next table or page frame */

/* Bits of IOVA that level `level` (1 = leaf tables) indexes. */
#define IOMMU_LEVEL_SHIFT(level) (IOMMU_PAGE_SHIFT + 9u * ((unsigned)(level) - 1u))
#define IOMMU_PT_INDEX(iova, level) \
	((unsigned)(((uint64_t)(iova) >> IOMMU_LEVEL_SHIFT(level)) & (IOMMU_PT_ENTRIES - 1u)))
/* Width of the IOVA space an L-level table tree covers. */
#define IOMMU_IOVA_BITS(levels) (IOMMU_PAGE_SHIFT + 9u * (unsigned)(levels))

#endif /* DMASIM_HW_IOMMU_HW_H */
