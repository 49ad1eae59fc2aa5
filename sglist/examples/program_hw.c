// SPDX-License-Identifier: MIT
/*
 * program_hw.c - the classic driver loop over a mapped scatterlist.
 *
 * A "user buffer" of scattered pages is described by a chained sg_table,
 * mapped for a device, and each DMA segment is handed to the hardware:
 *
 *	for_each_sg(list, sgentry, nentries, i)
 *		program_hw(dev, sg_dma_address(sgentry), sg_dma_len(sgentry));
 *
 * The "hardware" here reads each segment by bus address into its own
 * FIFO; the program then checks the FIFO holds the user data in order.
 */
#include <sglist/dma-mapping.h>
#include <sglist/mm.h>
#include <sglist/scatterlist.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAM_BYTES (64UL << 20)
#define BUF_PAGES 160 /* more than one sg array: the list chains */

struct fake_hw {
	unsigned char *fifo; /* what the device has received */
	size_t received;
	unsigned int segments;
};

/* The device fetches @len bytes at bus address @addr (direct mapping). */
static void program_hw(struct fake_hw *hw, dma_addr_t addr, unsigned int len)
{
	printf("  segment %3u: bus 0x%09llx, %5u bytes\n", hw->segments,
	       (unsigned long long)addr, len);
	memcpy(hw->fifo + hw->received, phys_to_virt(addr), len);
	hw->received += len;
	hw->segments++;
}

/* Scattered pages filled with a byte pattern, as a user buffer. */
static int make_user_pages(struct page **pages, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i]) {
			fprintf(stderr, "%s\n", sim_mem_last_error());
			return -ENOMEM;
		}
		memset(page_address(pages[i]), (int)(i * 7 + 1), PAGE_SIZE);
	}
	return 0;
}

static bool fifo_matches(const struct fake_hw *hw, struct page **pages,
			 unsigned int n)
{
	unsigned int i;

	if (hw->received != (size_t)n * PAGE_SIZE)
		return false;
	for (i = 0; i < n; i++)
		if (memcmp(hw->fifo + (size_t)i * PAGE_SIZE,
			   page_address(pages[i]), PAGE_SIZE))
			return false;
	return true;
}

static int run(struct page **pages, struct fake_hw *hw)
{
	struct scatterlist *sgentry;
	struct sg_table sgt;
	struct device dev;
	int nentries, i, ret;

	sim_device_init(&dev, "example-dma");
	ret = make_user_pages(pages, BUF_PAGES);
	if (ret)
		return ret;
	ret = sg_alloc_table_from_pages(&sgt, pages, BUF_PAGES, 0,
					(unsigned long)BUF_PAGES * PAGE_SIZE,
					GFP_KERNEL);
	if (ret)
		return ret;
	nentries = dma_map_sg(&dev, sgt.sgl, sgt.orig_nents, DMA_TO_DEVICE);
	if (!nentries) {
		sg_free_table(&sgt);
		return -EIO;
	}
	for_each_sg(sgt.sgl, sgentry, nentries, i)
		program_hw(hw, sg_dma_address(sgentry), sg_dma_len(sgentry));
	dma_unmap_sg(&dev, sgt.sgl, sgt.orig_nents, DMA_TO_DEVICE);
	sg_free_table(&sgt);
	return 0;
}

static void free_user_pages(struct page **pages, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (pages[i])
			__free_page(pages[i]);
}

int main(void)
{
	static struct page *pages[BUF_PAGES];
	struct fake_hw hw = {0};
	bool ok;
	int ret;

	if (sim_mem_init(RAM_BYTES, SIM_MEM_SCATTERED, 42))
		return 1;
	hw.fifo = malloc((size_t)BUF_PAGES * PAGE_SIZE);
	ret = hw.fifo ? run(pages, &hw) : -ENOMEM;
	ok = !ret && fifo_matches(&hw, pages, BUF_PAGES);
	free_user_pages(pages, BUF_PAGES);
	/* Everything the driver allocated must be back. */
	ok = ok && sim_mem_pages_in_use() == 0;
	if (ok)
		printf("program_hw: %u segments, %zu bytes, data verified\n",
		       hw.segments, hw.received);
	else
		printf("program_hw: FAILED (%d)\n", ret);
	free(hw.fifo);
	sim_mem_exit();
	return ok ? 0 : 1;
}
