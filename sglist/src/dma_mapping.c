// SPDX-License-Identifier: MIT
/*
 * dma_mapping.c - device DMA limits, direct mapping, and the dispatch to
 * the IOMMU.
 */
#include "dma_internal.h"

#include <string.h>

void sim_device_init(struct device *dev, const char *name)
{
	memset(dev, 0, sizeof(*dev));
	dev->init_name = name;
	dev->sim_dma_mask = DMA_BIT_MASK(32);
	dev->dma_mask = &dev->sim_dma_mask;
	dev->coherent_dma_mask = DMA_BIT_MASK(32);
	dev->dma_parms = &dev->sim_dma_parms;
}

/* A mask must at least cover the 16 MiB a legacy DMA zone offers. */
static bool dma_supported(u64 mask)
{
	return mask >= DMA_BIT_MASK(24);
}

int dma_set_mask(struct device *dev, u64 mask)
{
	if (!dev->dma_mask || !dma_supported(mask))
		return -EIO;
	*dev->dma_mask = mask;
	return 0;
}

int dma_set_coherent_mask(struct device *dev, u64 mask)
{
	if (!dma_supported(mask))
		return -EIO;
	dev->coherent_dma_mask = mask;
	return 0;
}

int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	int ret = dma_set_mask(dev, mask);

	return ret ? ret : dma_set_coherent_mask(dev, mask);
}

int dma_set_max_seg_size(struct device *dev, unsigned int size)
{
	if (!dev->dma_parms)
		return -EIO;
	dev->dma_parms->max_segment_size = size;
	return 0;
}

int dma_set_seg_boundary(struct device *dev, unsigned long mask)
{
	if (!dev->dma_parms)
		return -EIO;
	if (mask & (mask + 1))
		return -EINVAL;
	dev->dma_parms->segment_boundary_mask = mask;
	return 0;
}

/* Bus address = physical address; each entry must suit the device. */
static int direct_map_sg(struct device *dev, struct scatterlist *sgl, int nents)
{
	unsigned int max_seg = dma_get_max_seg_size(dev);
	unsigned long boundary = dma_get_seg_boundary(dev);
	u64 mask = dma_get_mask(dev);
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i)
	{
		phys_addr_t phys = sg_phys(sg);

		if (sg->length > max_seg ||
		    dma_crosses_boundary(phys, sg->length, boundary))
			return -EINVAL;
		if (sg->length && (phys + sg->length - 1 > mask ||
				   phys + sg->length > sim_mem_size()))
			return -EIO;
		sg_dma_address(sg) = phys;
		sg_dma_len(sg) = sg->length;
	}
	return nents;
}

/* Map and return the DMA segment count, or -errno. */
static int map_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir)
{
	if (!dev->dma_mask || nents <= 0 || !sg)
		return -EINVAL;
	if (dev->sim_iommu)
		return iommu_map_sg(dev, sg, nents, dir);
	return direct_map_sg(dev, sg, nents);
}

int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
		     enum dma_data_direction dir, unsigned long attrs)
{
	int ret;

	(void)attrs;
	BUG_ON(!valid_dma_direction(dir));
	ret = map_sg(dev, sg, nents, dir);
	return ret > 0 ? ret : 0;
}

void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir, unsigned long attrs)
{
	(void)attrs;
	BUG_ON(!valid_dma_direction(dir));
	BUG_ON(nents <= 0);
	if (dev->sim_iommu) {
		/* The list must be one this device mapped and not yet unmapped.
		 */
		bool found = iommu_unmap(dev, sg_dma_address(sg));

		BUG_ON(!found);
	}
}

int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs)
{
	int ret;

	(void)attrs;
	BUG_ON(!valid_dma_direction(dir));
	if (sgt->orig_nents > INT_MAX)
		return -EINVAL;
	ret = map_sg(dev, sgt->sgl, (int)sgt->orig_nents, dir);
	if (ret < 0)
		return ret;
	sgt->nents = (unsigned int)ret;
	return 0;
}

void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
		       enum dma_data_direction dir, unsigned long attrs)
{
	dma_unmap_sg_attrs(dev, sgt->sgl, (int)sgt->orig_nents, dir, attrs);
}

dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset,
			size_t size, enum dma_data_direction dir)
{
	phys_addr_t phys = page_to_phys(page) + offset;

	BUG_ON(!valid_dma_direction(dir));
	if (!dev->dma_mask || !size)
		return DMA_MAPPING_ERROR;
	if (dev->sim_iommu)
		return iommu_map_phys(dev, phys, size, dir);
	if (phys + size - 1 > dma_get_mask(dev) || phys + size > sim_mem_size())
		return DMA_MAPPING_ERROR;
	return phys;
}

void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir)
{
	(void)size;
	BUG_ON(!valid_dma_direction(dir));
	if (dev->sim_iommu) {
		/* The address must be one this device mapped and not yet
		 * unmapped. */
		bool found = iommu_unmap(dev, addr);

		BUG_ON(!found);
	}
}
