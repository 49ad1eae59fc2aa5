// sg_iter_test.cc - page iterators, the mapping iterator and copies.
#include <algorithm>
#include <cstring>

#include "support.h"

using sglist_iter = sgtest::SimMemTest;
using sglist_iter_scattered = sgtest::ScatteredMemTest;

namespace {

// Two entries: 2 pages at frame 10 from offset 0, then one page's worth
// of bytes at frame 50 starting 100 bytes in (so it spans frames 50, 51).
struct TwoEntries {
    scatterlist sgl[2];
    TwoEntries() {
        sg_init_table(sgl, 2);
        sg_set_page(&sgl[0], pfn_to_page(10), 2 * PAGE_SIZE, 0);
        sg_set_page(&sgl[1], pfn_to_page(50), PAGE_SIZE, 100);
    }
};

std::vector<unsigned long> pfns_visited(scatterlist* sgl, unsigned nents, unsigned long pgoffset) {
    std::vector<unsigned long> out;
    sg_page_iter piter;
    for_each_sg_page(sgl, &piter, nents, pgoffset)
        out.push_back(page_to_pfn(sg_page_iter_page(&piter)));
    return out;
}

// A table over `count` scattered allocated pages, starting `offset` bytes
// into the first and ending `tail` bytes short of the last page's end.
struct ScatteredBuffer {
    std::vector<page*> pages;
    sg_table sgt{};
    size_t bytes = 0;

    ScatteredBuffer(unsigned count, unsigned offset, unsigned tail)
        : pages(sgtest::alloc_page_list(count)) {
        bytes = count * PAGE_SIZE - offset - tail;
        EXPECT_EQ(sg_alloc_table_from_pages(&sgt, pages.data(), count, offset, bytes, GFP_KERNEL),
                  0);
    }
    ~ScatteredBuffer() {
        sg_free_table(&sgt);
        sgtest::free_page_list(pages);
    }
};

}  // namespace

TEST_F(sglist_iter, ForEachSgPageVisitsEveryPageOfEveryEntry) {
    TwoEntries e;
    // Entry 1 spans 100 + 4096 bytes from frame 50: two pages.
    EXPECT_EQ(pfns_visited(e.sgl, 2, 0), (std::vector<unsigned long>{10, 11, 50, 51}));
}

TEST_F(sglist_iter, ForEachSgPageStartsAtThePageOffset) {
    TwoEntries e;
    EXPECT_EQ(pfns_visited(e.sgl, 2, 1), (std::vector<unsigned long>{11, 50, 51}));
    EXPECT_EQ(pfns_visited(e.sgl, 2, 3), (std::vector<unsigned long>{51}));
}

TEST_F(sglist_iter, ForEachSgPageStopsAfterNents) {
    TwoEntries e;
    EXPECT_EQ(pfns_visited(e.sgl, 1, 0), (std::vector<unsigned long>{10, 11}));
}

TEST_F(sglist_iter, ForEachSgDmaPageWalksDmaLengthsAndAddresses) {
    TwoEntries e;
    sg_dma_address(&e.sgl[0]) = 0x100000;
    sg_dma_len(&e.sgl[0]) = 3 * PAGE_SIZE;  // as if merged by an IOMMU
    sg_dma_page_iter it;
    std::vector<dma_addr_t> addrs;
    for_each_sg_dma_page(e.sgl, &it, 1, 0) addrs.push_back(sg_page_iter_dma_address(&it));
    EXPECT_EQ(addrs,
              (std::vector<dma_addr_t>{0x100000, 0x100000 + PAGE_SIZE, 0x100000 + 2 * PAGE_SIZE}));
}

TEST_F(sglist_iter, ForEachSgtablePageCoversOrigNents) {
    TwoEntries e;
    sg_table t{e.sgl, 1, 2};
    sg_page_iter piter;
    unsigned pages = 0;
    for_each_sgtable_page(&t, &piter, 0) pages++;
    EXPECT_EQ(pages, 4u);
}

TEST_F(sglist_iter, ForEachSgtableDmaPageCoversNents) {
    TwoEntries e;
    sg_dma_address(&e.sgl[0]) = 0x200000;
    sg_dma_len(&e.sgl[0]) = 2 * PAGE_SIZE;
    sg_table t{e.sgl, 1, 2};  // one DMA segment
    sg_dma_page_iter it;
    unsigned pages = 0;
    for_each_sgtable_dma_page(&t, &it, 0) pages++;
    EXPECT_EQ(pages, 2u);
}

TEST_F(sglist_iter, MiterPiecesNeverCrossAPage) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    const unsigned off = 100;
    sg_set_page(&sg, pfn_to_page(20), 2 * PAGE_SIZE, off);
    sg_mapping_iter m;
    sg_miter_start(&m, &sg, 1, SG_MITER_FROM_SG);
    std::vector<size_t> lengths;
    std::vector<void*> addrs;
    while (sg_miter_next(&m)) {
        lengths.push_back(m.length);
        addrs.push_back(m.addr);
    }
    sg_miter_stop(&m);
    // 2 pages of bytes from offset 100: the rest of page 20, page 21, 100 of 22.
    EXPECT_EQ(lengths, (std::vector<size_t>{PAGE_SIZE - off, PAGE_SIZE, off}));
    char* base = static_cast<char*>(page_address(pfn_to_page(20)));
    EXPECT_EQ(addrs, (std::vector<void*>{base + off, base + PAGE_SIZE, base + 2 * PAGE_SIZE}));
}

TEST_F(sglist_iter, MiterSkipStartsInsideTheList) {
    TwoEntries e;
    sg_mapping_iter m;
    sg_miter_start(&m, e.sgl, 2, SG_MITER_FROM_SG);
    ASSERT_TRUE(sg_miter_skip(&m, 2 * PAGE_SIZE + 10));  // past entry 0, 10 into entry 1
    ASSERT_TRUE(sg_miter_next(&m));
    EXPECT_EQ(m.addr, static_cast<char*>(page_address(pfn_to_page(50))) + 100 + 10);
    EXPECT_EQ(m.length, PAGE_SIZE - 100 - 10);
    sg_miter_stop(&m);
}

TEST_F(sglist_iter, MiterSkipPastTheEndFails) {
    TwoEntries e;
    sg_mapping_iter m;
    sg_miter_start(&m, e.sgl, 2, SG_MITER_FROM_SG);
    EXPECT_FALSE(sg_miter_skip(&m, 3 * PAGE_SIZE + 1));
    sg_miter_stop(&m);
}

TEST_F(sglist_iter, MiterRevisitsWhatWasNotConsumed) {
    TwoEntries e;
    sg_mapping_iter m;
    sg_miter_start(&m, e.sgl, 2, SG_MITER_TO_SG);
    ASSERT_TRUE(sg_miter_next(&m));
    void* first = m.addr;
    m.consumed = 10;
    ASSERT_TRUE(sg_miter_next(&m));
    EXPECT_EQ(m.addr, static_cast<char*>(first) + 10);
    EXPECT_EQ(m.length, PAGE_SIZE - 10);
    sg_miter_stop(&m);
}

TEST_F(sglist_iter, MiterSkipsEmptyEntries) {
    scatterlist sgl[3];
    sg_init_table(sgl, 3);
    sg_set_page(&sgl[0], pfn_to_page(5), 0, 0);
    sg_set_page(&sgl[1], pfn_to_page(6), 0, 300);
    sg_set_page(&sgl[2], pfn_to_page(7), 64, 0);
    sg_mapping_iter m;
    sg_miter_start(&m, sgl, 3, SG_MITER_FROM_SG);
    ASSERT_TRUE(sg_miter_next(&m));
    EXPECT_EQ(m.page, pfn_to_page(7));
    EXPECT_EQ(m.length, 64u);
    EXPECT_FALSE(sg_miter_next(&m));
}

// Found by the fuzzer: an empty entry whose offset is a whole page must not
// push the iterator past the next entry's first page.
TEST_F(sglist_iter, EmptyEntryWithAPageOffsetDoesNotSkipTheNext) {
    scatterlist sgl[2];
    sg_init_table(sgl, 2);
    sg_set_page(&sgl[0], pfn_to_page(20), 0, PAGE_SIZE);
    sg_set_page(&sgl[1], pfn_to_page(20), 25, 10);
    char buf[32];
    EXPECT_EQ(sg_copy_to_buffer(sgl, 2, buf, sizeof(buf)), 25u);
}

TEST_F(sglist_iter_scattered, CopyFromAndToBufferRoundTripThroughAChainedList) {
    // 300 scattered pages: the table chains; offset/tail make partial pages.
    ScatteredBuffer b(300, 123, 45);
    const auto data = sgtest::pattern(b.bytes);
    EXPECT_EQ(sg_copy_from_buffer(b.sgt.sgl, b.sgt.orig_nents, data.data(), data.size()), b.bytes);
    std::vector<uint8_t> back(b.bytes);
    EXPECT_EQ(sg_copy_to_buffer(b.sgt.sgl, b.sgt.orig_nents, back.data(), back.size()), b.bytes);
    EXPECT_EQ(back, data);
}

TEST_F(sglist_iter_scattered, CopyFromBufferWritesTheEntriesInOrder) {
    ScatteredBuffer b(4, 0, 0);
    const auto data = sgtest::pattern(b.bytes);
    sg_copy_from_buffer(b.sgt.sgl, b.sgt.orig_nents, data.data(), data.size());
    for (size_t i = 0; i < b.pages.size(); i++)
        EXPECT_EQ(std::memcmp(page_address(b.pages[i]), data.data() + i * PAGE_SIZE, PAGE_SIZE), 0)
            << i;
}

TEST_F(sglist_iter_scattered, CopyToBufferStopsAtTheEndOfTheList) {
    ScatteredBuffer b(2, 0, 100);
    std::vector<uint8_t> out(4 * PAGE_SIZE);
    EXPECT_EQ(sg_copy_to_buffer(b.sgt.sgl, b.sgt.orig_nents, out.data(), out.size()), b.bytes);
}

TEST_F(sglist_iter_scattered, PcopyToBufferSkipsTheFirstBytes) {
    ScatteredBuffer b(5, 7, 0);
    const auto data = sgtest::pattern(b.bytes);
    sg_copy_from_buffer(b.sgt.sgl, b.sgt.orig_nents, data.data(), data.size());
    const size_t skip = PAGE_SIZE + 333, len = 2 * PAGE_SIZE;
    std::vector<uint8_t> out(len);
    EXPECT_EQ(sg_pcopy_to_buffer(b.sgt.sgl, b.sgt.orig_nents, out.data(), len, skip), len);
    EXPECT_TRUE(std::equal(out.begin(), out.end(), data.begin() + skip));
}

TEST_F(sglist_iter_scattered, PcopyFromBufferWritesAtTheOffset) {
    ScatteredBuffer b(3, 0, 0);
    std::vector<uint8_t> zeros(b.bytes, 0);
    sg_copy_from_buffer(b.sgt.sgl, b.sgt.orig_nents, zeros.data(), zeros.size());
    const auto data = sgtest::pattern(500);
    const size_t skip = PAGE_SIZE - 200;  // straddles the first page boundary
    EXPECT_EQ(sg_pcopy_from_buffer(b.sgt.sgl, b.sgt.orig_nents, data.data(), data.size(), skip),
              500u);
    std::vector<uint8_t> expect(b.bytes, 0);
    ASSERT_LE(skip + data.size(), expect.size());
    std::copy(data.begin(), data.end(), expect.begin() + skip);
    std::vector<uint8_t> back(b.bytes);
    sg_copy_to_buffer(b.sgt.sgl, b.sgt.orig_nents, back.data(), back.size());
    EXPECT_EQ(back, expect);
}

TEST_F(sglist_iter_scattered, CopyBufferWithSkipBeyondTheListCopiesNothing) {
    ScatteredBuffer b(2, 0, 0);
    std::vector<uint8_t> out(16);
    EXPECT_EQ(sg_copy_buffer(b.sgt.sgl, b.sgt.orig_nents, out.data(), out.size(), 2 * PAGE_SIZE + 1,
                             true),
              0u);
}

TEST_F(sglist_iter_scattered, ZeroBufferClearsOnlyTheRange) {
    ScatteredBuffer b(3, 0, 0);
    const auto data = sgtest::pattern(b.bytes, 9);
    sg_copy_from_buffer(b.sgt.sgl, b.sgt.orig_nents, data.data(), data.size());
    const size_t skip = 1000, len = PAGE_SIZE + 50;
    EXPECT_EQ(sg_zero_buffer(b.sgt.sgl, b.sgt.orig_nents, len, skip), len);
    auto expect = data;
    std::fill(expect.begin() + skip, expect.begin() + skip + len, 0);
    std::vector<uint8_t> back(b.bytes);
    sg_copy_to_buffer(b.sgt.sgl, b.sgt.orig_nents, back.data(), back.size());
    EXPECT_EQ(back, expect);
}
