// scoreboard_test.cc - the scoreboard fills and checks a long list in
// parts, one per core: the stream runs on unbroken across the parts and
// the mismatch reported is the first in list order, whichever part found it.
#include <dmasim/workload/workload.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "scoreboard.h"

namespace dmasim::tb {
namespace {

// 12 MiB: long enough to be split across the cores of any CI machine.
constexpr unsigned kEntries = 3072;
constexpr uint32_t kSegmentBytes = 4000;
constexpr uint32_t kOffset = 96;  // segment plus offset fill the page
constexpr uint64_t kBase = 12345;

class ScoreboardParts : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(sim_mem_init(uint64_t{64} << 20, SIM_MEM_SCATTERED, 9), 0);
        dmasim_seg_spec seg{};
        seg.dist = DMASIM_SEG_FIXED;
        seg.bytes = kSegmentBytes;
        seg.offset = kOffset;
        seg.seed = 1;
        seg.layout = DMASIM_BUF_PAGES;
        ASSERT_EQ(dmasim_buf_alloc(&sgt_, kEntries, &seg), 0);
        scatterlist* sg;
        unsigned int i;
        for_each_sgtable_sg(&sgt_, sg, i) segments_.push_back(sg);
    }
    void TearDown() override {
        dmasim_buf_free(&sgt_, DMASIM_BUF_PAGES);
        sim_mem_exit();
    }

    uint8_t* byte(unsigned segment, int at) {
        scatterlist* sg = segments_[segment];
        return static_cast<uint8_t*>(page_address(sg_page(sg))) + sg->offset + at;
    }
    uint64_t bus(unsigned segment, int at) {
        return page_to_phys(sg_page(segments_[segment])) + segments_[segment]->offset + at;
    }

    sg_table sgt_{};
    std::vector<scatterlist*> segments_;
    Scoreboard board_{77};
};

TEST_F(ScoreboardParts, TheStreamRunsOnUnbrokenAcrossParts) {
    board_.fill_source(sgt_, kBase);
    const Pattern pattern(77);
    for (unsigned s : {0u, 1u, kEntries / 2 - 1, kEntries / 2, kEntries / 2 + 1, kEntries - 1}) {
        size_t avail;
        const uint64_t pos = kBase + uint64_t{s} * kSegmentBytes;
        EXPECT_EQ(*byte(s, 0), *pattern.at(pos, avail)) << "segment " << s;
        EXPECT_EQ(*byte(s, kSegmentBytes - 1), *pattern.at(pos + kSegmentBytes - 1, avail))
            << "segment " << s;
    }
    EXPECT_FALSE(board_.compare(sgt_, kBase, "source"));
}

TEST_F(ScoreboardParts, TheFirstMismatchInListOrderIsReported) {
    board_.fill_source(sgt_, kBase);
    const unsigned early = 100, late = kEntries - 10;
    *byte(late, 5) ^= 0xFF;
    *byte(early, 7) ^= 0xFF;

    auto m = board_.compare(sgt_, kBase, "destination");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->bus_address, bus(early, 7));
    EXPECT_NE(m->what.find("segment 100 byte 7"), std::string::npos) << m->what;

    *byte(early, 7) ^= 0xFF;
    m = board_.compare(sgt_, kBase, "destination");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->bus_address, bus(late, 5));
    EXPECT_NE(m->what.find(fmt::format("segment {} byte 5", late)), std::string::npos) << m->what;
}

TEST_F(ScoreboardParts, AStreamStartingElsewhereFailsAtTheFirstByte) {
    board_.fill_source(sgt_, kBase);
    const auto m = board_.compare(sgt_, kBase + 1, "destination");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->bus_address, bus(0, 0));
}

TEST_F(ScoreboardParts, AByteWrittenOutsideALateSegmentIsCaught) {
    Scoreboard::fill_destination(sgt_, DMASIM_BUF_PAGES);
    EXPECT_FALSE(Scoreboard::compare_fill(sgt_, true, DMASIM_BUF_PAGES));

    const unsigned late = kEntries - 3;
    *byte(late, 0) = 0x11;  // inside the segment: allowed once written
    EXPECT_FALSE(Scoreboard::compare_fill(sgt_, false, DMASIM_BUF_PAGES));
    const auto inside = Scoreboard::compare_fill(sgt_, true, DMASIM_BUF_PAGES);
    ASSERT_TRUE(inside);
    EXPECT_EQ(inside->bus_address, bus(late, 0));

    *byte(late, -1) = 0;  // the last byte of the offset before it
    const auto outside = Scoreboard::compare_fill(sgt_, false, DMASIM_BUF_PAGES);
    ASSERT_TRUE(outside);
    EXPECT_EQ(outside->bus_address, bus(late, -1));
    EXPECT_NE(outside->what.find("outside the segment"), std::string::npos) << outside->what;
}

// Fresh frames already hold the segment fill (zero): only the bytes around
// the segments are written, yet a byte the DMA skips is still reported.
TEST_F(ScoreboardParts, AFreshDestinationStillCatchesAnUnwrittenByte) {
    Scoreboard::fill_destination(sgt_, DMASIM_BUF_PAGES);
    EXPECT_EQ(*byte(0, -1), kDestinationFill);
    EXPECT_EQ(*byte(0, kSegmentBytes), kDestinationFill);
    EXPECT_FALSE(Scoreboard::compare_fill(sgt_, true, DMASIM_BUF_PAGES));

    board_.fill_source(sgt_, kBase);  // as the DMA would write it...
    EXPECT_FALSE(board_.compare(sgt_, kBase, "destination"));
    const unsigned late = kEntries - 7;
    int skipped = 0;  // ...but for one byte (one whose pattern is not the fill)
    while (*byte(late, skipped) == kSegmentFill) ++skipped;
    *byte(late, skipped) = kSegmentFill;
    const auto m = board_.compare(sgt_, kBase, "destination");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->bus_address, bus(late, skipped));
}

// Frames freed by an earlier list hold its bytes: they are filled again.
TEST(ScoreboardReuse, ADestinationInReusedFramesIsFilled) {
    ASSERT_EQ(sim_mem_init(uint64_t{16} << 20, SIM_MEM_CONTIGUOUS, 0), 0);
    dmasim_seg_spec seg{};
    seg.dist = DMASIM_SEG_FIXED;
    seg.bytes = kSegmentBytes;
    seg.offset = kOffset;
    seg.layout = DMASIM_BUF_PAGES;
    const Scoreboard board(5);
    sg_table first{}, second{};
    ASSERT_EQ(dmasim_buf_alloc(&first, 64, &seg), 0);
    board.fill_source(first, 0);
    Scoreboard::fill_destination(first, DMASIM_BUF_PAGES);  // the segments are fresh
    board.fill_source(first, 0);                            // an earlier transfer's bytes
    const uint64_t first_bus = page_to_phys(sg_page(first.sgl));
    dmasim_buf_free(&first, DMASIM_BUF_PAGES);

    ASSERT_EQ(dmasim_buf_alloc(&second, 64, &seg), 0);
    ASSERT_EQ(page_to_phys(sg_page(second.sgl)), first_bus) << "contiguous: the same frames";
    Scoreboard::fill_destination(second, DMASIM_BUF_PAGES);
    EXPECT_FALSE(Scoreboard::compare_fill(second, true, DMASIM_BUF_PAGES));
    dmasim_buf_free(&second, DMASIM_BUF_PAGES);
    sim_mem_exit();
}

TEST_F(ScoreboardParts, AByteChangedInsideANeverWrittenSegmentIsCaught) {
    Scoreboard::fill_destination(sgt_, DMASIM_BUF_PAGES);
    *byte(3, 11) = kDestinationFill;
    const auto m = Scoreboard::compare_fill(sgt_, true, DMASIM_BUF_PAGES);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->bus_address, bus(3, 11));
    EXPECT_FALSE(Scoreboard::compare_fill(sgt_, false, DMASIM_BUF_PAGES));
}

}  // namespace
}  // namespace dmasim::tb
