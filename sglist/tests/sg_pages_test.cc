// sg_pages_test.cc - tables from page arrays: merging, segments, append.
#include "support.h"

using sgtest::entries_of;
using sgtest::pages_at;
using sgtest::pfn_run;
using sglist_pages = sgtest::SimMemTest;

namespace {

struct Seg {
    phys_addr_t phys;
    unsigned length;
    bool operator==(const Seg& o) const { return phys == o.phys && length == o.length; }
};

std::ostream& operator<<(std::ostream& os, const Seg& s) {
    return os << "{0x" << std::hex << s.phys << std::dec << ", " << s.length << "}";
}

std::vector<Seg> segs_of(scatterlist* sgl) {
    std::vector<Seg> out;
    for (scatterlist* sg : entries_of(sgl)) out.push_back({sg_phys(sg), sg->length});
    return out;
}

phys_addr_t at(unsigned long pfn) { return static_cast<phys_addr_t>(pfn) * PAGE_SIZE; }

std::vector<Seg> from_pages(const std::vector<unsigned long>& pfns, unsigned offset,
                            unsigned long size, unsigned max_segment) {
    auto pages = pages_at(pfns);
    sg_table t;
    EXPECT_EQ(sg_alloc_table_from_pages_segment(&t, pages.data(), pages.size(), offset, size,
                                                max_segment, GFP_KERNEL),
              0);
    auto segs = segs_of(t.sgl);
    EXPECT_EQ(t.orig_nents, segs.size());
    sg_free_table(&t);
    return segs;
}

constexpr unsigned kNoLimit = UINT_MAX;

}  // namespace

TEST_F(sglist_pages, ContiguousPagesMergeIntoOneEntry) {
    const unsigned n = 8;
    EXPECT_EQ(from_pages(pfn_run(100, n), 0, n * PAGE_SIZE, kNoLimit),
              (std::vector<Seg>{{at(100), n * PAGE_SIZE}}));
}

TEST_F(sglist_pages, ReversedPagesStayOneEntryEach) {
    const std::vector<unsigned long> pfns = {107, 106, 105, 104};
    std::vector<Seg> expect;
    for (unsigned long pfn : pfns) expect.push_back({at(pfn), PAGE_SIZE});
    EXPECT_EQ(from_pages(pfns, 0, pfns.size() * PAGE_SIZE, kNoLimit), expect);
}

TEST_F(sglist_pages, ReversedPagesStaySeparateUnderAMaxSegment) {
    EXPECT_EQ(from_pages({103, 102, 101}, 0, 3 * PAGE_SIZE, 2 * PAGE_SIZE),
              (std::vector<Seg>{{at(103), PAGE_SIZE}, {at(102), PAGE_SIZE}, {at(101), PAGE_SIZE}}));
}

TEST_F(sglist_pages, GappedPagesSplitAtEachGap) {
    EXPECT_EQ(from_pages({100, 101, 102, 200, 201, 300}, 0, 6 * PAGE_SIZE, kNoLimit),
              (std::vector<Seg>{
                  {at(100), 3 * PAGE_SIZE}, {at(200), 2 * PAGE_SIZE}, {at(300), PAGE_SIZE}}));
}

TEST_F(sglist_pages, MaxSegmentSplitsALongRun) {
    // 10 contiguous pages in segments of at most 4: 4 + 4 + 2.
    EXPECT_EQ(from_pages(pfn_run(100, 10), 0, 10 * PAGE_SIZE, 4 * PAGE_SIZE),
              (std::vector<Seg>{
                  {at(100), 4 * PAGE_SIZE}, {at(104), 4 * PAGE_SIZE}, {at(108), 2 * PAGE_SIZE}}));
}

TEST_F(sglist_pages, MaxSegmentIsRoundedDownToWholePages) {
    EXPECT_EQ(from_pages(pfn_run(100, 10), 0, 10 * PAGE_SIZE, 4 * PAGE_SIZE + 100),
              from_pages(pfn_run(100, 10), 0, 10 * PAGE_SIZE, 4 * PAGE_SIZE));
}

TEST_F(sglist_pages, MaxSegmentAndGapsCombine) {
    EXPECT_EQ(from_pages({100, 101, 102, 103, 104, 200, 201}, 0, 7 * PAGE_SIZE, 2 * PAGE_SIZE),
              (std::vector<Seg>{{at(100), 2 * PAGE_SIZE},
                                {at(102), 2 * PAGE_SIZE},
                                {at(104), PAGE_SIZE},
                                {at(200), 2 * PAGE_SIZE}}));
}

TEST_F(sglist_pages, MaxSegmentBelowAPageIsInvalid) {
    auto pages = pages_at(pfn_run(100, 2));
    sg_table t;
    EXPECT_EQ(sg_alloc_table_from_pages_segment(&t, pages.data(), 2, 0, 2 * PAGE_SIZE,
                                                PAGE_SIZE - 1, GFP_KERNEL),
              -EINVAL);
}

TEST_F(sglist_pages, OnlyTheFirstEntryCarriesTheOffset) {
    const unsigned off = 100;
    EXPECT_EQ(from_pages({100, 200, 300}, off, 3 * PAGE_SIZE - off, kNoLimit),
              (std::vector<Seg>{
                  {at(100) + off, PAGE_SIZE - off}, {at(200), PAGE_SIZE}, {at(300), PAGE_SIZE}}));
}

TEST_F(sglist_pages, OffsetIntoAMergedRunShortensItsFirstEntry) {
    const unsigned off = 512;
    EXPECT_EQ(from_pages(pfn_run(100, 4), off, 4 * PAGE_SIZE - off, kNoLimit),
              (std::vector<Seg>{{at(100) + off, 4 * PAGE_SIZE - off}}));
}

TEST_F(sglist_pages, SizeTrimsTheLastEntry) {
    EXPECT_EQ(from_pages({100, 200, 300}, 0, 2 * PAGE_SIZE + 10, kNoLimit),
              (std::vector<Seg>{{at(100), PAGE_SIZE}, {at(200), PAGE_SIZE}, {at(300), 10}}));
}

TEST_F(sglist_pages, FromPagesIsTheUnlimitedSegmentForm) {
    auto pages = pages_at(pfn_run(100, 40));
    sg_table t;
    ASSERT_EQ(sg_alloc_table_from_pages(&t, pages.data(), 40, 0, 40 * PAGE_SIZE, GFP_KERNEL), 0);
    EXPECT_EQ(segs_of(t.sgl), (std::vector<Seg>{{at(100), 40 * PAGE_SIZE}}));
    sg_free_table(&t);
}

TEST_F(sglist_pages, ManySeparateRunsChainArrays) {
    // Every other frame: no page merges, so 300 entries over chained arrays.
    const unsigned n = 300;
    std::vector<unsigned long> pfns;
    for (unsigned i = 0; i < n; i++) pfns.push_back(100 + 2 * i);
    auto segs = from_pages(pfns, 0, n * PAGE_SIZE, kNoLimit);
    ASSERT_EQ(segs.size(), n);
    for (unsigned i = 0; i < n; i++) EXPECT_EQ(segs[i], (Seg{at(pfns[i]), PAGE_SIZE}));
}

TEST_F(sglist_pages, AppendMergesAPageThatContinuesThePreviousCall) {
    auto first = pages_at(pfn_run(100, 4));
    auto second = pages_at(pfn_run(104, 4));
    sg_append_table a = {};
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, first.data(), 4, 0, 4 * PAGE_SIZE, kNoLimit, 4,
                                               GFP_KERNEL),
              0);
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, second.data(), 4, 0, 4 * PAGE_SIZE, kNoLimit, 0,
                                               GFP_KERNEL),
              0);
    EXPECT_EQ(segs_of(a.sgt.sgl), (std::vector<Seg>{{at(100), 8 * PAGE_SIZE}}));
    EXPECT_EQ(a.sgt.orig_nents, 1u);
    sg_free_append_table(&a);
}

TEST_F(sglist_pages, AppendAddsEntriesAfterAGap) {
    auto first = pages_at({100, 101});
    auto second = pages_at({300, 301});
    sg_append_table a = {};
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, first.data(), 2, 0, 2 * PAGE_SIZE, kNoLimit, 2,
                                               GFP_KERNEL),
              0);
    EXPECT_FALSE(sg_is_last(a.prv));  // more pages announced: no end yet
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, second.data(), 2, 0, 2 * PAGE_SIZE, kNoLimit, 0,
                                               GFP_KERNEL),
              0);
    EXPECT_EQ(segs_of(a.sgt.sgl),
              (std::vector<Seg>{{at(100), 2 * PAGE_SIZE}, {at(300), 2 * PAGE_SIZE}}));
    EXPECT_TRUE(sg_is_last(a.prv));
    EXPECT_EQ(a.sgt.nents, 2u);
    sg_free_append_table(&a);
}

TEST_F(sglist_pages, AppendMergeStopsAtMaxSegment) {
    auto first = pages_at(pfn_run(100, 3));
    auto second = pages_at(pfn_run(103, 3));
    sg_append_table a = {};
    const unsigned max_seg = 4 * PAGE_SIZE;
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, first.data(), 3, 0, 3 * PAGE_SIZE, max_seg, 3,
                                               GFP_KERNEL),
              0);
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, second.data(), 3, 0, 3 * PAGE_SIZE, max_seg, 0,
                                               GFP_KERNEL),
              0);
    // Pages 100..105: the first entry grows to the 4-page limit.
    EXPECT_EQ(segs_of(a.sgt.sgl),
              (std::vector<Seg>{{at(100), 4 * PAGE_SIZE}, {at(104), 2 * PAGE_SIZE}}));
    sg_free_append_table(&a);
}

TEST_F(sglist_pages, AppendKeepsTheLastSlotOfAnArrayForTheChainLink) {
    // First call fills all but the final slot of a one-page array
    // (M - 1 entries); the second call's entries must chain from that slot.
    const unsigned m = SG_MAX_SINGLE_ALLOC, later = 10;
    std::vector<unsigned long> pfns;
    for (unsigned i = 0; i < m - 1 + later; i++) pfns.push_back(100 + 2 * i);
    auto pages = pages_at(pfns);
    sg_append_table a = {};
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, pages.data(), m - 1, 0, (m - 1) * PAGE_SIZE,
                                               kNoLimit, later, GFP_KERNEL),
              0);
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, pages.data() + m - 1, later, 0,
                                               later * PAGE_SIZE, kNoLimit, 0, GFP_KERNEL),
              0);
    EXPECT_TRUE(sg_is_chain(a.sgt.sgl + m - 1));
    auto segs = segs_of(a.sgt.sgl);
    ASSERT_EQ(segs.size(), pfns.size());
    for (size_t i = 0; i < pfns.size(); i++) EXPECT_EQ(segs[i], (Seg{at(pfns[i]), PAGE_SIZE}));
    EXPECT_EQ(a.sgt.orig_nents, pfns.size());
    sg_free_append_table(&a);
}

TEST_F(sglist_pages, AppendWithAnOffsetAfterTheFirstCallIsInvalid) {
    auto pages = pages_at({100, 200});
    sg_append_table a = {};
    ASSERT_EQ(sg_alloc_append_table_from_pages(&a, pages.data(), 1, 0, PAGE_SIZE, kNoLimit, 1,
                                               GFP_KERNEL),
              0);
    EXPECT_EQ(sg_alloc_append_table_from_pages(&a, pages.data() + 1, 1, 10, PAGE_SIZE - 10,
                                               kNoLimit, 0, GFP_KERNEL),
              -EINVAL);
    sg_free_append_table(&a);
}

TEST(sglist_pages_own_ram, FromPagesFailsCleanlyWithoutMemory) {
    // Three usable frames hold at most three one-page arrays; 600 separate
    // pages need ceil((600 - 1) / 127) = 5.
    ASSERT_EQ(sim_mem_init(4 * PAGE_SIZE, SIM_MEM_CONTIGUOUS, 0), 0);
    // Frames 1, 3, 1, 3, ...: never consecutive, so nothing merges.
    std::vector<page*> pages;
    for (unsigned i = 0; i < 600; i++) pages.push_back(pfn_to_page(i % 2 ? 3 : 1));
    sg_table t;
    EXPECT_EQ(sg_alloc_table_from_pages(&t, pages.data(), 600, 0, 600 * PAGE_SIZE, GFP_KERNEL),
              -ENOMEM);
    EXPECT_EQ(sim_mem_pages_in_use(), 0u);
    sim_mem_exit();
}
