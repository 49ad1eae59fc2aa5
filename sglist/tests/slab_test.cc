// slab_test.cc - kmalloc and friends carve simulated RAM.
#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "support.h"

using sglist_slab = sgtest::SimMemTest;

TEST_F(sglist_slab, KmallocOfZeroReturnsZeroSizePtr) {
    void* p = kmalloc(0, GFP_KERNEL);
    EXPECT_EQ(p, ZERO_SIZE_PTR);
    kfree(p);  // must be accepted
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_);
}

TEST_F(sglist_slab, KfreeOfNullDoesNothing) {
    kfree(nullptr);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_);
}

TEST_F(sglist_slab, KmallocMemoryLivesInSimulatedRam) {
    void* p = kmalloc(100, GFP_KERNEL);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(virt_addr_valid(p));
    EXPECT_NE(virt_to_phys(p), 0u);
    kfree(p);
}

TEST_F(sglist_slab, SmallAllocationsShareOnePage) {
    void* a = kmalloc(32, GFP_KERNEL);
    void* b = kmalloc(32, GFP_KERNEL);
    EXPECT_EQ(virt_to_page(a), virt_to_page(b));
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + 1);
    kfree(a);
    kfree(b);
}

TEST_F(sglist_slab, FreeingTheLastObjectReleasesItsPage) {
    void* a = kmalloc(200, GFP_KERNEL);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + 1);
    kfree(a);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_);
}

TEST_F(sglist_slab, ObjectsFillPagesOfTheirSizeClass) {
    const size_t size = 64, count = 1000;
    std::vector<void*> objs;
    for (size_t i = 0; i < count; i++) objs.push_back(kmalloc(size, GFP_KERNEL));
    const size_t per_page = PAGE_SIZE / size;
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + (count + per_page - 1) / per_page);
    std::set<void*> distinct(objs.begin(), objs.end());
    EXPECT_EQ(distinct.size(), count);
    for (void* p : objs) kfree(p);
}

TEST_F(sglist_slab, FreedObjectsOfAnyPageAreHandedOutBeforeANewPage) {
    // Three pages of two 2 KiB objects; one freed in each puts all three on
    // the partial list, and the middle one leaves it again when emptied.
    std::vector<void*> objs;
    for (int i = 0; i < 6; i++) objs.push_back(kmalloc(2048, GFP_KERNEL));
    ASSERT_EQ(sim_mem_pages_in_use(), pages_at_start_ + 3);
    for (int i : {0, 2, 4}) kfree(objs[i]);
    kfree(objs[3]);  // the middle page's last object
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + 2);
    void* a = kmalloc(2048, GFP_KERNEL);
    void* b = kmalloc(2048, GFP_KERNEL);
    EXPECT_EQ(std::set<void*>({a, b}), std::set<void*>({objs[0], objs[4]}));
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + 2);
    void* c = kmalloc(2048, GFP_KERNEL);  // both pages full again
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + 3);
    for (void* p : {a, b, c, objs[1], objs[5]}) kfree(p);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_);
}

TEST_F(sglist_slab, KsizeRoundsUpToThePowerOfTwoClass) {
    void* p = kmalloc(33, GFP_KERNEL);
    EXPECT_EQ(ksize(p), 64u);
    kfree(p);
}

TEST_F(sglist_slab, LargeAllocationTakesItsOwnRunOfFrames) {
    const size_t size = 3 * PAGE_SIZE + 1;
    void* p = kmalloc(size, GFP_KERNEL);
    ASSERT_NE(p, nullptr);
    const unsigned long frames = (size + PAGE_SIZE - 1) / PAGE_SIZE;
    EXPECT_EQ(offset_in_page(p), 0u);
    EXPECT_EQ(ksize(p), frames * PAGE_SIZE);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + frames);
    kfree(p);
}

TEST_F(sglist_slab, KzallocReturnsZeroedMemory) {
    char* p = static_cast<char*>(kmalloc(512, GFP_KERNEL));
    std::memset(p, 0x77, 512);
    kfree(p);
    char* q = static_cast<char*>(kzalloc(512, GFP_KERNEL));
    EXPECT_EQ(std::count(q, q + 512, 0), 512);
    kfree(q);
}

TEST_F(sglist_slab, KcallocZeroesAllElements) {
    auto* p = static_cast<uint32_t*>(kcalloc(3000, sizeof(uint32_t), GFP_KERNEL));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(std::count(p, p + 3000, 0u), 3000);
    kfree(p);
}

TEST_F(sglist_slab, KcallocRejectsAnOverflowingSize) {
    EXPECT_EQ(kcalloc(SIZE_MAX / 2, 4, GFP_KERNEL), nullptr);
    EXPECT_NE(std::string(sim_mem_last_error()).find("overflows"), std::string::npos);
}

TEST(sglist_slab_own_ram, KmallocFailsWhenRamIsFull) {
    ASSERT_EQ(sim_mem_init(4 * PAGE_SIZE, SIM_MEM_CONTIGUOUS, 0), 0);
    // Three usable frames: a four-page request cannot fit.
    EXPECT_EQ(kmalloc(4 * PAGE_SIZE, GFP_KERNEL), nullptr);
    EXPECT_NE(std::string(sim_mem_last_error()).find("kmalloc(16384)"), std::string::npos)
        << sim_mem_last_error();
    sim_mem_exit();
}
