// mm_test.cc - simulated RAM, page frames and the page allocator.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "support.h"

using sglist_mm_scattered = sgtest::ScatteredMemTest;
using sglist_mm = sgtest::SimMemTest;

namespace {

// Resident set size of this process in bytes, from /proc/self/statm.
uint64_t resident_bytes() {
    FILE* f = std::fopen("/proc/self/statm", "r");
    unsigned long size = 0, resident = 0;
    if (f) {
        if (std::fscanf(f, "%lu %lu", &size, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return static_cast<uint64_t>(resident) * PAGE_SIZE;
}

std::vector<unsigned long> scattered_pfns(uint64_t seed, unsigned count) {
    EXPECT_EQ(sim_mem_init(64ull << 20, SIM_MEM_SCATTERED, seed), 0);
    std::vector<unsigned long> pfns;
    for (unsigned i = 0; i < count; i++) pfns.push_back(page_to_pfn(alloc_page(GFP_KERNEL)));
    sim_mem_exit();
    return pfns;
}

}  // namespace

TEST(sglist_mm_own_ram, InitRejectsSizeThatIsNotAPageMultiple) {
    EXPECT_EQ(sim_mem_init(10 * PAGE_SIZE + 1, SIM_MEM_CONTIGUOUS, 0), -EINVAL);
    EXPECT_EQ(sim_mem_size(), 0u);
}

TEST(sglist_mm_own_ram, InitRejectsRamSmallerThanTwoPages) {
    // Frame 0 is reserved, so one page would leave nothing to allocate.
    EXPECT_EQ(sim_mem_init(PAGE_SIZE, SIM_MEM_CONTIGUOUS, 0), -EINVAL);
}

TEST(sglist_mm_own_ram, InitRejectsMoreFramesThanA32BitFrameNumberNames) {
    // struct page links slab pages by 32-bit frame numbers.
    EXPECT_EQ(sim_mem_init((1ull << 32) * PAGE_SIZE, SIM_MEM_CONTIGUOUS, 0), -EINVAL);
    EXPECT_EQ(sim_mem_size(), 0u);
}

TEST(sglist_mm_own_ram, InitRejectsASecondRam) {
    ASSERT_EQ(sim_mem_init(1 << 20, SIM_MEM_CONTIGUOUS, 0), 0);
    EXPECT_EQ(sim_mem_init(1 << 20, SIM_MEM_CONTIGUOUS, 0), -EINVAL);
    sim_mem_exit();
}

TEST(sglist_mm_own_ram, ExitReleasesEverythingAndAllowsANewRam) {
    ASSERT_EQ(sim_mem_init(1 << 20, SIM_MEM_CONTIGUOUS, 0), 0);
    ASSERT_NE(alloc_pages(GFP_KERNEL, 2), nullptr);
    sim_mem_exit();
    EXPECT_EQ(sim_mem_base(), nullptr);
    EXPECT_EQ(sim_mem_pages_in_use(), 0u);
    ASSERT_EQ(sim_mem_init(2 << 20, SIM_MEM_CONTIGUOUS, 0), 0);
    EXPECT_EQ(sim_mem_size(), 2u << 20);
    sim_mem_exit();
}

TEST(sglist_mm_own_ram, SixtyFourGiBRamCostsOnlyTheTouchedPages) {
    const uint64_t ram = 64ull << 30;
    const uint64_t before = resident_bytes();
    ASSERT_EQ(sim_mem_init(ram, SIM_MEM_SCATTERED, 3), 0);
    page* p = alloc_pages(GFP_KERNEL, 4);
    ASSERT_NE(p, nullptr);
    std::memset(page_address(p), 0xab, 16 * PAGE_SIZE);
    // 16 data pages plus a few bitmap/mem_map pages; a dense mapping would
    // cost 64 GiB plus 16M struct pages. Allow 32 MiB for allocator noise.
    EXPECT_LT(resident_bytes() - before, 32ull << 20);
    EXPECT_EQ(sim_mem_size(), ram);
    __free_pages(p, 4);
    sim_mem_exit();
}

TEST_F(sglist_mm, FreshRamHasOnlyTheReservedFrameInUse) {
    const unsigned long frames = kRamBytes / PAGE_SIZE;
    EXPECT_EQ(sim_mem_pages_in_use(), 0u);
    EXPECT_EQ(sim_mem_pages_free(), frames - 1);
    EXPECT_STREQ(sim_mem_last_error(), "");
}

TEST_F(sglist_mm, BaseMapsPhysicalAddressZero) {
    EXPECT_EQ(phys_to_virt(0), sim_mem_base());
    EXPECT_EQ(sim_mem_size(), kRamBytes);
}

TEST_F(sglist_mm, ContiguousPlacementStartsAfterFrameZero) {
    page* p = alloc_page(GFP_KERNEL);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(page_to_pfn(p), 1u);
    __free_page(p);
}

TEST_F(sglist_mm, ContiguousPlacementGivesConsecutiveFrames) {
    auto pages = sgtest::alloc_page_list(64);
    for (size_t i = 1; i < pages.size(); i++)
        EXPECT_EQ(page_to_pfn(pages[i]), page_to_pfn(pages[0]) + i);
    sgtest::free_page_list(pages);
}

TEST_F(sglist_mm, FreedFrameIsReusedFirst) {
    auto pages = sgtest::alloc_page_list(4);
    const unsigned long pfn = page_to_pfn(pages[1]);
    __free_page(pages[1]);
    page* again = alloc_page(GFP_KERNEL);
    EXPECT_EQ(page_to_pfn(again), pfn);
    pages[1] = again;
    sgtest::free_page_list(pages);
}

// A frame is fresh (still the host mapping's zeros) only in its first
// allocation: once freed, whatever its owner wrote may still be in it.
TEST_F(sglist_mm, FramesAreFreshUntilTheyAreFreed) {
    auto pages = sgtest::alloc_page_list(4);
    for (page* p : pages) EXPECT_TRUE(sim_mem_frames_fresh(p, 1));
    EXPECT_TRUE(sim_mem_frames_fresh(pages[0], 4));
    __free_page(pages[1]);
    page* again = alloc_page(GFP_KERNEL);
    ASSERT_EQ(again, pages[1]);
    pages[1] = again;
    EXPECT_FALSE(sim_mem_frames_fresh(again, 1));
    EXPECT_TRUE(sim_mem_frames_fresh(pages[2], 2));
    EXPECT_FALSE(sim_mem_frames_fresh(pages[0], 4)) << "one used frame in the range is enough";
    sgtest::free_page_list(pages);
}

TEST_F(sglist_mm, FramesBeyondTheRamAreNotFresh) {
    const unsigned long frames = sim_mem_size() >> PAGE_SHIFT;
    EXPECT_FALSE(sim_mem_frames_fresh(pfn_to_page(frames - 1), 2));
    EXPECT_TRUE(sim_mem_frames_fresh(pfn_to_page(frames - 1), 1));
}

TEST(sglist_mm_own_ram, ANewRamStartsFresh) {
    ASSERT_EQ(sim_mem_init(1 << 20, SIM_MEM_CONTIGUOUS, 0), 0);
    struct page* p = alloc_page(GFP_KERNEL);
    __free_page(p);
    sim_mem_exit();
    ASSERT_EQ(sim_mem_init(1 << 20, SIM_MEM_CONTIGUOUS, 0), 0);
    EXPECT_TRUE(sim_mem_frames_fresh(alloc_page(GFP_KERNEL), 1));
    sim_mem_exit();
}

TEST_F(sglist_mm, AllocPagesCountsTwoToTheOrderFrames) {
    const unsigned order = 5;
    page* p = alloc_pages(GFP_KERNEL, order);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + (1u << order));
    __free_pages(p, order);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_);
}

TEST_F(sglist_mm, AllocPagesRunIsAlignedToItsSize) {
    page* single = alloc_page(GFP_KERNEL);  // frame 1: pushes the run off 0
    page* p = alloc_pages(GFP_KERNEL, 3);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(page_to_pfn(p) % 8, 0u);
    __free_pages(p, 3);
    __free_page(single);
}

TEST_F(sglist_mm_scattered, ScatteredAllocPagesRunIsAlignedAndContiguous) {
    for (unsigned order = 0; order < 8; order++) {
        page* p = alloc_pages(GFP_KERNEL, order);
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(page_to_pfn(p) % (1u << order), 0u) << "order " << order;
        EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + (1u << order));
        __free_pages(p, order);
    }
}

TEST_F(sglist_mm_scattered, ScatteredSinglePagesAreRarelyAdjacent) {
    const unsigned n = 1000;
    auto pages = sgtest::alloc_page_list(n);
    unsigned adjacent = 0;
    for (unsigned i = 1; i < n; i++)
        adjacent += page_to_pfn(pages[i]) == page_to_pfn(pages[i - 1]) + 1;
    // Uniform picks over F frames make a pair adjacent with chance ~1/F:
    // expected (n - 1) / 65535 ~ 0.015 pairs; 5 would be a broken policy.
    EXPECT_LE(adjacent, 5u);
    sgtest::free_page_list(pages);
}

TEST(sglist_mm_own_ram, ScatteredPlacementIsReproducibleFromTheSeed) {
    EXPECT_EQ(scattered_pfns(7, 100), scattered_pfns(7, 100));
    EXPECT_NE(scattered_pfns(7, 100), scattered_pfns(8, 100));
}

TEST(sglist_mm_own_ram, ScatteredPlacementCanFillEveryFrame) {
    const unsigned long frames = 1024;
    ASSERT_EQ(sim_mem_init(frames * PAGE_SIZE, SIM_MEM_SCATTERED, 5), 0);
    std::set<unsigned long> seen;
    for (unsigned long i = 0; i < frames - 1; i++) {
        page* p = alloc_page(GFP_KERNEL);
        ASSERT_NE(p, nullptr) << sim_mem_last_error();
        seen.insert(page_to_pfn(p));
    }
    EXPECT_EQ(seen.size(), frames - 1);
    EXPECT_EQ(seen.count(0), 0u);
    EXPECT_EQ(alloc_page(GFP_KERNEL), nullptr);
    sim_mem_exit();
}

TEST(sglist_mm_own_ram, OutOfMemoryReturnsNullAndExplains) {
    const unsigned long frames = 16;
    ASSERT_EQ(sim_mem_init(frames * PAGE_SIZE, SIM_MEM_CONTIGUOUS, 0), 0);
    // Frames 1..15 are free: an order-3 run fits at 8, order 4 needs 0..15.
    EXPECT_EQ(alloc_pages(GFP_KERNEL, 4), nullptr);
    const std::string msg = sim_mem_last_error();
    EXPECT_NE(msg.find("alloc_pages(order 4)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("15 of 16 frames free"), std::string::npos) << msg;
    EXPECT_NE(msg.find("largest free run 15"), std::string::npos) << msg;
    sim_mem_exit();
}

TEST_F(sglist_mm, GfpZeroClearsThePages) {
    page* p = alloc_page(GFP_KERNEL);
    std::memset(page_address(p), 0x5a, PAGE_SIZE);
    __free_page(p);
    page* q = alloc_page(GFP_KERNEL | __GFP_ZERO);
    ASSERT_EQ(q, p);  // contiguous placement hands the same frame back
    const auto* bytes = static_cast<const uint8_t*>(page_address(q));
    EXPECT_EQ(std::count(bytes, bytes + PAGE_SIZE, 0), static_cast<long>(PAGE_SIZE));
    __free_page(q);
}

TEST_F(sglist_mm, PageAndAddressConversionsAgree) {
    const unsigned long pfn = 1234;
    page* p = pfn_to_page(pfn);
    EXPECT_EQ(page_to_pfn(p), pfn);
    EXPECT_EQ(page_to_phys(p), static_cast<phys_addr_t>(pfn) * PAGE_SIZE);
    EXPECT_EQ(page_address(p), static_cast<char*>(sim_mem_base()) + pfn * PAGE_SIZE);
    void* v = static_cast<char*>(page_address(p)) + 100;
    EXPECT_EQ(virt_to_phys(v), page_to_phys(p) + 100);
    EXPECT_EQ(virt_to_page(v), p);
    EXPECT_EQ(phys_to_virt(page_to_phys(p) + 100), v);
    EXPECT_EQ(nth_page(p, 3), pfn_to_page(pfn + 3));
}

TEST_F(sglist_mm, PfnValidCoversExactlyTheFrames) {
    const unsigned long frames = kRamBytes / PAGE_SIZE;
    EXPECT_TRUE(pfn_valid(0));
    EXPECT_TRUE(pfn_valid(frames - 1));
    EXPECT_FALSE(pfn_valid(frames));
}

TEST(sglist_mm_own_ram, ScatteredGiBBufferGetsDistinctFrames) {
    // A 1 GiB user buffer in 4 KiB pages, as the testbench builds: every
    // page must be a distinct frame, and a quadratic allocator would time
    // out here.
    const unsigned long ram_frames = (4ull << 30) / PAGE_SIZE, n = (1ull << 30) / PAGE_SIZE;
    ASSERT_EQ(sim_mem_init(ram_frames * PAGE_SIZE, SIM_MEM_SCATTERED, 11), 0);
    std::vector<bool> taken(ram_frames);
    std::vector<page*> pages(n);
    unsigned long distinct = 0;
    for (auto& p : pages) {
        p = alloc_page(GFP_KERNEL);
        ASSERT_NE(p, nullptr) << sim_mem_last_error();
        distinct += !taken[page_to_pfn(p)];
        taken[page_to_pfn(p)] = true;
    }
    EXPECT_EQ(distinct, n);
    EXPECT_EQ(sim_mem_pages_in_use(), n);
    sgtest::free_page_list(pages);
    EXPECT_EQ(sim_mem_pages_in_use(), 0u);
    sim_mem_exit();
}

TEST_F(sglist_mm, VirtAddrValidCoversExactlyTheRam) {
    const char* base = static_cast<const char*>(sim_mem_base());
    EXPECT_TRUE(virt_addr_valid(base));
    EXPECT_TRUE(virt_addr_valid(base + kRamBytes - 1));
    EXPECT_FALSE(virt_addr_valid(base + kRamBytes));
    int on_stack = 0;
    EXPECT_FALSE(virt_addr_valid(&on_stack));
}

TEST(sglist_mm_own_ram, GetOrderIsTheSmallestRunThatFits) {
    EXPECT_EQ(get_order(1), 0u);
    EXPECT_EQ(get_order(PAGE_SIZE), 0u);
    EXPECT_EQ(get_order(PAGE_SIZE + 1), 1u);
    EXPECT_EQ(get_order(2 * PAGE_SIZE), 1u);
    EXPECT_EQ(get_order(1ul << 20), 20u - PAGE_SHIFT);
}

TEST_F(sglist_mm, GetFreePagesReturnsTheLinearMapAddress) {
    unsigned long addr = __get_free_pages(GFP_KERNEL, 1);
    ASSERT_NE(addr, 0u);
    EXPECT_EQ(offset_in_page(addr), 0u);
    EXPECT_TRUE(virt_addr_valid(reinterpret_cast<void*>(addr)));
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + 2);
    free_pages(addr, 1);
}

TEST_F(sglist_mm, GetZeroedPageIsZero) {
    unsigned long addr = get_zeroed_page(GFP_KERNEL);
    ASSERT_NE(addr, 0u);
    const auto* bytes = reinterpret_cast<const uint8_t*>(addr);
    EXPECT_EQ(std::count(bytes, bytes + PAGE_SIZE, 0), static_cast<long>(PAGE_SIZE));
    free_page(addr);
}
