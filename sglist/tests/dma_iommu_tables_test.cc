// dma_iommu_tables_test.cc - the IOMMU's page tables in simulated memory,
// decoded by a walk written here from the format's description
// (dmasim/hw/iommu_hw.h: 512 little-endian u64 per 4 KiB table, bit 0
// present, bit 1 write, bit 7 a 2 MiB leaf at level 2, bits 51:12 the
// address), not by the layer's own code.
#include <optional>

#include "support.h"

using sglist_iommu_tables = sgtest::SimMemTest;
using sgtest::pages_at;
using sgtest::pfn_run;

namespace {

constexpr u64 kIovaBase = 1ull << 30;
constexpr u64 kIovaSize = 1ull << 30;
constexpr u64 k2M = 2ull << 20;
constexpr u64 kPresent = 1, kWrite = 2, kLarge = 0x80;
constexpr u64 kAddrMask = 0x000FFFFFFFFFF000ull;

u64 read_entry(u64 table, u64 index) {
    const auto* p = static_cast<const uint8_t*>(phys_to_virt(table + 8 * index));
    u64 v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/// The leaf entry that maps @iova and its level (1: 4 KiB, 2: 2 MiB).
struct Leaf {
    u64 pte;
    unsigned level;
    u64 phys;  // what @iova translates to
};

std::optional<Leaf> walk(u64 root, unsigned levels, u64 iova) {
    u64 table = root;
    for (unsigned level = levels; level >= 1; level--) {
        const unsigned shift = 12 + 9 * (level - 1);
        const u64 pte = read_entry(table, (iova >> shift) & 511);
        if (!(pte & kPresent)) return std::nullopt;
        if (level == 1 || (level == 2 && (pte & kLarge))) {
            const u64 in_page = iova & ((1ull << shift) - 1);
            return Leaf{pte, level, (pte & kAddrMask) + in_page};
        }
        table = pte & kAddrMask;
    }
    return std::nullopt;
}

class TableDevice {
public:
    TableDevice(unsigned levels, u64 max_page) : levels(levels) {
        sgtest::init_wide_device(&dev);
        EXPECT_EQ(sim_iommu_attach_tables(&dev, kIovaBase, kIovaSize, levels, max_page), 0);
    }
    ~TableDevice() { sim_iommu_detach(&dev); }
    std::optional<Leaf> leaf(u64 iova) { return walk(sim_iommu_root_table(&dev), levels, iova); }
    device dev;
    unsigned levels;
};

}  // namespace

TEST_F(sglist_iommu_tables, AttachRejectsBadLevelsPageSizesAndRangesBeyondTheTables) {
    device dev;
    sgtest::init_wide_device(&dev);
    EXPECT_EQ(sim_iommu_attach_tables(&dev, kIovaBase, kIovaSize, 1, PAGE_SIZE), -EINVAL);
    EXPECT_EQ(sim_iommu_attach_tables(&dev, kIovaBase, kIovaSize, 6, PAGE_SIZE), -EINVAL);
    EXPECT_EQ(sim_iommu_attach_tables(&dev, kIovaBase, kIovaSize, 4, 8192), -EINVAL);
    EXPECT_EQ(sim_iommu_attach_tables(&dev, kIovaBase, kIovaSize, 4, 1ull << 30), -EINVAL);
    // Two levels translate 12 + 2 x 9 = 30 bits: [1 GiB, 2 GiB) is beyond them...
    EXPECT_EQ(sim_iommu_attach_tables(&dev, kIovaBase, kIovaSize, 2, PAGE_SIZE), -EINVAL);
    // ... and [512 MiB, 1 GiB) ends exactly at their limit.
    ASSERT_EQ(sim_iommu_attach_tables(&dev, 512ull << 20, 512ull << 20, 2, PAGE_SIZE), 0);
    sim_iommu_detach(&dev);
    // Five levels: 57 bits.
    EXPECT_EQ(sim_iommu_attach_tables(&dev, 1ull << 57, PAGE_SIZE, 5, PAGE_SIZE), -EINVAL);
}

TEST_F(sglist_iommu_tables, RootTableIsAPageOfSimulatedRamAndZeroInDirectMode) {
    device dev;
    sgtest::init_wide_device(&dev);
    EXPECT_EQ(sim_iommu_root_table(&dev), 0u);
    const unsigned long before = sim_mem_pages_in_use();
    ASSERT_EQ(sim_iommu_attach_tables(&dev, kIovaBase, kIovaSize, 4, PAGE_SIZE), 0);
    const phys_addr_t root = sim_iommu_root_table(&dev);
    EXPECT_NE(root, 0u);
    EXPECT_EQ(root % PAGE_SIZE, 0u);
    EXPECT_EQ(sim_mem_pages_in_use(), before + 1);
    for (u64 i = 0; i < 512; i++) ASSERT_EQ(read_entry(root, i), 0u) << i;
    sim_iommu_detach(&dev);
}

TEST_F(sglist_iommu_tables, ScatteredPagesGetOneFourKibLeafEach) {
    TableDevice d(4, k2M);
    const unsigned n = 5;
    sgtest::FramesTable t(sgtest::gapped_pfns(n));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    const u64 iova = sg_dma_address(t.sgt.sgl);
    for (unsigned i = 0; i < n; i++) {
        auto leaf = d.leaf(iova + i * PAGE_SIZE + 9);
        ASSERT_TRUE(leaf) << i;
        EXPECT_EQ(leaf->level, 1u);
        EXPECT_EQ(leaf->phys, (100 + 2 * i) * PAGE_SIZE + 9);
        EXPECT_EQ(sim_iommu_iova_to_phys(&d.dev, iova + i * PAGE_SIZE + 9), leaf->phys);
    }
    EXPECT_FALSE(d.leaf(iova + n * PAGE_SIZE));
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu_tables, AlignedContiguousRunGetsTwoMibLeaves) {
    TableDevice d(4, k2M);
    // 4 MiB from physical 8 MiB: two 2 MiB-aligned 2 MiB pages.
    const unsigned long first = (8ull << 20) / PAGE_SIZE;
    sgtest::FramesTable t(pfn_run(first, 1024));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_FROM_DEVICE, 0), 0);
    const u64 iova = sg_dma_address(t.sgt.sgl);
    EXPECT_EQ(iova % k2M, 0u);  // IOVA = physical address mod 2 MiB
    for (u64 off : {u64{0}, k2M - 1, k2M, 2 * k2M - 8}) {
        auto leaf = d.leaf(iova + off);
        ASSERT_TRUE(leaf) << off;
        EXPECT_EQ(leaf->level, 2u) << off;
        EXPECT_EQ(leaf->phys, first * PAGE_SIZE + off);
        EXPECT_EQ(sim_iommu_iova_to_phys(&d.dev, iova + off), leaf->phys);
    }
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_FROM_DEVICE, 0);
}

TEST_F(sglist_iommu_tables, MisalignedPhysicalRunGetsTwoMibLeavesInItsAlignedInterior) {
    TableDevice d(4, k2M);
    // A small mapping first, so the allocator's next free IOVA is not
    // 2 MiB aligned and the phase has to be chosen, not found.
    sgtest::FramesTable small(sgtest::gapped_pfns(3));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &small.sgt, DMA_TO_DEVICE, 0), 0);
    // 8 MiB physically contiguous, starting 3 pages past 8 MiB: its 2 MiB
    // aligned interior is physical [10, 16) MiB, three 2 MiB pages; the
    // 509 pages before and 3 after get 4 KiB leaves.
    const u64 head = 3, pages = 2048;
    const unsigned long first = (8ull << 20) / PAGE_SIZE + head;
    sgtest::FramesTable t(pfn_run(first, pages));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    const u64 iova = sg_dma_address(t.sgt.sgl);
    // The IOVA takes the physical offset within 2 MiB.
    EXPECT_EQ(iova % k2M, (first * PAGE_SIZE) % k2M);
    const u64 head_pages = k2M / PAGE_SIZE - head;
    for (u64 page = 0; page < pages; page++) {
        auto leaf = d.leaf(iova + page * PAGE_SIZE + 5);
        ASSERT_TRUE(leaf) << page;
        const bool interior = page >= head_pages && page < head_pages + 3 * 512;
        EXPECT_EQ(leaf->level, interior ? 2u : 1u) << page;
        EXPECT_EQ(leaf->phys, (first + page) * PAGE_SIZE + 5) << page;
    }
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
    dma_unmap_sgtable(&d.dev, &small.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu_tables, AlignedEightMibBufferAfterASmallMappingIsAllTwoMibLeaves) {
    TableDevice d(4, k2M);
    sgtest::FramesTable small(sgtest::gapped_pfns(1));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &small.sgt, DMA_TO_DEVICE, 0), 0);
    const unsigned long first = (8ull << 20) / PAGE_SIZE;
    sgtest::FramesTable t(pfn_run(first, 2048));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_FROM_DEVICE, 0), 0);
    const u64 iova = sg_dma_address(t.sgt.sgl);
    EXPECT_EQ(iova % k2M, 0u);
    for (u64 off = 0; off < (8ull << 20); off += PAGE_SIZE) {
        auto leaf = d.leaf(iova + off);
        ASSERT_TRUE(leaf) << off;
        EXPECT_EQ(leaf->level, 2u) << off;
        EXPECT_EQ(leaf->phys, first * PAGE_SIZE + off);
    }
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_FROM_DEVICE, 0);
    dma_unmap_sgtable(&d.dev, &small.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu_tables, LaterRunsFollowTheFirstRunsPhaseAndAlignOnlyByChance) {
    TableDevice d(4, k2M);
    // Two physically separate runs laid out back to back in one IOVA
    // range: only the first run's phase can be chosen.
    // Run 1: 4 MiB from 8 MiB + 1 page; its aligned interior is physical
    // [10, 12) MiB = list pages 511..1022.
    std::vector<unsigned long> pfns = pfn_run((8ull << 20) / PAGE_SIZE + 1, 1024);
    // Run 2: 4 MiB from 32 MiB + 5 pages, at list page 1024, whose IOVA is
    // 1 + 1024 pages (= 1 page) past a 2 MiB boundary: never co-aligned.
    const std::vector<unsigned long> second = pfn_run((32ull << 20) / PAGE_SIZE + 5, 1024);
    pfns.insert(pfns.end(), second.begin(), second.end());
    sgtest::FramesTable t(pfns);
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    const u64 iova = sg_dma_address(t.sgt.sgl);
    EXPECT_EQ(iova % k2M, PAGE_SIZE);
    // Every page translates to its frame: the IOVA layout stays contiguous.
    for (u64 page = 0; page < pfns.size(); page++) {
        auto leaf = d.leaf(iova + page * PAGE_SIZE);
        ASSERT_TRUE(leaf) << page;
        EXPECT_EQ(leaf->phys, pfns[page] * PAGE_SIZE) << page;
        EXPECT_EQ(leaf->level, page >= 511 && page < 1023 ? 2u : 1u) << page;
    }
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu_tables, FourKibDomainNeverUsesLargeLeaves) {
    TableDevice d(4, PAGE_SIZE);
    sgtest::FramesTable t(pfn_run((8ull << 20) / PAGE_SIZE, 512));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    auto leaf = d.leaf(sg_dma_address(t.sgt.sgl));
    ASSERT_TRUE(leaf);
    EXPECT_EQ(leaf->level, 1u);
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu_tables, WriteBitFollowsTheDirection) {
    TableDevice d(3, PAGE_SIZE);
    const std::pair<dma_data_direction, bool> cases[] = {
        {DMA_TO_DEVICE, false}, {DMA_FROM_DEVICE, true}, {DMA_BIDIRECTIONAL, true}};
    for (auto [dir, writable] : cases) {
        sgtest::FramesTable t(sgtest::gapped_pfns(2));
        ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, dir, 0), 0);
        for (u64 page = 0; page < 2; page++) {
            auto leaf = d.leaf(sg_dma_address(t.sgt.sgl) + page * PAGE_SIZE);
            ASSERT_TRUE(leaf);
            EXPECT_EQ((leaf->pte & kWrite) != 0, writable) << dir;
        }
        dma_unmap_sgtable(&d.dev, &t.sgt, dir, 0);
    }
}

TEST_F(sglist_iommu_tables, UnmapClearsTheLeavesSoTheIovaFaults) {
    TableDevice d(4, k2M);
    sgtest::FramesTable small(sgtest::gapped_pfns(3));
    sgtest::FramesTable large(pfn_run((8ull << 20) / PAGE_SIZE, 512));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &small.sgt, DMA_TO_DEVICE, 0), 0);
    ASSERT_EQ(dma_map_sgtable(&d.dev, &large.sgt, DMA_TO_DEVICE, 0), 0);
    const u64 small_iova = sg_dma_address(small.sgt.sgl);
    const u64 large_iova = sg_dma_address(large.sgt.sgl);
    ASSERT_EQ(d.leaf(large_iova)->level, 2u);
    dma_unmap_sgtable(&d.dev, &small.sgt, DMA_TO_DEVICE, 0);
    dma_unmap_sgtable(&d.dev, &large.sgt, DMA_TO_DEVICE, 0);
    for (u64 page = 0; page < 3; page++) {
        EXPECT_FALSE(d.leaf(small_iova + page * PAGE_SIZE));
        EXPECT_EQ(sim_iommu_iova_to_phys(&d.dev, small_iova + page * PAGE_SIZE), 0u);
    }
    EXPECT_FALSE(d.leaf(large_iova));
    EXPECT_FALSE(d.leaf(large_iova + k2M - 1));
}

TEST_F(sglist_iommu_tables, MapPageMapsADescriptorBlockReadWrite) {
    TableDevice d(4, PAGE_SIZE);
    page* block = alloc_pages(GFP_KERNEL, 1);
    ASSERT_NE(block, nullptr);
    const dma_addr_t bus = dma_map_page(&d.dev, block, 64, PAGE_SIZE, DMA_BIDIRECTIONAL);
    ASSERT_NE(bus, DMA_MAPPING_ERROR);
    EXPECT_EQ(bus % PAGE_SIZE, 64u);  // the in-page offset survives
    // 64 + 4096 bytes touch both frames of the block.
    for (u64 at : {u64{0}, PAGE_SIZE - 64, PAGE_SIZE + 63 - 64}) {
        auto leaf = d.leaf(bus + at);
        ASSERT_TRUE(leaf);
        EXPECT_EQ(leaf->phys, page_to_phys(block) + 64 + at);
        EXPECT_NE(leaf->pte & kWrite, 0u);
    }
    dma_unmap_page(&d.dev, bus, PAGE_SIZE, DMA_BIDIRECTIONAL);
    EXPECT_FALSE(d.leaf(bus));
    __free_pages(block, 1);
}

TEST_F(sglist_iommu_tables, MapPageInDirectModeIsThePhysicalAddress) {
    device dev;
    sgtest::init_wide_device(&dev);
    page* p = alloc_page(GFP_KERNEL);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(dma_map_page(&dev, p, 8, 16, DMA_TO_DEVICE), page_to_phys(p) + 8);
    dma_unmap_page(&dev, page_to_phys(p) + 8, 16, DMA_TO_DEVICE);
    __free_pages(p, 0);
}

TEST_F(sglist_iommu_tables, TablesCostOneFramePerLevelAndDetachFreesThemAll) {
    sgtest::FramesTable t(
        sgtest::gapped_pfns(2));  // first: the list's own kmalloc pages are not counted
    const unsigned long before = sim_mem_pages_in_use();
    {
        TableDevice d(4, PAGE_SIZE);
        ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
        // Root, then one level-3, level-2 and level-1 table for the range
        // (two pages inside one 2 MiB region share all of them).
        EXPECT_EQ(sim_mem_pages_in_use() - before, 4u);
        dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
        // Unmapping clears entries; the tables stay for the next mapping.
        EXPECT_EQ(sim_mem_pages_in_use() - before, 4u);
    }
    EXPECT_EQ(sim_mem_pages_in_use(), before);
}

TEST_F(sglist_iommu_tables, MappingFailsCleanlyWhenRamHasNoRoomForTables) {
    TableDevice d(4, PAGE_SIZE);
    sgtest::FramesTable t(sgtest::gapped_pfns(2));
    std::vector<page*> hog;
    while (page* p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)) hog.push_back(p);
    EXPECT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), -ENOMEM);
    for (page* p : hog) __free_pages(p, 0);
    // The failed mapping released its IOVA range: the same list maps now.
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0), 0);
    EXPECT_EQ(sg_dma_address(t.sgt.sgl), kIovaBase);
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_TO_DEVICE, 0);
}

TEST_F(sglist_iommu_tables, RevokeTakesOnlyThatPageAwayEvenFromATwoMibLeaf) {
    TableDevice d(4, k2M);
    const unsigned long first = (8ull << 20) / PAGE_SIZE;
    sgtest::FramesTable t(pfn_run(first, 512));
    ASSERT_EQ(dma_map_sgtable(&d.dev, &t.sgt, DMA_FROM_DEVICE, 0), 0);
    const u64 iova = sg_dma_address(t.sgt.sgl);
    ASSERT_EQ(d.leaf(iova)->level, 2u);
    const u64 victim = iova + 7 * PAGE_SIZE + 100;
    ASSERT_EQ(sim_iommu_revoke(&d.dev, victim), 0);
    EXPECT_FALSE(d.leaf(victim));
    EXPECT_EQ(sim_iommu_iova_to_phys(&d.dev, victim), 0u);
    // Its neighbours keep their translation and write permission, now as 4 KiB leaves.
    for (u64 page : {6u, 8u, 511u}) {
        auto leaf = d.leaf(iova + page * PAGE_SIZE);
        ASSERT_TRUE(leaf) << page;
        EXPECT_EQ(leaf->level, 1u);
        EXPECT_EQ(leaf->phys, (first + page) * PAGE_SIZE);
        EXPECT_NE(leaf->pte & kWrite, 0u);
    }
    EXPECT_EQ(sim_iommu_revoke(&d.dev, victim), -ENOENT);
    dma_unmap_sgtable(&d.dev, &t.sgt, DMA_FROM_DEVICE, 0);
    EXPECT_FALSE(d.leaf(iova + 6 * PAGE_SIZE));
}
