// page_frag_test.cc - page_frag_alloc packs fragments back to back and
// returns a block to the page allocator once all of it is free.
#include <sys/mman.h>

#include <vector>

#include "support.h"

using sglist_page_frag = sgtest::SimMemTest;

namespace {
constexpr unsigned long kBlockFrames = 1ul << PAGE_FRAG_CACHE_MAX_ORDER;
}

TEST_F(sglist_page_frag, FragmentsFollowOneAnotherWithoutPadding) {
    page_frag_cache nc{};
    char* a = static_cast<char*>(page_frag_alloc(&nc, 64, GFP_KERNEL));
    char* b = static_cast<char*>(page_frag_alloc(&nc, 100, GFP_KERNEL));
    char* c = static_cast<char*>(page_frag_alloc(&nc, 7, GFP_KERNEL));
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(b, a + 64);
    EXPECT_EQ(c, b + 100);
    EXPECT_EQ(virt_to_phys(c), virt_to_phys(a) + 164);
    page_frag_free(a);
    page_frag_free(b);
    page_frag_free(c);
    page_frag_cache_drain(&nc);
}

TEST_F(sglist_page_frag, OneBlockHoldsAsManyFragmentsAsFitItsBytes) {
    // 64-byte fragments: a block of 8 frames holds 8 * 4096 / 64 = 512,
    // so 513 fragments take two blocks.
    page_frag_cache nc{};
    std::vector<void*> frags;
    const unsigned per_block = PAGE_FRAG_CACHE_MAX_SIZE / 64;
    for (unsigned i = 0; i < per_block; i++) frags.push_back(page_frag_alloc(&nc, 64, GFP_KERNEL));
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + kBlockFrames);
    frags.push_back(page_frag_alloc(&nc, 64, GFP_KERNEL));
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + 2 * kBlockFrames);
    for (void* f : frags) page_frag_free(f);
    page_frag_cache_drain(&nc);
}

TEST_F(sglist_page_frag, AFragmentThatDoesNotFitStartsANewBlock) {
    page_frag_cache nc{};
    char* a = static_cast<char*>(page_frag_alloc(&nc, PAGE_FRAG_CACHE_MAX_SIZE - 10, GFP_KERNEL));
    char* b = static_cast<char*>(page_frag_alloc(&nc, 11, GFP_KERNEL));
    ASSERT_NE(b, nullptr);
    // b cannot use the 10 bytes left: it opens a new block at its start.
    EXPECT_EQ(offset_in_page(b), 0u);
    EXPECT_NE(virt_to_phys(b), virt_to_phys(a) + PAGE_FRAG_CACHE_MAX_SIZE - 10);
    page_frag_free(a);
    page_frag_free(b);
    page_frag_cache_drain(&nc);
}

TEST_F(sglist_page_frag, ABlockIsFreedWhenItsLastFragmentAndTheCacheLetGo) {
    page_frag_cache nc{};
    void* a = page_frag_alloc(&nc, 64, GFP_KERNEL);
    // An address anywhere in the fragment (here in a later frame of the
    // block) finds the block's head.
    char* b = static_cast<char*>(page_frag_alloc(&nc, 3 * PAGE_SIZE, GFP_KERNEL));
    page_frag_free(a);
    page_frag_free(b + 2 * PAGE_SIZE);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + kBlockFrames) << "the cache still holds it";
    page_frag_cache_drain(&nc);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_);
}

TEST_F(sglist_page_frag, DrainingFirstLeavesTheBlockToItsLastFragment) {
    page_frag_cache nc{};
    void* a = page_frag_alloc(&nc, 64, GFP_KERNEL);
    page_frag_cache_drain(&nc);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + kBlockFrames);
    page_frag_free(a);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_);
}

TEST_F(sglist_page_frag, SizesOutsideOneBlockAreRefused) {
    page_frag_cache nc{};
    EXPECT_EQ(page_frag_alloc(&nc, 0, GFP_KERNEL), nullptr);
    EXPECT_EQ(page_frag_alloc(&nc, PAGE_FRAG_CACHE_MAX_SIZE + 1, GFP_KERNEL), nullptr);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_);
}

TEST_F(sglist_page_frag, UntouchedFragmentsCostNoHostPagesOfData) {
    // Only the head frame's struct page is written: the block's data
    // frames stay unbacked until someone writes them (payload none).
    page_frag_cache nc{};
    char* a = static_cast<char*>(page_frag_alloc(&nc, 64, GFP_KERNEL));
    unsigned char resident = 1;
    char* page_start = a - offset_in_page(a);
    ASSERT_EQ(mincore(page_start, PAGE_SIZE, &resident), 0);
    EXPECT_EQ(resident & 1, 0);
    page_frag_free(a);
    page_frag_cache_drain(&nc);
}
