// Trace hooks: one slice per descriptor fetch, decode, read and write
// burst and write-back, with the arguments a reader needs; an instant per
// interrupt; counters whose changes balance; per-channel tracks.
#include <gtest/gtest.h>

#include <map>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kSrc = 0x100000, kDst = 0x800000;

struct SixDescriptorsOverTwoChunks : ::testing::Test {
    static constexpr unsigned n = 6;
    static constexpr uint32_t length = 1000;
    PlatformParams p;
    std::unique_ptr<Rig> rig;
    TraceRecorder rec;
    ChannelStats st;

    void SetUp() override {
        rig = std::make_unique<Rig>(p);
        rig->platform().set_trace(&rec);
        std::vector<Seg> segs = segments(kSrc, kDst, n, length, 4096);
        segs[2].flags = DMA_DESC_IRQ;
        // Two page-aligned chunks of 3 descriptors: one fetch burst each.
        uint64_t d = write_chained(rig->host(0), segs, {0x10000, 0x20000});
        ASSERT_NE(rig->transfer(d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES)), 0u);
        rig->platform().set_trace(nullptr);
        st = rig->platform().channel_stats(0);
    }
};

TEST_F(SixDescriptorsOverTwoChunks, OneSliceOrInstantPerActivity) {
    EXPECT_EQ(rec.count(TraceTrack::fetch, 0, "fetch"), 2u);
    EXPECT_EQ(rec.count(TraceTrack::decode, 0, "decode"), n);
    EXPECT_EQ(rec.count(TraceTrack::decode, 0, "chain link"), 1u);
    EXPECT_EQ(rec.count(TraceTrack::read, 0, "read"), st.read_bursts);
    EXPECT_EQ(rec.count(TraceTrack::write, 0, "write"), st.write_bursts);
    EXPECT_EQ(rec.count(TraceTrack::writeback, 0, "write-back"), n);
    // The IRQ-flagged descriptor, then the channel stopping with IRQ_EN.
    EXPECT_EQ(rec.count(TraceTrack::irq, 0, "irq"), 2u);
    // Every memory burst shows on the RAM channels: fetches, reads, writes, write-backs.
    EXPECT_EQ(rec.count(TraceTrack::ram_read, 0), 2 + st.read_bursts);
    EXPECT_EQ(rec.count(TraceTrack::ram_write, 0), st.write_bursts + n);
    for (const TraceRecorder::Record& r : rec.records) EXPECT_LE(r.start, r.end) << r.what;
}

TEST_F(SixDescriptorsOverTwoChunks, FetchArgumentsAccountForEveryByteFetched) {
    uint64_t slots = 0, over = 0;
    for (const auto& r : rec.records) {
        if (r.track != TraceTrack::fetch) continue;
        slots += r.args.slots;
        over += r.args.over_prefetched;
        EXPECT_EQ(r.args.bytes, r.args.slots * DMA_HW_DESC_SIZE);
    }
    EXPECT_EQ(slots * DMA_HW_DESC_SIZE, st.descriptor_bytes_fetched);
    // Slots read but never used: all but the data descriptors and the chain slot.
    EXPECT_EQ(over, slots - (n + 1));
}

TEST_F(SixDescriptorsOverTwoChunks, BurstsNameTheirDescriptorAndChunk) {
    std::map<uint64_t, uint64_t> bytes_by_descriptor;
    for (const auto& r : rec.records) {
        if (r.track != TraceTrack::read) continue;
        bytes_by_descriptor[r.args.descriptor] += r.args.bytes;
        // Descriptors 0-2 sit in the first chunk, 3-5 behind one chain link.
        EXPECT_EQ(r.args.chunk, r.args.descriptor < 3 ? 0u : 1u) << r.args.descriptor;
    }
    ASSERT_EQ(bytes_by_descriptor.size(), n);
    for (const auto& [index, bytes] : bytes_by_descriptor) EXPECT_EQ(bytes, length) << index;
}

TEST_F(SixDescriptorsOverTwoChunks, CountersReturnToZeroAndBytesMovedToTheTotal) {
    std::map<TraceCounter, int64_t> sum;
    for (const auto& c : rec.changes) sum[c.counter] += c.delta;
    EXPECT_EQ(sum[TraceCounter::reads_in_flight], 0);
    EXPECT_EQ(sum[TraceCounter::writes_in_flight], 0);
    EXPECT_EQ(sum[TraceCounter::buffer_bytes], 0);
    EXPECT_EQ(sum[TraceCounter::descriptor_fifo], 0);
    EXPECT_EQ(sum[TraceCounter::bytes_moved], int64_t(n) * length);
}

TEST_F(SixDescriptorsOverTwoChunks, EveryDescriptorHasALatency) {
    ASSERT_EQ(st.descriptor_latencies.count(), n);
    // A descriptor's latency covers at least its own fetch and its write-back.
    uint64_t shortest_fetch = ~0ull, shortest_writeback = ~0ull;
    for (const auto& r : rec.records) {
        if (r.track == TraceTrack::fetch)
            shortest_fetch = std::min(shortest_fetch, r.end - r.start);
        if (r.track == TraceTrack::writeback)
            shortest_writeback = std::min(shortest_writeback, r.end - r.start);
    }
    st.descriptor_latencies.for_each([&](uint64_t latency, uint64_t) {
        EXPECT_GE(latency, shortest_fetch + shortest_writeback);
    });
}

TEST(ModelTrace, TracksAreNamedPerChannel) {
    PlatformParams p;
    p.dma.channels = 2;
    Rig rig(p);
    TraceRecorder rec;
    rig.platform().set_trace(&rec);
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 1, 64, 0), {0x10000});
    rig.run([&] {
        rig.start(1, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        ASSERT_NE(rig.wait_idle(1, 100000), 0u);
    });
    EXPECT_EQ(rec.count(TraceTrack::fetch, 1), 1u);
    EXPECT_EQ(rec.count(TraceTrack::fetch, 0), 0u);
    EXPECT_EQ(rec.count(TraceTrack::read, 1), 1u);
}

TEST(ModelStats, PercentileIsNearestRank) {
    // 1..100 in any order: the p-th percentile by nearest rank is p itself.
    ValueCounts v;
    for (uint32_t i = 100; i >= 1; --i) v.add(i);
    EXPECT_EQ(v.percentile(50), 50u);
    EXPECT_EQ(v.percentile(90), 90u);
    EXPECT_EQ(v.percentile(99), 99u);
    EXPECT_EQ(v.count(), 100u);
    EXPECT_EQ(v.max(), 100u);
    ValueCounts one;
    one.add(7);
    EXPECT_EQ(one.percentile(99), 7u);
    EXPECT_EQ(ValueCounts().percentile(50), 0u);
}

TEST(ModelStats, LargeValuesCountAsExactlyAsSmallOnes) {
    // 90 values of 3 and 10 above the dense range: p90 is still 3 (rank 90),
    // p91 the smallest large value, p100 and max the largest.
    const uint64_t big = ValueCounts::kDenseLimit;
    ValueCounts v;
    for (int i = 0; i < 90; ++i) v.add(3);
    for (uint64_t i = 0; i < 10; ++i) v.add(static_cast<uint32_t>(big + 10 * i));
    EXPECT_EQ(v.percentile(90), 3u);
    EXPECT_EQ(v.percentile(91), big);
    EXPECT_EQ(v.percentile(100), big + 90);
    EXPECT_EQ(v.max(), big + 90);
    uint64_t values = 0, total = 0;
    v.for_each([&](uint64_t, uint64_t n) {
        values += 1;
        total += n;
    });
    EXPECT_EQ(values, 1u + 10u);  // one distinct small value, ten large
    EXPECT_EQ(total, 100u);
}

}  // namespace
}  // namespace dmasim::model::test
