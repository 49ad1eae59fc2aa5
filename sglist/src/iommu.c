// SPDX-License-Identifier: MIT
/*
 * iommu.c - a simulated IOMMU: one I/O virtual address space per device.
 *
 * dma_map_sg() lays the entries out back to back in one IOVA range, each
 * keeping its offset within its page, and maps their pages there. Entries
 * that end and start on a page boundary become contiguous in IOVA space
 * and merge into one DMA segment, up to the device's maximum segment size
 * and never across its segment boundary. The IOMMU's own bookkeeping is
 * host memory: it models a translation, not RAM the driver owns.
 */
#include "dma_internal.h"

#include <stdlib.h>
#include <string.h>

struct iova_range {
	u64 start;
	u64 len;
	struct iova_range *next; /* sorted by start */
};

struct sim_iommu {
	u64 base;
	u64 size;
	u64 *pfn;		   /* per IOVA page: mapped pfn, 0 = none */
	struct iova_range *ranges; /* live mappings */
};

int sim_iommu_attach(struct device *dev, u64 iova_base, u64 iova_size)
{
	struct sim_iommu *iommu;

	if (dev->sim_iommu)
		return -EBUSY;
	if (!iova_base || iova_base % PAGE_SIZE || !iova_size ||
	    iova_size % PAGE_SIZE || iova_base + iova_size < iova_base)
		return -EINVAL;
	iommu = calloc(1, sizeof(*iommu));
	if (!iommu)
		return -ENOMEM;
	iommu->pfn = calloc(iova_size >> PAGE_SHIFT, sizeof(u64));
	if (!iommu->pfn) {
		free(iommu);
		return -ENOMEM;
	}
	iommu->base = iova_base;
	iommu->size = iova_size;
	dev->sim_iommu = iommu;
	return 0;
}

void sim_iommu_detach(struct device *dev)
{
	struct sim_iommu *iommu = dev->sim_iommu;

	if (!iommu)
		return;
	BUG_ON(iommu->ranges); /* a mapping is still live */
	free(iommu->pfn);
	free(iommu);
	dev->sim_iommu = NULL;
}

phys_addr_t sim_iommu_iova_to_phys(struct device *dev, dma_addr_t iova)
{
	struct sim_iommu *iommu = dev->sim_iommu;
	u64 pfn;

	if (!iommu)
		return iova;
	if (iova < iommu->base || iova - iommu->base >= iommu->size)
		return 0;
	pfn = iommu->pfn[(iova - iommu->base) >> PAGE_SHIFT];
	return pfn ? (pfn << PAGE_SHIFT) | (iova & ~PAGE_MASK) : 0;
}

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

/* Reserve @len bytes of IOVA space below @limit; 0 if none is free. */
static u64 iova_alloc(struct sim_iommu *iommu, u64 len, u64 limit,
		      unsigned long boundary)
{
	struct iova_range **link = &iommu->ranges, *r;
	u64 start = iommu->base;

	for (;; link = &(*link)->next) {
		u64 gap_end = *link && (*link)->start < limit ? (*link)->start
							      : limit;
		u64 cand = fit_start(start, len, boundary);

		if (cand >= start && cand <= gap_end && len <= gap_end - cand)
			break;
		if (!*link)
			return 0;
		start = (*link)->start + (*link)->len;
	}
	r = malloc(sizeof(*r));
	if (!r)
		return 0;
	r->start = fit_start(start, len, boundary);
	r->len = len;
	r->next = *link;
	*link = r;
	return r->start;
}

static void map_pages(struct sim_iommu *iommu, u64 iova, phys_addr_t phys,
		      u64 bytes)
{
	u64 idx = (iova - iommu->base) >> PAGE_SHIFT;
	u64 pfn = phys >> PAGE_SHIFT;
	u64 n;

	for (n = 0; n < bytes >> PAGE_SHIFT; n++)
		iommu->pfn[idx + n] = pfn + n;
}

static void unmap_pages(struct sim_iommu *iommu, u64 iova, u64 bytes)
{
	u64 idx = (iova - iommu->base) >> PAGE_SHIFT;

	memset(&iommu->pfn[idx], 0, (bytes >> PAGE_SHIFT) * sizeof(u64));
}

/*
 * Give each entry its IOVA and write the merged DMA segments into the
 * list's first entries. Return: the segment count.
 */
static int map_entries(struct device *dev, struct scatterlist *sgl, int nents,
		       u64 range)
{
	unsigned int max_seg = dma_get_max_seg_size(dev);
	unsigned long boundary = dma_get_seg_boundary(dev);
	struct scatterlist *sg, *out = NULL;
	u64 pos = 0;
	int i, count = 0;

	for_each_sg(sgl, sg, nents, i)
	{
		phys_addr_t phys = sg_phys(sg);
		unsigned int off = offset_in_page(phys);
		u64 iova;

		pos = place_entry(pos, off, sg->length, boundary);
		iova = range + pos + off;
		map_pages(dev->sim_iommu, range + pos, phys & PAGE_MASK,
			  PAGE_ALIGN((u64)off + sg->length));
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

int iommu_map_sg(struct device *dev, struct scatterlist *sgl, int nents)
{
	struct sim_iommu *iommu = dev->sim_iommu;
	u64 mask = dma_get_mask(dev);
	u64 limit = iommu->base + iommu->size;
	s64 len = layout_size(dev, sgl, nents);
	u64 range;
	int count;

	if (len < 0)
		return (int)len;
	if (mask < limit - 1)
		limit = mask + 1;
	range = iova_alloc(iommu, len ? (u64)len : PAGE_SIZE, limit,
			   dma_get_seg_boundary(dev));
	if (!range)
		return -ENOMEM;
	count = map_entries(dev, sgl, nents, range);
	clear_unused(sgl, count, nents);
	return count;
}

bool iommu_unmap_sg(struct device *dev, struct scatterlist *sg)
{
	struct sim_iommu *iommu = dev->sim_iommu;
	u64 start = sg_dma_address(sg) & PAGE_MASK;
	struct iova_range **link = &iommu->ranges, *r;

	while (*link && (*link)->start != start)
		link = &(*link)->next;
	if (!*link)
		return false;
	r = *link;
	unmap_pages(iommu, r->start, r->len);
	*link = r->next;
	free(r);
	return true;
}
