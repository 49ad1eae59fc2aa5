// layout_test.cc - how descriptors are split over chunks (docs/descriptor-formats.md)
// and how segment lengths are drawn; no simulation needed.
#include <dmasim/workload/workload.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace {

std::vector<unsigned> split(unsigned entries, unsigned depth) {
    std::vector<unsigned> out;
    for (unsigned i = 0; i < depth; ++i) out.push_back(dmasim_chunk_entries(entries, depth, i));
    return out;
}

TEST(ChunkLayout, TenEntriesOverFourChunksSplitThreeThreeTwoTwo) {
    EXPECT_EQ(split(10, 4), (std::vector<unsigned>{3, 3, 2, 2}));
}

TEST(ChunkLayout, FirstEntriesModDepthChunksHoldTheCeiling) {
    for (unsigned entries = 1; entries <= 60; ++entries) {
        for (unsigned depth = 1; depth <= entries; ++depth) {
            const auto chunks = split(entries, depth);
            const unsigned ceil = (entries + depth - 1) / depth, floor = entries / depth;
            for (unsigned i = 0; i < depth; ++i)
                ASSERT_EQ(chunks[i], i < entries % depth ? ceil : floor)
                    << entries << " entries, depth " << depth << ", chunk " << i;
            ASSERT_EQ(std::accumulate(chunks.begin(), chunks.end(), 0u), entries);
        }
    }
}

TEST(ChunkLayout, ChainedPagesAddsOneChainSlotToEveryChunkButTheLast) {
    // 37 over 3: 13, 12, 12 data descriptors; the first two end in a link.
    EXPECT_EQ(dmasim_chunk_slots(DMA_HW_FMT_CHAINED_PAGES, 37, 3, 0), 14u);
    EXPECT_EQ(dmasim_chunk_slots(DMA_HW_FMT_CHAINED_PAGES, 37, 3, 1), 13u);
    EXPECT_EQ(dmasim_chunk_slots(DMA_HW_FMT_CHAINED_PAGES, 37, 3, 2), 12u);
}

TEST(ChunkLayout, LinkedListSlotsAreDataDescriptorsOnly) {
    EXPECT_EQ(dmasim_chunk_slots(DMA_HW_FMT_LINKED_LIST, 37, 3, 0), 13u);
    EXPECT_EQ(dmasim_chunk_slots(DMA_HW_FMT_LINKED_LIST, 37, 3, 2), 12u);
}

unsigned stride(dma_hw_format format, unsigned slot, int next_in_slot = 0, unsigned app = 0) {
    dmasim_xfer_spec spec{};
    spec.format = format;
    spec.desc_bytes = slot;
    spec.next_in_slot = next_in_slot;
    spec.app_words = app;
    return dmasim_desc_stride(&spec);
}

TEST(ChunkLayout, DescriptorSizesFollowTheFormat) {
    EXPECT_EQ(stride(DMA_HW_FMT_CHAINED_PAGES, 0), DMA_HW_DESC_SIZE);
    EXPECT_EQ(stride(DMA_HW_FMT_LINKED_LIST, 0), DMA_HW_LL_DESC_SIZE);
    // Each linked_list size is its chained_pages slot plus the next pointer.
    EXPECT_EQ(stride(DMA_HW_FMT_CHAINED_PAGES, 16), 16u);
    EXPECT_EQ(stride(DMA_HW_FMT_LINKED_LIST, 16), 16u + 8u);
    EXPECT_EQ(stride(DMA_HW_FMT_CHAINED_PAGES, 64), 64u);
    EXPECT_EQ(stride(DMA_HW_FMT_LINKED_LIST, 64), 64u + 16u);
}

TEST(ChunkLayout, NextInsideTheSlotKeepsTheSlotSize) {
    EXPECT_EQ(stride(DMA_HW_FMT_LINKED_LIST, 32, 1), 32u);
    EXPECT_EQ(stride(DMA_HW_FMT_LINKED_LIST, 64, 1), 64u);
    // chained_pages slots hold no next pointer: nothing changes.
    EXPECT_EQ(stride(DMA_HW_FMT_CHAINED_PAGES, 32, 1), 32u);
}

// PG021: 8 words + APP0..APP4 = 52 bytes, BDs at 0x40 alignment.
TEST(ChunkLayout, AppWordsRoundTheStrideUpToSixtyFourBytes) {
    EXPECT_EQ(stride(DMA_HW_FMT_LINKED_LIST, 32, 1, 5), 64u);    // 32 + 20 = 52
    EXPECT_EQ(stride(DMA_HW_FMT_LINKED_LIST, 32, 0, 1), 64u);    // 48 + 4 = 52
    EXPECT_EQ(stride(DMA_HW_FMT_LINKED_LIST, 64, 0, 1), 128u);   // 80 + 4 = 84
    EXPECT_EQ(stride(DMA_HW_FMT_CHAINED_PAGES, 16, 0, 1), 64u);  // 16 + 4 = 20
}

dmasim_seg_spec seg(dmasim_seg_dist dist, uint64_t bytes, uint64_t min, uint64_t max,
                    double sigma = 1.0) {
    dmasim_seg_spec s{};
    s.dist = dist;
    s.bytes = bytes;
    s.min = min;
    s.max = max;
    s.sigma = sigma;
    s.seed = 42;
    return s;
}

std::vector<uint32_t> draw(const dmasim_seg_spec& s, unsigned n) {
    dmasim_seg_rng rng;
    dmasim_seg_rng_init(&rng, &s);
    std::vector<uint32_t> out(n);
    for (auto& len : out) len = dmasim_seg_next_len(&rng, &s);
    return out;
}

TEST(SegmentLengths, FixedIsAlwaysTheSegmentSize) {
    for (uint32_t len : draw(seg(DMASIM_SEG_FIXED, 1001, 1, 8192), 100)) ASSERT_EQ(len, 1001u);
}

TEST(SegmentLengths, UniformStaysInBoundsAndCoversThem) {
    const auto lens = draw(seg(DMASIM_SEG_UNIFORM, 0, 10, 20), 2000);
    for (uint32_t len : lens) ASSERT_TRUE(len >= 10 && len <= 20) << len;
    // 2000 draws over 11 values: both ends appear.
    EXPECT_NE(std::find(lens.begin(), lens.end(), 10u), lens.end());
    EXPECT_NE(std::find(lens.begin(), lens.end(), 20u), lens.end());
}

TEST(SegmentLengths, LognormalHasTheRequestedMean) {
    // sigma 0.5 and bounds far from the mean: clamping is negligible, so the
    // sample mean of 20000 draws is within 3% of the mean (its standard
    // error is sqrt(exp(0.25) - 1) / sqrt(20000) = 0.4%).
    const auto lens = draw(seg(DMASIM_SEG_LOGNORMAL, 4096, 1, 1u << 30, 0.5), 20000);
    const double mean = std::accumulate(lens.begin(), lens.end(), 0.0) / lens.size();
    EXPECT_NEAR(mean, 4096.0, 0.03 * 4096);
}

TEST(SegmentLengths, LognormalIsClampedToTheBounds) {
    for (uint32_t len : draw(seg(DMASIM_SEG_LOGNORMAL, 4096, 1000, 5000, 2.0), 2000))
        ASSERT_TRUE(len >= 1000 && len <= 5000) << len;
}

TEST(SegmentLengths, SameSeedSameList) {
    const auto s = seg(DMASIM_SEG_UNIFORM, 0, 1, 100000);
    EXPECT_EQ(draw(s, 50), draw(s, 50));
}

}  // namespace
