// sg_table_test.cc - sg_alloc_table and its chunked, chained arrays.
#include "support.h"

using sgtest::entries_of;
using sglist_table = sgtest::SimMemTest;

namespace {

// Arrays a table of n entries spans with m slots per array: every array
// but the last gives one slot to the chain link, so after the first array
// (m data slots if it is the only one) each further one adds m - 1.
unsigned expected_arrays(unsigned n, unsigned m) {
    return n <= m ? 1 : 1 + (n - m + (m - 2)) / (m - 1);
}

// Chain links crossed while walking the list: where the next entry is not
// the neighbouring slot.
unsigned links_walked(scatterlist* sgl) {
    unsigned links = 0;
    for (scatterlist* sg = sgl; !sg_is_last(sg); sg = sg_next(sg)) links += sg_next(sg) != sg + 1;
    return links;
}

struct TableCase {
    unsigned max_ents;  // slots per array (SG_MAX_SINGLE_ALLOC for sg_alloc_table)
    unsigned nents;
};

void PrintTo(const TableCase& c, std::ostream* os) {
    *os << "M=" << c.max_ents << " N=" << c.nents;
}

class sglist_table_shape : public sgtest::SimMemTest,
                           public ::testing::WithParamInterface<TableCase> {};

// The sizes issue 2 names: 1, M, M+1, 2M-1, 2M and 1000 for chunk size M.
std::vector<TableCase> table_cases() {
    std::vector<TableCase> cases;
    for (unsigned m : {static_cast<unsigned>(SG_MAX_SINGLE_ALLOC), 4u})
        for (unsigned n : {1u, m, m + 1, 2 * m - 1, 2 * m, 1000u}) cases.push_back({m, n});
    return cases;
}

}  // namespace

TEST_P(sglist_table_shape, HasNentsDataEntriesInTheExpectedArrays) {
    const auto [m, n] = GetParam();
    sg_table t;
    ASSERT_EQ(sim_sg_alloc_table_chunked(&t, n, m, GFP_KERNEL), 0);
    EXPECT_EQ(t.orig_nents, n);
    EXPECT_EQ(t.nents, n);
    EXPECT_EQ(sg_nents(t.sgl), static_cast<int>(n));
    EXPECT_EQ(links_walked(t.sgl), expected_arrays(n, m) - 1);
    sim_sg_free_table_chunked(&t, m);
    EXPECT_EQ(t.sgl, nullptr);
}

TEST_P(sglist_table_shape, ChainLinkIsTheFinalSlotOfEachArray) {
    const auto [m, n] = GetParam();
    sg_table t;
    ASSERT_EQ(sim_sg_alloc_table_chunked(&t, n, m, GFP_KERNEL), 0);
    const auto entries = entries_of(t.sgl);
    // The first array's data slots are 0..m-2 when it chains, else 0..n-1.
    const unsigned first_data = n <= m ? n : m - 1;
    for (unsigned i = 0; i < first_data; i++) EXPECT_EQ(entries[i], t.sgl + i);
    if (n > m) {
        EXPECT_TRUE(sg_is_chain(t.sgl + m - 1));
        EXPECT_EQ(entries[m - 1], sg_chain_ptr(t.sgl + m - 1));
    }
    sim_sg_free_table_chunked(&t, m);
}

INSTANTIATE_TEST_SUITE_P(Sizes, sglist_table_shape, ::testing::ValuesIn(table_cases()),
                         [](const auto& info) {
                             return "M" + std::to_string(info.param.max_ents) + "_N" +
                                    std::to_string(info.param.nents);
                         });

TEST_F(sglist_table, AllocTableUsesOnePageSizedArrays) {
    const unsigned n = 1000, m = SG_MAX_SINGLE_ALLOC;
    sg_table t;
    ASSERT_EQ(sg_alloc_table(&t, n, GFP_KERNEL), 0);
    EXPECT_EQ(links_walked(t.sgl), expected_arrays(n, m) - 1);
    // Each array is at most one page and the last holds
    // 1000 - 7 * 127 = 111 entries (> 2 KiB), so each takes a whole page.
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + expected_arrays(n, m));
    sg_free_table(&t);
}

TEST_F(sglist_table, AllocTableEntriesAreClearWithTheEndOnTheLast) {
    sg_table t;
    ASSERT_EQ(sg_alloc_table(&t, 300, GFP_KERNEL), 0);
    const auto entries = entries_of(t.sgl);
    ASSERT_EQ(entries.size(), 300u);
    for (size_t i = 0; i < entries.size(); i++) {
        EXPECT_EQ(entries[i]->length, 0u);
        EXPECT_EQ(entries[i]->page_link, i == 299 ? SG_END : 0ul) << i;
    }
    sg_free_table(&t);
}

TEST_F(sglist_table, AllocTableArraysLiveInSimulatedRam) {
    sg_table t;
    ASSERT_EQ(sg_alloc_table(&t, 200, GFP_KERNEL), 0);
    for (scatterlist* sg : entries_of(t.sgl)) EXPECT_TRUE(virt_addr_valid(sg));
    sg_free_table(&t);
}

TEST_F(sglist_table, AllocTableOfZeroEntriesIsInvalid) {
    sg_table t;
    EXPECT_EQ(sg_alloc_table(&t, 0, GFP_KERNEL), -EINVAL);
    EXPECT_EQ(t.sgl, nullptr);
}

TEST_F(sglist_table, ChunkedTableRejectsArraysTooSmallToChain) {
    sg_table t;
    EXPECT_EQ(sim_sg_alloc_table_chunked(&t, 10, 1, GFP_KERNEL), -EINVAL);
}

TEST_F(sglist_table, ChunkedArrayBiggerThanAPageTakesContiguousFrames) {
    const unsigned n = 1000;
    sg_table t;
    ASSERT_EQ(sim_sg_alloc_table_chunked(&t, n, n, GFP_KERNEL), 0);
    const unsigned long frames = (n * sizeof(scatterlist) + PAGE_SIZE - 1) / PAGE_SIZE;
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_ + frames);
    EXPECT_EQ(links_walked(t.sgl), 0u);
    sim_sg_free_table_chunked(&t, n);
}

TEST(sglist_table_own_ram, FailedAllocationLeavesNothingAllocated) {
    // Seven usable frames; 1000 entries need 8 one-page arrays.
    ASSERT_EQ(sim_mem_init(8 * PAGE_SIZE, SIM_MEM_CONTIGUOUS, 0), 0);
    sg_table t;
    EXPECT_EQ(sg_alloc_table(&t, 1000, GFP_KERNEL), -ENOMEM);
    EXPECT_EQ(sim_mem_pages_in_use(), 0u);
    sim_mem_exit();
}

TEST_F(sglist_table, PreallocatedFirstChunkIsUsedAndNotFreed) {
    const unsigned first = 4, m = 8, n = 10;
    auto* chunk = static_cast<scatterlist*>(kmalloc_array(first, sizeof(scatterlist), GFP_KERNEL));
    auto alloc = [](unsigned nents, gfp_t gfp) {
        return static_cast<scatterlist*>(kmalloc_array(nents, sizeof(scatterlist), gfp));
    };
    auto release = [](scatterlist* sgl, unsigned) { kfree(sgl); };
    sg_table t;
    ASSERT_EQ(__sg_alloc_table(&t, n, m, chunk, first, GFP_KERNEL, alloc), 0);
    EXPECT_EQ(t.sgl, chunk);
    EXPECT_EQ(sg_nents(t.sgl), static_cast<int>(n));
    // 3 data slots + link in the first chunk, then the other 7 fit in one.
    EXPECT_EQ(links_walked(t.sgl), 1u);
    __sg_free_table(&t, m, first, release, t.orig_nents);
    EXPECT_EQ(ksize(chunk), first * sizeof(scatterlist));  // still allocated
    kfree(chunk);
}

TEST_F(sglist_table, ForEachSgtableSgWalksOrigNentsAndDmaSgWalksNents) {
    sg_table t;
    ASSERT_EQ(sg_alloc_table(&t, 10, GFP_KERNEL), 0);
    t.nents = 4;  // as if a mapping merged the entries into four
    scatterlist* sg;
    unsigned i, cpu = 0, dma = 0;
    for_each_sgtable_sg(&t, sg, i) cpu++;
    for_each_sgtable_dma_sg(&t, sg, i) dma++;
    EXPECT_EQ(cpu, 10u);
    EXPECT_EQ(dma, 4u);
    sg_free_table(&t);
}
