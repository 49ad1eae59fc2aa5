// dma_direct_test.cc - device DMA limits and direct mapping.
#include "support.h"

using sglist_dma = sgtest::SimMemTest;
using sgtest::pages_at;

namespace {}  // namespace

TEST(sglist_dma_plain, NewDeviceHasLinuxDefaultLimits) {
    device dev;
    sim_device_init(&dev, "d");
    EXPECT_EQ(dma_get_mask(&dev), DMA_BIT_MASK(32));
    EXPECT_EQ(dma_get_max_seg_size(&dev), 65536u);
    EXPECT_EQ(dma_get_seg_boundary(&dev), ~0ul);
    EXPECT_STREQ(dev.init_name, "d");
}

TEST(sglist_dma_plain, SettersChangeTheLimits) {
    device dev;
    sim_device_init(&dev, "d");
    EXPECT_EQ(dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(40)), 0);
    EXPECT_EQ(dma_set_max_seg_size(&dev, 1 << 20), 0);
    EXPECT_EQ(dma_set_seg_boundary(&dev, (1ul << 24) - 1), 0);
    EXPECT_EQ(dma_get_mask(&dev), DMA_BIT_MASK(40));
    EXPECT_EQ(dev.coherent_dma_mask, DMA_BIT_MASK(40));
    EXPECT_EQ(dma_get_max_seg_size(&dev), 1u << 20);
    EXPECT_EQ(dma_get_seg_boundary(&dev), (1ul << 24) - 1);
}

TEST(sglist_dma_plain, SetMaskRejectsAMaskBelowTwentyFourBits) {
    device dev;
    sim_device_init(&dev, "d");
    EXPECT_EQ(dma_set_mask(&dev, DMA_BIT_MASK(16)), -EIO);
    EXPECT_EQ(dma_get_mask(&dev), DMA_BIT_MASK(32));
}

TEST(sglist_dma_plain, SetSegBoundaryRejectsAMaskThatIsNotPowerOfTwoMinusOne) {
    device dev;
    sim_device_init(&dev, "d");
    EXPECT_EQ(dma_set_seg_boundary(&dev, 0x1233), -EINVAL);
}

TEST(sglist_dma_plain, DeviceWithoutDmaParmsRefusesSettersAndUsesDefaults) {
    device dev;
    sim_device_init(&dev, "d");
    dev.dma_parms = nullptr;
    EXPECT_EQ(dma_set_max_seg_size(&dev, 4096), -EIO);
    EXPECT_EQ(dma_set_seg_boundary(&dev, 0xffff), -EIO);
    EXPECT_EQ(dma_get_max_seg_size(&dev), SIM_DMA_DEFAULT_MAX_SEG_SIZE);
}

TEST(sglist_dma_plain, DeviceWithoutDmaMaskCannotSetOne) {
    device dev;
    sim_device_init(&dev, "d");
    dev.dma_mask = nullptr;
    EXPECT_EQ(dma_set_mask(&dev, DMA_BIT_MASK(32)), -EIO);
}

TEST_F(sglist_dma, DirectMappingUsesPhysicalAddresses) {
    device dev;
    sgtest::init_wide_device(&dev);
    sgtest::FramesTable t({100, 101, 300, 500}, 64);
    const int n = dma_map_sg(&dev, t.sgt.sgl, t.sgt.orig_nents, DMA_TO_DEVICE);
    EXPECT_EQ(n, static_cast<int>(t.sgt.orig_nents));
    scatterlist* sg;
    int i;
    for_each_sg(t.sgt.sgl, sg, n, i) {
        EXPECT_EQ(sg_dma_address(sg), sg_phys(sg));
        EXPECT_EQ(sg_dma_len(sg), sg->length);
    }
    dma_unmap_sg(&dev, t.sgt.sgl, t.sgt.orig_nents, DMA_TO_DEVICE);
}

TEST_F(sglist_dma, MapSgtableSetsNentsToTheSegmentCount) {
    device dev;
    sgtest::init_wide_device(&dev);
    sgtest::FramesTable t({10, 20, 30});
    t.sgt.nents = 0;
    EXPECT_EQ(dma_map_sgtable(&dev, &t.sgt, DMA_FROM_DEVICE, 0), 0);
    EXPECT_EQ(t.sgt.nents, 3u);
    dma_unmap_sgtable(&dev, &t.sgt, DMA_FROM_DEVICE, 0);
}

TEST_F(sglist_dma, SegmentLongerThanMaxSegmentSizeFailsTheMapping) {
    device dev;
    sgtest::init_wide_device(&dev);
    ASSERT_EQ(dma_set_max_seg_size(&dev, 2 * PAGE_SIZE), 0);
    sgtest::FramesTable t(sgtest::pfn_run(100, 3));  // one merged 3-page entry
    EXPECT_EQ(dma_map_sg(&dev, t.sgt.sgl, t.sgt.orig_nents, DMA_TO_DEVICE), 0);
    EXPECT_EQ(dma_map_sgtable(&dev, &t.sgt, DMA_TO_DEVICE, 0), -EINVAL);
}

TEST_F(sglist_dma, SegmentAtMaxSegmentSizeMaps) {
    device dev;
    sgtest::init_wide_device(&dev);
    ASSERT_EQ(dma_set_max_seg_size(&dev, 3 * PAGE_SIZE), 0);
    sgtest::FramesTable t(sgtest::pfn_run(100, 3));
    EXPECT_EQ(dma_map_sg(&dev, t.sgt.sgl, t.sgt.orig_nents, DMA_TO_DEVICE), 1);
    dma_unmap_sg(&dev, t.sgt.sgl, t.sgt.orig_nents, DMA_TO_DEVICE);
}

TEST_F(sglist_dma, SegmentCrossingTheBoundaryFailsTheMapping) {
    device dev;
    sgtest::init_wide_device(&dev);
    const unsigned long window = 16 * PAGE_SIZE;
    ASSERT_EQ(dma_set_seg_boundary(&dev, window - 1), 0);
    // Frames 15 and 16 straddle the 64 KiB line at frame 16.
    sgtest::FramesTable t({15, 16});
    EXPECT_EQ(dma_map_sgtable(&dev, &t.sgt, DMA_TO_DEVICE, 0), -EINVAL);
}

TEST_F(sglist_dma, SegmentEndingAtTheBoundaryMaps) {
    device dev;
    sgtest::init_wide_device(&dev);
    ASSERT_EQ(dma_set_seg_boundary(&dev, 16 * PAGE_SIZE - 1), 0);
    sgtest::FramesTable t({14, 15});
    EXPECT_EQ(dma_map_sgtable(&dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    dma_unmap_sgtable(&dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_dma, AddressBeyondTheDmaMaskFailsWithEio) {
    device dev;
    sgtest::init_wide_device(&dev);
    ASSERT_EQ(dma_set_mask(&dev, DMA_BIT_MASK(24)), 0);
    const unsigned long above = (1ul << 24) / PAGE_SIZE;  // first frame past 16 MiB
    sgtest::FramesTable t({above});
    EXPECT_EQ(dma_map_sg(&dev, t.sgt.sgl, t.sgt.orig_nents, DMA_TO_DEVICE), 0);
    EXPECT_EQ(dma_map_sgtable(&dev, &t.sgt, DMA_TO_DEVICE, 0), -EIO);
}

TEST_F(sglist_dma, MappingZeroEntriesFails) {
    device dev;
    sgtest::init_wide_device(&dev);
    sgtest::FramesTable t({10});
    EXPECT_EQ(dma_map_sg(&dev, t.sgt.sgl, 0, DMA_TO_DEVICE), 0);
}

TEST_F(sglist_dma, MappingErrorIsRecognised) {
    device dev;
    sgtest::init_wide_device(&dev);
    EXPECT_NE(dma_mapping_error(&dev, DMA_MAPPING_ERROR), 0);
    EXPECT_EQ(dma_mapping_error(&dev, 0x1000), 0);
}
