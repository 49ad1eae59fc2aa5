// Burst splitting rules (burst.h), without SystemC.
#include <gtest/gtest.h>

#include "burst.h"

namespace dmasim::model {
namespace {

constexpr unsigned W = 16, B = 16;  // bus width, max beats

TEST(ModelBurst, AlignedRangeIsCutIntoMaxBeatBursts) {
    EXPECT_EQ(burst_end(0x1000, 0x2000, W, B), 0x1000u + W * B);
}

TEST(ModelBurst, BurstStopsAtTheNext4KiBBoundary) {
    // 0x80 bytes before the boundary: the burst may not run past it.
    EXPECT_EQ(burst_end(0x1F80, 0x3000, W, B), 0x2000u);
}

TEST(ModelBurst, UnalignedStartCountsThePartialFirstBeat) {
    // Starting 3 bytes into a word: the burst still touches only B words.
    uint64_t end = burst_end(0x1003, 0x2000, W, B);
    EXPECT_EQ(end, 0x1000u + W * B);
    EXPECT_EQ(beats_of(0x1003, end - 0x1003, W), B);
}

TEST(ModelBurst, OddLengthTouchesEveryWordItCovers) {
    // Bytes 0xF..0x21 touch words 0, 1 and 2.
    EXPECT_EQ(beats_of(0xF, 0x13, W), 3u);
    EXPECT_EQ(beats_of(0x10, 1, W), 1u);
}

TEST(ModelBurst, WideBurstsAreStillCutAtThePage) {
    // 128 beats of 64 bytes would be 8 KiB: the page boundary wins.
    EXPECT_EQ(burst_end(0x0, 0x10000, 64, 128), kBurstBoundary);
}

}  // namespace
}  // namespace dmasim::model
