/* SPDX-License-Identifier: MIT */
/*
 * dma_internal.h - what direct mapping and the IOMMU share privately.
 */
#ifndef SGLIST_DMA_INTERNAL_H
#define SGLIST_DMA_INTERNAL_H

#include <sglist/dma-mapping.h>

/* True if [@addr, @addr + @len) crosses a (@mask + 1)-aligned boundary. */
static inline bool dma_crosses_boundary(u64 addr, u64 len, unsigned long mask)
{
	return len && ((addr ^ (addr + len - 1)) & ~(u64)mask);
}

/* Map @nents entries through the IOMMU. Return: DMA segments or -errno. */
int iommu_map_sg(struct device *dev, struct scatterlist *sg, int nents,
		 enum dma_data_direction dir);
/* Map one physically contiguous buffer. Return: its IOVA or
 * DMA_MAPPING_ERROR. */
dma_addr_t iommu_map_phys(struct device *dev, phys_addr_t phys, size_t size,
			  enum dma_data_direction dir);
/* Unmap a mapping by its first DMA address. Return: false if not mapped. */
bool iommu_unmap(struct device *dev, dma_addr_t addr);

#endif /* SGLIST_DMA_INTERNAL_H */
