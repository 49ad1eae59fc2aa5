/* SPDX-License-Identifier: MIT */
/*
 * dma-mapping.h - streaming DMA mapping of scatterlists for a device.
 *
 * Direct mode (the default): the bus address of a byte is its physical
 * address. IOMMU mode (after sim_iommu_attach()): each mapping takes one
 * contiguous range of I/O virtual addresses, so physically scattered
 * entries can merge into fewer, longer DMA segments, and its pages are
 * entered in page tables in simulated memory (<dmasim/hw/iommu_hw.h>)
 * that a modelled IOMMU walks. Both modes honour the device's DMA mask,
 * maximum segment size and segment boundary.
 * Simulated RAM is coherent: there is nothing to sync.
 */
#ifndef SGLIST_DMA_MAPPING_H
#define SGLIST_DMA_MAPPING_H

#include <sglist/scatterlist.h>

#ifdef __cplusplus
extern "C" {
#endif

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

static inline bool valid_dma_direction(enum dma_data_direction dir)
{
	return dir == DMA_BIDIRECTIONAL || dir == DMA_TO_DEVICE ||
	       dir == DMA_FROM_DEVICE;
}

#define DMA_BIT_MASK(n) (((n) >= 64) ? ~0ULL : ((1ULL << (n)) - 1))
#define DMA_MAPPING_ERROR (~(dma_addr_t)0)

/* Linux's default limits for a device that sets none. */
#define SIM_DMA_DEFAULT_MAX_SEG_SIZE 0x10000u
#define SIM_DMA_DEFAULT_SEG_BOUNDARY (~0UL)

struct device_dma_parameters {
	unsigned int max_segment_size;	     /* 0: the 64 KiB default */
	unsigned long segment_boundary_mask; /* 0: no boundary */
};

struct sim_iommu;

struct device {
	const char *init_name;
	u64 *dma_mask; /* NULL: the device cannot DMA */
	u64 coherent_dma_mask;
	struct device_dma_parameters *dma_parms;
	/* Simulator-only: what the pointers above point at, and the IOMMU. */
	u64 sim_dma_mask;
	struct device_dma_parameters sim_dma_parms;
	struct sim_iommu *sim_iommu;
};

/**
 * sim_device_init - set up a DMA-capable device in direct mode
 * @dev: the device
 * @name: its name, for messages
 *
 * Like a platform device: 32-bit DMA mask, 64 KiB maximum segment, no
 * segment boundary.
 */
void sim_device_init(struct device *dev, const char *name);

/**
 * dma_set_mask - set the addresses the device can reach
 * @dev: the device
 * @mask: DMA_BIT_MASK(bits), at least 24 bits
 *
 * Return: 0, or -EIO if the device has no mask or @mask is too small.
 */
int dma_set_mask(struct device *dev, u64 mask);
int dma_set_coherent_mask(struct device *dev, u64 mask);
int dma_set_mask_and_coherent(struct device *dev, u64 mask);

static inline u64 dma_get_mask(struct device *dev)
{
	return dev->dma_mask && *dev->dma_mask ? *dev->dma_mask
					       : DMA_BIT_MASK(32);
}

/**
 * dma_set_max_seg_size - longest DMA segment the device accepts
 * @dev: the device
 * @size: bytes
 *
 * Return: 0, or -EIO if the device has no dma_parms.
 */
int dma_set_max_seg_size(struct device *dev, unsigned int size);

/* Inline, as in Linux: direct mapping and the IOMMU both ask. */
static inline unsigned int dma_get_max_seg_size(struct device *dev)
{
	if (dev->dma_parms && dev->dma_parms->max_segment_size)
		return dev->dma_parms->max_segment_size;
	return SIM_DMA_DEFAULT_MAX_SEG_SIZE;
}

/**
 * dma_set_seg_boundary - address boundary no DMA segment may cross
 * @dev: the device
 * @mask: boundary - 1, with boundary a power of two (~0UL: none)
 *
 * Return: 0, -EIO if the device has no dma_parms, -EINVAL if @mask + 1 is
 * not a power of two.
 */
int dma_set_seg_boundary(struct device *dev, unsigned long mask);
static inline unsigned long dma_get_seg_boundary(struct device *dev)
{
	if (dev->dma_parms && dev->dma_parms->segment_boundary_mask)
		return dev->dma_parms->segment_boundary_mask;
	return SIM_DMA_DEFAULT_SEG_BOUNDARY;
}

/**
 * dma_map_sg_attrs - map a list for DMA by @dev
 * @dev: the device
 * @sg: the list
 * @nents: entries to map
 * @dir: transfer direction
 * @attrs: DMA_ATTR_* flags (accepted, none changes anything)
 *
 * Fills sg_dma_address()/sg_dma_len() of the first entries. An entry that
 * is longer than the maximum segment, crosses the segment boundary or lies
 * beyond the DMA mask fails the whole mapping.
 * Return: the number of DMA segments (fewer than @nents when an IOMMU
 * merged entries), or 0 on failure.
 */
int dma_map_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
		     enum dma_data_direction dir, unsigned long attrs);

/**
 * dma_unmap_sg_attrs - undo dma_map_sg_attrs()
 * @dev: the device
 * @sg: the list
 * @nents: the @nents passed to the map call (not its return value)
 * @dir: the direction passed to the map call
 * @attrs: DMA_ATTR_* flags
 */
void dma_unmap_sg_attrs(struct device *dev, struct scatterlist *sg, int nents,
			enum dma_data_direction dir, unsigned long attrs);

#define dma_map_sg(d, s, n, r) dma_map_sg_attrs(d, s, n, r, 0)
#define dma_unmap_sg(d, s, n, r) dma_unmap_sg_attrs(d, s, n, r, 0)

/**
 * dma_map_sgtable - map a table's orig_nents entries for DMA
 * @dev: the device
 * @sgt: the table; nents is set to the DMA segment count
 * @dir: transfer direction
 * @attrs: DMA_ATTR_* flags
 *
 * Return: 0, -EINVAL (bad list, segment too long or crossing a boundary),
 * -EIO (address beyond the DMA mask or RAM) or -ENOMEM (IOVA space full).
 */
int dma_map_sgtable(struct device *dev, struct sg_table *sgt,
		    enum dma_data_direction dir, unsigned long attrs);

/** dma_unmap_sgtable - undo dma_map_sgtable() */
void dma_unmap_sgtable(struct device *dev, struct sg_table *sgt,
		       enum dma_data_direction dir, unsigned long attrs);

/**
 * dma_map_page - map one physically contiguous buffer for DMA by @dev
 * @dev: the device
 * @page: first page frame of the buffer
 * @offset: byte offset of the buffer in @page
 * @size: bytes, at least 1
 * @dir: transfer direction (DMA_BIDIRECTIONAL for descriptors the device
 *	reads and writes back)
 *
 * Return: the bus address of the buffer, or DMA_MAPPING_ERROR (beyond the
 * DMA mask or RAM, IOVA space full, no memory for page tables).
 */
dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset,
			size_t size, enum dma_data_direction dir);

/**
 * dma_unmap_page - undo dma_map_page()
 * @dev: the device
 * @addr: the address dma_map_page() returned
 * @size: the size passed to it
 * @dir: the direction passed to it
 */
void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir);

static inline int dma_mapping_error(struct device *dev, dma_addr_t dma_addr)
{
	(void)dev;
	return dma_addr == DMA_MAPPING_ERROR ? -ENOMEM : 0;
}

/**
 * sim_iommu_attach_tables - put @dev behind an IOMMU with its own I/O
 * address space and page tables
 * @dev: the device (no live mappings)
 * @iova_base: first I/O virtual address, page aligned and not 0
 * @iova_size: size of the space, a page multiple
 * @levels: page-table levels, IOMMU_MIN_LEVELS..IOMMU_MAX_LEVELS; the
 *	space must end within IOMMU_IOVA_BITS(@levels) bits
 * @max_page_bytes: largest leaf, PAGE_SIZE or 2 MiB (2 MiB leaves map
 *	runs that are 2 MiB aligned in IOVA and physical space)
 *
 * Allocates the root table frame from simulated RAM
 * (sim_iommu_root_table()); mappings add the lower tables they need.
 *
 * Return: 0, -EINVAL for a bad range, level count or page size, -EBUSY if
 * already attached, -ENOMEM.
 */
int sim_iommu_attach_tables(struct device *dev, u64 iova_base, u64 iova_size,
			    unsigned int levels, u64 max_page_bytes);

/**
 * sim_iommu_attach - sim_iommu_attach_tables() with 4 KiB leaves and the
 * fewest levels that cover [@iova_base, @iova_base + @iova_size)
 *
 * Return: as sim_iommu_attach_tables().
 */
int sim_iommu_attach(struct device *dev, u64 iova_base, u64 iova_size);

/**
 * sim_iommu_detach - back to direct mode, freeing every page-table frame;
 * every mapping must be unmapped
 */
void sim_iommu_detach(struct device *dev);

/**
 * sim_iommu_root_table - physical address of the device's root page table
 * (what the IOMMU's root register holds), or 0 in direct mode
 */
phys_addr_t sim_iommu_root_table(struct device *dev);

/**
 * sim_iommu_revoke - take one page's translation away behind the mapping's
 * back, as a driver that unmapped too early would (fault-injection tests)
 * @dev: a device behind an IOMMU
 * @iova: any byte of a mapped page
 *
 * A 2 MiB leaf is split into 4 KiB leaves first, so only the 4 KiB page
 * holding @iova stops translating. The mapping stays live: unmap it as
 * usual. The caller must invalidate the IOTLB.
 *
 * Return: 0, -ENOENT if @iova is not mapped, -ENOMEM if the split finds
 * no RAM for a table.
 */
int sim_iommu_revoke(struct device *dev, dma_addr_t iova);

/**
 * sim_iommu_iova_to_phys - translate as the IOMMU would for the device
 * @dev: the device
 * @iova: an I/O virtual address
 *
 * Walks the page tables in simulated memory, as the hardware does.
 * Return: the physical address, or 0 if @iova is not mapped (physical
 * address 0 is never a buffer). In direct mode @iova itself.
 */
phys_addr_t sim_iommu_iova_to_phys(struct device *dev, dma_addr_t iova);

#ifdef __cplusplus
}
#endif

#endif /* SGLIST_DMA_MAPPING_H */
