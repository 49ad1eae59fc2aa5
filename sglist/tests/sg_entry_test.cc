// sg_entry_test.cc - single entries, end markers and chain links.
#include <cstring>

#include "support.h"

using sgtest::entries_of;
using sglist_entry = sgtest::SimMemTest;

namespace {

// Entries describing page frames 10, 11, ... with lengths 100, 200, ...
void fill(scatterlist* sgl, unsigned n, unsigned long first_pfn = 10) {
    for (unsigned i = 0; i < n; i++)
        sg_set_page(&sgl[i], pfn_to_page(first_pfn + i), 100 * (i + 1), 0);
}

}  // namespace

TEST(sglist_entry_plain, MaxSingleAllocIsOnePageOfEntries) {
    EXPECT_EQ(SG_MAX_SINGLE_ALLOC, PAGE_SIZE / sizeof(scatterlist));
    EXPECT_LE(SG_MAX_SINGLE_ALLOC * sizeof(scatterlist), PAGE_SIZE);
}

TEST(sglist_entry_plain, InitTableClearsEntriesAndMarksOnlyTheLast) {
    scatterlist sgl[5];
    std::memset(sgl, 0xff, sizeof(sgl));
    sg_init_table(sgl, 5);
    for (unsigned i = 0; i < 5; i++) {
        EXPECT_EQ(sgl[i].length, 0u);
        EXPECT_FALSE(sg_is_chain(&sgl[i]));
        EXPECT_EQ(sg_is_last(&sgl[i]), i == 4) << i;
    }
}

TEST_F(sglist_entry, SetPageRecordsPageOffsetAndLength) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_set_page(&sg, pfn_to_page(42), 300, 7);
    EXPECT_EQ(sg_page(&sg), pfn_to_page(42));
    EXPECT_EQ(sg.offset, 7u);
    EXPECT_EQ(sg.length, 300u);
    EXPECT_EQ(sg_phys(&sg), 42 * PAGE_SIZE + 7);
    EXPECT_EQ(sg_virt(&sg), static_cast<char*>(page_address(pfn_to_page(42))) + 7);
}

TEST_F(sglist_entry, SetPageKeepsTheEndMark) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_set_page(&sg, pfn_to_page(3), 10, 0);
    EXPECT_TRUE(sg_is_last(&sg));
}

TEST_F(sglist_entry, AssignPageChangesOnlyThePage) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_set_page(&sg, pfn_to_page(3), 10, 5);
    sg_assign_page(&sg, pfn_to_page(9));
    EXPECT_EQ(sg_page(&sg), pfn_to_page(9));
    EXPECT_EQ(sg.length, 10u);
    EXPECT_EQ(sg.offset, 5u);
    EXPECT_TRUE(sg_is_last(&sg));
}

TEST_F(sglist_entry, SetBufDescribesALinearMapAddress) {
    char* buf = static_cast<char*>(page_address(pfn_to_page(77))) + 100;
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_set_buf(&sg, buf, 50);
    EXPECT_EQ(sg_page(&sg), pfn_to_page(77));
    EXPECT_EQ(sg.offset, 100u);
    EXPECT_EQ(sg.length, 50u);
    EXPECT_EQ(sg_virt(&sg), buf);
}

TEST_F(sglist_entry, InitOneMakesASingleLastEntry) {
    void* buf = kmalloc(64, GFP_KERNEL);
    scatterlist sg;
    sg_init_one(&sg, buf, 64);
    EXPECT_TRUE(sg_is_last(&sg));
    EXPECT_EQ(sg_virt(&sg), buf);
    EXPECT_EQ(sg_phys(&sg), virt_to_phys(buf));
    EXPECT_EQ(sg_nents(&sg), 1);
    kfree(buf);
}

TEST_F(sglist_entry, ChainingFourEntriesToThreeGivesSixEntries) {
    scatterlist a[4], b[3];
    sg_init_table(a, 4);
    sg_init_table(b, 3);
    fill(a, 3, 10);
    fill(b, 3, 20);
    sg_chain(a, 4, b);
    // a[3] became the link, so the list is a[0..2] then b[0..2].
    const std::vector<scatterlist*> expect = {&a[0], &a[1], &a[2], &b[0], &b[1], &b[2]};
    EXPECT_EQ(entries_of(a), expect);
    EXPECT_EQ(sg_nents(a), 6);
}

TEST_F(sglist_entry, LinkEntryPointsAtTheNextArray) {
    scatterlist a[4], b[2];
    sg_init_table(a, 4);
    sg_init_table(b, 2);
    sg_chain(a, 4, b);
    EXPECT_TRUE(sg_is_chain(&a[3]));
    EXPECT_FALSE(sg_is_last(&a[3]));
    EXPECT_EQ(sg_chain_ptr(&a[3]), b);
    EXPECT_EQ(sg_next(&a[2]), &b[0]);
}

TEST_F(sglist_entry, ThreeChainedArraysAreWalkedInOrder) {
    scatterlist a[2], b[3], c[2];
    sg_init_table(a, 2);
    sg_init_table(b, 3);
    sg_init_table(c, 2);
    sg_chain(a, 2, b);
    sg_chain(b, 3, c);
    const std::vector<scatterlist*> expect = {&a[0], &b[0], &b[1], &c[0], &c[1]};
    EXPECT_EQ(entries_of(a), expect);
}

TEST_F(sglist_entry, MarkEndOnALinkTurnsItIntoData) {
    scatterlist a[4], b[3];
    sg_init_table(a, 4);
    sg_init_table(b, 3);
    sg_chain(a, 4, b);
    sg_mark_end(&a[3]);
    EXPECT_FALSE(sg_is_chain(&a[3]));
    EXPECT_TRUE(sg_is_last(&a[3]));
    EXPECT_EQ(sg_nents(a), 4);
}

TEST(sglist_entry_plain, UnmarkEndLetsTheWalkContinue) {
    scatterlist a[4];
    sg_init_table(a, 4);
    sg_mark_end(&a[1]);
    EXPECT_EQ(sg_nents(a), 2);
    sg_unmark_end(&a[1]);
    EXPECT_EQ(sg_nents(a), 4);
}

TEST_F(sglist_entry, SgNextOfTheLastEntryIsNull) {
    // A heap array: GCC's -Warray-bounds cannot see that a[1] is marked
    // last and would flag the a[2] that sg_next() never reaches.
    auto* a = static_cast<scatterlist*>(kmalloc_array(2, sizeof(scatterlist), GFP_KERNEL));
    sg_init_table(a, 2);
    EXPECT_EQ(sg_next(&a[0]), &a[1]);
    EXPECT_EQ(sg_next(&a[1]), nullptr);
    kfree(a);
}

TEST_F(sglist_entry, SgLastFollowsChainLinks) {
    scatterlist a[4], b[3];
    sg_init_table(a, 4);
    sg_init_table(b, 3);
    sg_chain(a, 4, b);
    EXPECT_EQ(sg_last(a, 6), &b[2]);
    EXPECT_EQ(sg_last(a, 4), &b[0]);  // a[0..2] then b[0]
    EXPECT_EQ(sg_last(a, 1), &a[0]);
}

TEST_F(sglist_entry, NentsForLenCountsEntriesUntilTheLengthIsCovered) {
    scatterlist a[3];
    sg_init_table(a, 3);
    fill(a, 3);  // lengths 100, 200, 300
    EXPECT_EQ(sg_nents_for_len(a, 0), 0);
    EXPECT_EQ(sg_nents_for_len(a, 100), 1);
    EXPECT_EQ(sg_nents_for_len(a, 101), 2);
    EXPECT_EQ(sg_nents_for_len(a, 100 + 200 + 300), 3);
}

TEST_F(sglist_entry, NentsForLenFailsWhenTheListIsTooShort) {
    scatterlist a[3];
    sg_init_table(a, 3);
    fill(a, 3);
    EXPECT_EQ(sg_nents_for_len(a, 100 + 200 + 300 + 1), -EINVAL);
}

TEST_F(sglist_entry, NentsForLenCrossesChainLinks) {
    scatterlist a[2], b[2];
    sg_init_table(a, 2);
    sg_init_table(b, 2);
    fill(a, 1);      // 100
    fill(b, 2, 20);  // 100, 200
    sg_chain(a, 2, b);
    EXPECT_EQ(sg_nents_for_len(a, 150), 2);
    EXPECT_EQ(sg_nents_for_len(a, 400), 3);
}

TEST_F(sglist_entry, ForEachSgVisitsExactlyNentsEntries) {
    scatterlist a[5];
    sg_init_table(a, 5);
    fill(a, 5);
    scatterlist* sg;
    unsigned i, total = 0, visited = 0;
    for_each_sg(a, sg, 3, i) {
        total += sg->length;
        visited++;
    }
    EXPECT_EQ(visited, 3u);
    EXPECT_EQ(total, 100u + 200u + 300u);
}

TEST(sglist_entry_plain, DmaAccessorsAreTheDmaFields) {
    scatterlist sg;
    sg_init_table(&sg, 1);
    sg_dma_address(&sg) = 0x1234000;
    sg_dma_len(&sg) = 777;
    EXPECT_EQ(sg.dma_address, 0x1234000u);
    EXPECT_EQ(sg.dma_length, 777u);
}
