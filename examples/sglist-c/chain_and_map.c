// SPDX-License-Identifier: MIT
/*
 * chain_and_map.c - the sglist library from an installed tree, as a plain C
 * user sees it: build two scatterlist arrays by hand, chain them, map the
 * list for a device and walk the DMA segments.
 *
 *	cc chain_and_map.c $(pkg-config --cflags --libs sglist)
 */
#include <sglist/dma-mapping.h>
#include <sglist/mm.h>
#include <sglist/scatterlist.h>
#include <stdio.h>

#define FIRST 4  /* entries in the first array, its last slot the link */
#define SECOND 3 /* entries in the second array */

int main(void) {
    struct scatterlist first[FIRST], second[SECOND], *sg;
    struct page* pages[FIRST - 1 + SECOND];
    unsigned int n = FIRST - 1 + SECOND, bytes = 0, expected = 0;
    int i;
    struct device dev;
    int mapped, ok;

    if (sim_mem_init(16UL << 20, SIM_MEM_SCATTERED, 1)) return 1;
    sim_device_init(&dev, "sglist-c-example");
    sg_init_table(first, FIRST);
    sg_init_table(second, SECOND);
    for (i = 0; i < (int)n; i++) {
        pages[i] = alloc_page(GFP_KERNEL);
        if (!pages[i]) return 1;
        /* Entry i covers 100 * (i + 1) bytes at offset 16 of its page. */
        sg_set_page(i < FIRST - 1 ? &first[i] : &second[i - FIRST + 1], pages[i], 100 * (i + 1),
                    16);
        expected += 100 * (i + 1);
    }
    sg_chain(first, FIRST, second);

    mapped = dma_map_sg(&dev, first, n, DMA_TO_DEVICE);
    for_each_sg(first, sg, mapped, i) bytes += sg_dma_len(sg);
    ok = mapped > 0 && bytes == expected && sg_is_chain(&first[FIRST - 1]);
    printf("sglist-c: %d mapped segments over a chained list, %u bytes%s\n", mapped, bytes,
           ok ? ", verified" : ", WRONG");

    dma_unmap_sg(&dev, first, n, DMA_TO_DEVICE);
    for (i = 0; i < (int)n; i++) __free_page(pages[i]);
    sim_mem_exit();
    return ok ? 0 : 1;
}
