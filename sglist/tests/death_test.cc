// death_test.cc - API misuse trips BUG_ON with the function's name.
// Only debug builds keep the checks, so release builds skip this file.
#ifndef NDEBUG

#include "support.h"

using sglist_DeathTest = sgtest::SimMemTest;

TEST_F(sglist_DeathTest, ChainingIntoASlotThatIsNotTheLastDies) {
    scatterlist a[4], b[2];
    sg_init_table(a, 4);
    sg_init_table(b, 2);
    EXPECT_DEATH(sg_chain(a, 3, b), "BUG: sg_chain");
}

TEST_F(sglist_DeathTest, PagePointerNotFourByteAlignedDies) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    page* odd = reinterpret_cast<page*>(reinterpret_cast<char*>(pfn_to_page(5)) + 1);
    EXPECT_DEATH(sg_set_page(&sg, odd, 10, 0), "BUG: sg_assign_page");
}

TEST_F(sglist_DeathTest, SetBufOutsideSimulatedMemoryDies) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    static char host_buffer[64];
    EXPECT_DEATH(sg_set_buf(&sg, host_buffer, sizeof(host_buffer)), "BUG: sg_set_buf");
}

TEST_F(sglist_DeathTest, SetBufRunningPastTheEndOfRamDies) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    const char* last = static_cast<const char*>(sim_mem_base()) + sim_mem_size() - 10;
    EXPECT_DEATH(sg_set_buf(&sg, last, 11), "BUG: sg_set_buf");
}

TEST_F(sglist_DeathTest, LengthThatOverflowsTheOffsetDies) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    EXPECT_DEATH(sg_set_page(&sg, pfn_to_page(5), 100, UINT_MAX - 10), "BUG: sg_set_page");
}

TEST_F(sglist_DeathTest, AssigningAPageToAChainLinkDies) {
    scatterlist a[2], b[1];
    sg_init_table(a, 2);
    sg_init_table(b, 1);
    sg_chain(a, 2, b);
    EXPECT_DEATH(sg_assign_page(&a[1], pfn_to_page(5)), "BUG: sg_assign_page");
}

TEST_F(sglist_DeathTest, PageOfAChainLinkDies) {
    scatterlist a[2], b[1];
    sg_init_table(a, 2);
    sg_init_table(b, 1);
    sg_chain(a, 2, b);
    EXPECT_DEATH(sg_page(&a[1]), "BUG: sg_page");
}

TEST_F(sglist_DeathTest, InitTableOfZeroEntriesDies) {
    scatterlist sg;
    EXPECT_DEATH(sg_init_table(&sg, 0), "BUG: sg_init_table");
}

TEST_F(sglist_DeathTest, FreeingAPageTwiceDies) {
    page* p = alloc_page(GFP_KERNEL);
    __free_page(p);
    EXPECT_DEATH(__free_page(p), "BUG: __free_pages");
}

TEST_F(sglist_DeathTest, KfreeOfAPointerKmallocDidNotReturnDies) {
    page* p = alloc_page(GFP_KERNEL);
    EXPECT_DEATH(kfree(page_address(p)), "BUG: kfree");
    __free_page(p);
}

TEST_F(sglist_DeathTest, VirtToPhysOutsideRamDies) {
    int on_stack = 0;
    EXPECT_DEATH(virt_to_phys(&on_stack), "BUG: virt_to_phys");
}

TEST_F(sglist_DeathTest, MiterConsumingMoreThanMappedDies) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_set_page(&sg, pfn_to_page(5), 100, 0);
    sg_mapping_iter m;
    sg_miter_start(&m, &sg, 1, SG_MITER_FROM_SG);
    ASSERT_TRUE(sg_miter_next(&m));
    m.consumed = m.length + 1;
    EXPECT_DEATH(sg_miter_stop(&m), "BUG: sg_miter_stop");
}

TEST_F(sglist_DeathTest, AppendThatUnderCountedLeftPagesDies) {
    // The first call announces 1 more page but 3 separate ones follow, so
    // a small first array would need chaining, which breaks freeing.
    std::vector<page*> pages = sgtest::pages_at({100, 200, 300, 400});
    sg_append_table a = {};
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, pages.data(), 1, 0, PAGE_SIZE, UINT_MAX, 1,
                                               GFP_KERNEL),
              0);
    EXPECT_DEATH(sg_alloc_append_table_from_pages(&a, pages.data() + 1, 3, 0, 3 * PAGE_SIZE,
                                                  UINT_MAX, 0, GFP_KERNEL),
                 "BUG: get_next_sg");
    sg_free_append_table(&a);
}

TEST_F(sglist_DeathTest, MappingWithAnInvalidDirectionDies) {
    device dev;
    sgtest::init_wide_device(&dev);
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_set_page(&sg, pfn_to_page(5), 100, 0);
    EXPECT_DEATH(dma_map_sg(&dev, &sg, 1, DMA_NONE), "BUG: dma_map_sg_attrs");
}

TEST_F(sglist_DeathTest, UnmappingAListTheIommuDidNotMapDies) {
    device dev;
    sgtest::init_wide_device(&dev);
    ASSERT_EQ(sim_iommu_attach(&dev, 1ull << 32, 1ull << 20), 0);
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_dma_address(&sg) = (1ull << 32) + PAGE_SIZE;
    EXPECT_DEATH(dma_unmap_sg(&dev, &sg, 1, DMA_TO_DEVICE), "BUG: dma_unmap_sg_attrs");
    sim_iommu_detach(&dev);
}

TEST_F(sglist_DeathTest, DetachingWithALiveMappingDies) {
    device dev;
    sgtest::init_wide_device(&dev);
    ASSERT_EQ(sim_iommu_attach(&dev, 1ull << 32, 1ull << 20), 0);
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_set_page(&sg, pfn_to_page(5), 100, 0);
    ASSERT_EQ(dma_map_sg(&dev, &sg, 1, DMA_TO_DEVICE), 1);
    EXPECT_DEATH(sim_iommu_detach(&dev), "BUG: sim_iommu_detach");
    dma_unmap_sg(&dev, &sg, 1, DMA_TO_DEVICE);
    sim_iommu_detach(&dev);
}

#endif  // NDEBUG
