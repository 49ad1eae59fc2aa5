// dma_iommu_test.cc - the simulated IOMMU: merging into one IOVA range.
#include "support.h"

using sglist_iommu = sgtest::SimMemTest;
using sgtest::pages_at;

namespace {

constexpr u64 kIovaBase = 1ull << 32;
constexpr u64 kIovaSize = 1ull << 30;

class IommuDevice {
public:
    IommuDevice() {
        sgtest::init_wide_device(&dev);
        EXPECT_EQ(sim_iommu_attach(&dev, kIovaBase, kIovaSize), 0);
    }
    ~IommuDevice() { sim_iommu_detach(&dev); }
    device dev;
};

std::vector<unsigned> dma_lengths(sg_table* t) {
    std::vector<unsigned> out;
    scatterlist* sg;
    unsigned i;
    for_each_sgtable_dma_sg(t, sg, i) out.push_back(sg_dma_len(sg));
    return out;
}

}  // namespace

TEST(sglist_iommu_plain, AttachRejectsBadRanges) {
    device dev;
    sim_device_init(&dev, "d");
    EXPECT_EQ(sim_iommu_attach(&dev, 0, kIovaSize), -EINVAL);
    EXPECT_EQ(sim_iommu_attach(&dev, kIovaBase + 1, kIovaSize), -EINVAL);
    EXPECT_EQ(sim_iommu_attach(&dev, kIovaBase, 0), -EINVAL);
    EXPECT_EQ(sim_iommu_attach(&dev, kIovaBase, PAGE_SIZE + 1), -EINVAL);
    EXPECT_EQ(sim_iommu_attach(&dev, ~0ull & PAGE_MASK, 2 * PAGE_SIZE), -EINVAL);  // wraps
}

// Attaching allocates the root table from simulated RAM, hence the fixture.
TEST_F(sglist_iommu, AttachTwiceIsBusy) {
    device dev;
    sim_device_init(&dev, "d");
    ASSERT_EQ(sim_iommu_attach(&dev, kIovaBase, kIovaSize), 0);
    EXPECT_EQ(sim_iommu_attach(&dev, kIovaBase, kIovaSize), -EBUSY);
    sim_iommu_detach(&dev);
}

TEST_F(sglist_iommu, ScatteredFullPagesMergeIntoOneSegment) {
    IommuDevice d;
    const unsigned n = 8;
    sgtest::FramesTable t(sgtest::gapped_pfns(n));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    EXPECT_EQ(t.sgt.nents, 1u);
    EXPECT_EQ(dma_lengths(&t.sgt), (std::vector<unsigned>{n * PAGE_SIZE}));
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu, MapSgReturnsFewerSegmentsThanNents) {
    IommuDevice d;
    sgtest::FramesTable t(sgtest::gapped_pfns(5));
    EXPECT_EQ(dma_map_sg(&d.dev, t.sgt.sgl, t.sgt.orig_nents, DMA_TO_DEVICE), 1);
    dma_unmap_sg(&d.dev, t.sgt.sgl, t.sgt.orig_nents, DMA_TO_DEVICE);
}

TEST_F(sglist_iommu, EntriesPastTheSegmentsCarryNoMapping) {
    IommuDevice d;
    sgtest::FramesTable t(sgtest::gapped_pfns(4));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    auto entries = sgtest::entries_of(t.sgt.sgl);
    for (size_t i = t.sgt.nents; i < entries.size(); i++) {
        EXPECT_EQ(sg_dma_address(entries[i]), DMA_MAPPING_ERROR);
        EXPECT_EQ(sg_dma_len(entries[i]), 0u);
    }
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu, IovaTranslatesBackToEachEntrysPages) {
    IommuDevice d;
    const auto pfns = sgtest::gapped_pfns(6);
    sgtest::FramesTable t(pfns);
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    const dma_addr_t iova = sg_dma_address(t.sgt.sgl);
    EXPECT_GE(iova, kIovaBase);
    for (size_t i = 0; i < pfns.size(); i++)
        EXPECT_EQ(sim_iommu_iova_to_phys(&d.dev, iova + i * PAGE_SIZE + 5),
                  pfns[i] * PAGE_SIZE + 5);
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
    EXPECT_EQ(sim_iommu_iova_to_phys(&d.dev, iova), 0u);
}

TEST_F(sglist_iommu, ChainedListMergesAcrossChainLinks) {
    IommuDevice d;
    const unsigned n = 300;  // more than one sg array
    sgtest::FramesTable t(sgtest::gapped_pfns(n));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    EXPECT_EQ(dma_lengths(&t.sgt), (std::vector<unsigned>{n * PAGE_SIZE}));
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu, MergingHonoursTheMaxSegmentSize) {
    IommuDevice d;
    ASSERT_EQ(dma_set_max_seg_size(&d.dev, 3 * PAGE_SIZE), 0);
    sgtest::FramesTable t(sgtest::gapped_pfns(8));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    // 8 pages in segments of at most 3 pages: 3 + 3 + 2.
    EXPECT_EQ(dma_lengths(&t.sgt),
              (std::vector<unsigned>{3 * PAGE_SIZE, 3 * PAGE_SIZE, 2 * PAGE_SIZE}));
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu, MergingHonoursTheSegmentBoundary) {
    IommuDevice d;
    const unsigned long window = 4 * PAGE_SIZE;
    ASSERT_EQ(dma_set_seg_boundary(&d.dev, window - 1), 0);
    sgtest::FramesTable t(sgtest::gapped_pfns(10));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    // 10 pages, never across a 4-page window: 4 + 4 + 2.
    EXPECT_EQ(dma_lengths(&t.sgt),
              (std::vector<unsigned>{4 * PAGE_SIZE, 4 * PAGE_SIZE, 2 * PAGE_SIZE}));
    scatterlist* sg;
    unsigned i;
    for_each_sgtable_dma_sg(&t.sgt, sg, i) {
        const dma_addr_t first = sg_dma_address(sg), last = first + sg_dma_len(sg) - 1;
        EXPECT_EQ(first / window, last / window) << "segment " << i;
    }
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu, EntryWithAnOffsetStartsANewSegment) {
    IommuDevice d;
    scatterlist sgl[2];
    sg_init_table(sgl, 2);
    sg_set_page(&sgl[0], pfn_to_page(100), PAGE_SIZE, 0);
    sg_set_page(&sgl[1], pfn_to_page(200), PAGE_SIZE - 100, 100);
    ASSERT_EQ(dma_map_sg(&d.dev, sgl, 2, DMA_TO_DEVICE), 2);
    EXPECT_EQ(sg_dma_address(&sgl[1]) % PAGE_SIZE, 100u);  // keeps its page offset
    EXPECT_EQ(sim_iommu_iova_to_phys(&d.dev, sg_dma_address(&sgl[1])), sg_phys(&sgl[1]));
    dma_unmap_sg(&d.dev, sgl, 2, DMA_TO_DEVICE);
}

TEST_F(sglist_iommu, PartialPageEndsTheSegment) {
    IommuDevice d;
    scatterlist sgl[2];
    sg_init_table(sgl, 2);
    sg_set_page(&sgl[0], pfn_to_page(100), PAGE_SIZE / 2, 0);
    sg_set_page(&sgl[1], pfn_to_page(200), PAGE_SIZE, 0);
    ASSERT_EQ(dma_map_sg(&d.dev, sgl, 2, DMA_TO_DEVICE), 2);
    EXPECT_EQ(sg_dma_address(&sgl[1]), sg_dma_address(&sgl[0]) + PAGE_SIZE);
    dma_unmap_sg(&d.dev, sgl, 2, DMA_TO_DEVICE);
}

TEST_F(sglist_iommu, EntryLongerThanMaxSegmentFails) {
    IommuDevice d;
    ASSERT_EQ(dma_set_max_seg_size(&d.dev, PAGE_SIZE), 0);
    sgtest::FramesTable t(sgtest::pfn_run(100, 2));  // one 2-page entry
    EXPECT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), -EINVAL);
}

TEST_F(sglist_iommu, UnmapFreesIovaSpaceForReuse) {
    device dev;
    sgtest::init_wide_device(&dev);
    const unsigned n = 8;
    ASSERT_EQ(sim_iommu_attach(&dev, kIovaBase, n * PAGE_SIZE), 0);
    sgtest::FramesTable a(sgtest::gapped_pfns(n)), b(sgtest::gapped_pfns(n));
    ASSERT_EQ(dma_map_sgtable(&dev, &a.sgt, DMA_TO_DEVICE, 0), 0);
    EXPECT_EQ(dma_map_sgtable(&dev, &b.sgt, DMA_TO_DEVICE, 0), -ENOMEM);  // space is full
    dma_unmap_sgtable(&dev, &a.sgt, DMA_TO_DEVICE, 0);
    ASSERT_EQ(dma_map_sgtable(&dev, &b.sgt, DMA_TO_DEVICE, 0), 0);
    EXPECT_EQ(sg_dma_address(b.sgt.sgl), kIovaBase);
    dma_unmap_sgtable(&dev, &b.sgt, DMA_TO_DEVICE, 0);
    sim_iommu_detach(&dev);
}

TEST_F(sglist_iommu, TwoLiveMappingsGetDisjointRanges) {
    IommuDevice d;
    sgtest::FramesTable a(sgtest::gapped_pfns(3)), b(sgtest::gapped_pfns(5));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &a.sgt, DMA_TO_DEVICE, 0), 0);
    ASSERT_EQ(dma_map_sgtable(&d.dev, &b.sgt, DMA_TO_DEVICE, 0), 0);
    const dma_addr_t a0 = sg_dma_address(a.sgt.sgl), b0 = sg_dma_address(b.sgt.sgl);
    EXPECT_TRUE(a0 + 3 * PAGE_SIZE <= b0 || b0 + 5 * PAGE_SIZE <= a0);
    dma_unmap_sgtable(&d.dev, &a.sgt, DMA_TO_DEVICE, 0);
    dma_unmap_sgtable(&d.dev, &b.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu, IovaSpaceBeyondTheDmaMaskIsNotUsed) {
    IommuDevice d;  // IOVA space starts at 4 GiB
    ASSERT_EQ(dma_set_mask(&d.dev, DMA_BIT_MASK(32)), 0);
    sgtest::FramesTable t(sgtest::gapped_pfns(2));
    EXPECT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), -ENOMEM);
}

TEST_F(sglist_iommu, DetachReturnsToDirectMapping) {
    device dev;
    sgtest::init_wide_device(&dev);
    ASSERT_EQ(sim_iommu_attach(&dev, kIovaBase, kIovaSize), 0);
    sim_iommu_detach(&dev);
    sgtest::FramesTable t(sgtest::gapped_pfns(2));
    ASSERT_EQ(dma_map_sgtable(&dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    EXPECT_EQ(t.sgt.nents, 2u);
    EXPECT_EQ(sg_dma_address(t.sgt.sgl), sg_phys(t.sgt.sgl));
    EXPECT_EQ(sim_iommu_iova_to_phys(&dev, 0x5000), 0x5000u);
    dma_unmap_sgtable(&dev, &t.sgt, DMA_TO_DEVICE, 0);
}
