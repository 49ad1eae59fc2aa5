// Data mover: byte exactness, burst splitting, outstanding limits and the
// two throughput regimes, in all three directions.
#include <dmasim/model/device_port.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kDesc = 0x10000, kSrc = 0x100000, kDst = 0x800000;
const uint32_t kM2M = ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES);

/// Runs one transfer on channel 0; returns its cycles from START to idle.
uint64_t run_transfer(Rig& rig, uint64_t desc, uint32_t ctrl) {
    uint64_t cycles = rig.transfer(desc, ctrl);
    EXPECT_NE(cycles, 0u) << "transfer did not finish";
    return cycles;
}

TEST(ModelTransfer, OddOffsetsAndLengthsCopyExactly) {
    Rig rig(PlatformParams{});
    std::vector<Seg> segs = {{kSrc + 3, kDst + 1, 4999},
                             {kSrc + 0x4001, kDst + 0x200F, 1},
                             {kSrc + 0x8FF0, kDst + 0x4FFE, 8195}};
    fill_pattern(rig.host(kSrc), 0x10000, 7);
    fill_pattern(rig.host(kDst), 0x10000, 8);
    std::vector<uint8_t> expect(rig.host(kDst), rig.host(kDst) + 0x10000);
    for (const Seg& s : segs) std::memcpy(&expect[s.dst - kDst], rig.host(s.src), s.length);

    run_transfer(rig, write_chained(rig.host(0), segs, {kDesc}), kM2M);

    EXPECT_EQ(std::memcmp(expect.data(), rig.host(kDst), expect.size()), 0);
    ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(st.bytes, 4999u + 1 + 8195);
    EXPECT_EQ(st.descriptors, 3u);
}

// A channel's counters are read in place: they hold every descriptor
// latency's count, and a copy per interrupt made seed 21 of the soak (16
// Ki interrupts) take 6.3 s of CPU instead of 0.13 s.
TEST(ModelTransfer, ChannelStatsAreReadInPlaceNotCopied) {
    Rig rig(PlatformParams{});
    const ChannelStats& before = rig.platform().channel_stats(0);
    run_transfer(rig, write_chained(rig.host(0), {{kSrc, kDst, 100}}, {kDesc}), kM2M);
    EXPECT_EQ(&before, &rig.platform().channel_stats(0));
    EXPECT_EQ(before.descriptors, 1u);
    EXPECT_EQ(before.descriptor_latencies.count(), 1u);
}

TEST(ModelTransfer, SegmentCrossingA4KiBBoundaryIsSplitThere) {
    PlatformParams p;
    Rig rig(p);
    const uint64_t before = 0x80, after = 0x100;  // bytes either side of the boundary
    const uint64_t burst = p.dma.max_burst_beats * p.bus.width_bytes;
    std::vector<Seg> segs = {{kSrc + 0x1000 - before, kDst, uint32_t(before + after)}};
    run_transfer(rig, write_chained(rig.host(0), segs, {kDesc}), kM2M);
    // Reads: the part before the boundary, then the rest in full bursts.
    // Writes: the aligned destination needs only full bursts.
    uint64_t reads = 1 + (after + burst - 1) / burst;
    uint64_t writes = (before + after + burst - 1) / burst;
    EXPECT_EQ(rig.platform().channel_stats(0).read_bursts, reads);
    EXPECT_EQ(rig.platform().channel_stats(0).write_bursts, writes);
}

TEST(ModelTransfer, NoBurstExceedsMaxBurstBeats) {
    PlatformParams p;
    p.dma.max_burst_beats = 4;
    p.dma.max_outstanding_reads = 1;  // so each read span is exactly L + beats
    Rig rig(p);
    TraceRecorder rec;
    rig.platform().set_trace(&rec);
    std::vector<Seg> segs = {{kSrc + 5, kDst, 3000}};
    run_transfer(rig, write_chained(rig.host(0), segs, {kDesc}), kM2M);
    unsigned reads = 0;
    for (const TraceRecorder::Record& r : rec.records) {
        if (r.track != TraceTrack::read || r.channel != 0) continue;
        ++reads;
        EXPECT_LE(r.end - r.start, p.memory.read_latency_cycles + p.dma.max_burst_beats);
    }
    // 3000 bytes from offset 5 touch ceil((5 + 3000) / 16) words, 4 per burst.
    EXPECT_EQ(reads, (((5 + 3000) + 15) / 16 + 3) / 4);
}

TEST(ModelTransfer, OutstandingLimitsAreNeverExceeded) {
    PlatformParams p;
    p.dma.max_outstanding_reads = 3;
    p.dma.max_outstanding_writes = 2;
    Rig rig(p);
    run_transfer(rig, write_chained(rig.host(0), segments(kSrc, kDst, 4, 16384, 16384), {kDesc}),
                 kM2M);
    ChannelStats st = rig.platform().channel_stats(0);
    // Latency-bound reads fill every slot, so the maximum is the limit itself.
    EXPECT_EQ(st.max_reads_in_flight, 3u);
    EXPECT_LE(st.max_writes_in_flight, 2u);
    EXPECT_GE(st.max_writes_in_flight, 1u);
}

TEST(ModelTransfer, EnoughOutstandingReadsReachTheBusWidth) {
    PlatformParams p;
    const unsigned L = p.memory.read_latency_cycles, b = p.dma.max_burst_beats;
    p.dma.max_outstanding_reads = 1 + (L + b - 1) / b;  // O >= 1 + L/b
    Rig rig(p);
    const uint32_t bytes = 256 * KiB;
    uint64_t cycles = run_transfer(
        rig, write_chained(rig.host(0), segments(kSrc, kDst, 1, bytes, 0), {kDesc}), kM2M);
    EXPECT_GE(double(bytes) / cycles, 0.95 * p.bus.width_bytes);
}

TEST(ModelTransfer, OneOutstandingReadIsLatencyBound) {
    PlatformParams p;
    p.dma.max_outstanding_reads = 1;
    p.dma.max_outstanding_writes = 1;
    Rig rig(p);
    const uint32_t bytes = 256 * KiB;
    uint64_t cycles = run_transfer(
        rig, write_chained(rig.host(0), segments(kSrc, kDst, 1, bytes, 0), {kDesc}), kM2M);
    // Each burst of b beats waits L + b cycles before the next may issue.
    const double b = p.dma.max_burst_beats, L = p.memory.read_latency_cycles;
    double expected = b * p.bus.width_bytes / (L + b);
    EXPECT_NEAR(double(bytes) / cycles, expected, 0.02 * expected);
}

/// Cycles each full burst of a long segment adds with at most `m` bursts
/// from read issue to write response: segments of 48 and of 16 bursts,
/// one after the other on one rig (SystemC elaborates once a process).
double per_burst_cycles(unsigned m) {
    PlatformParams p;
    p.dma.max_bursts_in_flight = m;
    Rig rig(p);
    const uint32_t burst = p.dma.max_burst_beats * p.bus.width_bytes;
    auto cycles = [&](unsigned bursts) {
        return run_transfer(
            rig, write_chained(rig.host(0), segments(kSrc, kDst, 1, bursts * burst, 0), {kDesc}),
            kM2M);
    };
    const uint64_t few = cycles(16);
    return double(cycles(48) - few) / 32;
}

class ModelBurstsInFlight : public testing::TestWithParam<unsigned> {};

// docs/timing-model.md, "Read issue": read k waits for the response of the
// write of read k-M's bytes. A burst's round trip from its read's issue t:
// first beat at t + L, the cut-through write goes a cycle later and its
// b beats end at t + L + 1 + b, its response WL after. M bursts share that
// round trip, so each burst more costs (L + 1 + b + WL) / M while that is
// more than the b beats the read channel needs.
TEST_P(ModelBurstsInFlight, ShareOneReadToResponseRoundTrip) {
    const PlatformParams p;
    const unsigned m = GetParam();
    const double trip =
        p.memory.read_latency_cycles + 1 + p.dma.max_burst_beats + p.memory.write_latency_cycles;
    ASSERT_GT(trip / m, p.dma.max_burst_beats) << "M = " << m << " would be bus-bound";
    EXPECT_NEAR(per_burst_cycles(m), trip / m, 1.0);
}

INSTANTIATE_TEST_SUITE_P(M, ModelBurstsInFlight, testing::Values(1u, 2u, 4u));

// 0 bounds nothing: with the default 16 reads in flight a long segment
// moves at the bus's rate, b cycles a burst.
TEST(ModelTransfer, ZeroBurstsInFlightLeavesTheBusRate) {
    EXPECT_NEAR(per_burst_cycles(0), PlatformParams{}.dma.max_burst_beats, 0.5);
}

// One descriptor of one full burst, timed end to end (docs/timing-model.md):
// fetch (one prefetch burst of P slots) + decode + read + write + write-back.
uint64_t one_burst_descriptor_cycles(WritePolicy policy) {
    PlatformParams p;
    p.dma.write_policy = policy;
    Rig rig(p);
    const uint32_t len = p.dma.max_burst_beats * p.bus.width_bytes;
    return run_transfer(rig, write_chained(rig.host(0), segments(kSrc, kDst, 1, len, 0), {kDesc}),
                        kM2M);
}

TEST(ModelTransfer, OneDescriptorLifeMatchesTheCutThroughEquation) {
    PlatformParams p;
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t b = p.dma.max_burst_beats;
    const uint64_t fetch = L + p.dma.descriptor_prefetch * DMA_HW_DESC_SIZE / p.bus.width_bytes;
    // Cut-through: the write starts one cycle after the first read beat.
    uint64_t expected = fetch + p.dma.descriptor_setup_cycles + (L + 1) + (b + WL) + (1 + WL);
    EXPECT_EQ(one_burst_descriptor_cycles(WritePolicy::cut_through), expected);
}

TEST(ModelTransfer, OneDescriptorLifeMatchesTheStoreAndForwardEquation) {
    PlatformParams p;
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t b = p.dma.max_burst_beats;
    const uint64_t fetch = L + p.dma.descriptor_prefetch * DMA_HW_DESC_SIZE / p.bus.width_bytes;
    // Store-and-forward: the write waits for the whole read burst.
    uint64_t expected = fetch + p.dma.descriptor_setup_cycles + (L + b) + (b + WL) + (1 + WL);
    EXPECT_EQ(one_burst_descriptor_cycles(WritePolicy::store_and_forward), expected);
}

TEST(ModelTransfer, DeviceToMemoryWritesTheDeviceStreamInOrder) {
    Rig rig(PlatformParams{});
    std::vector<Seg> segs = segments(0, kDst, 3, 1000, 4096);
    run_transfer(rig, write_chained(rig.host(0), segs, {kDesc}),
                 ctrl_word(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
    uint64_t k = 0;
    for (const Seg& s : segs)
        for (uint32_t i = 0; i < s.length; ++i, ++k)
            ASSERT_EQ(*rig.host(s.dst + i), DevicePort::pattern_byte(k)) << "stream byte " << k;
    EXPECT_EQ(rig.platform().device().produced(), 3000u);
}

TEST(ModelTransfer, MemoryToDeviceDeliversTheSegmentsInOrder) {
    Rig rig(PlatformParams{});
    fill_pattern(rig.host(kSrc), 0x4000, 3);
    std::vector<Seg> segs = segments(kSrc + 7, 0, 3, 777, 4096);
    run_transfer(rig, write_chained(rig.host(0), segs, {kDesc}),
                 ctrl_word(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES));
    uint64_t expect = DevicePort::kDigestSeed;
    for (const Seg& s : segs) expect = DevicePort::digest_of(rig.host(s.src), s.length, expect);
    EXPECT_EQ(rig.platform().device().sink_digest(), expect);
    EXPECT_EQ(rig.platform().device().consumed(), 3u * 777);
}

TEST(ModelTransfer, SlowDeviceSetsTheRate) {
    PlatformParams p;
    p.device.rate_bytes_per_cycle = 2;
    Rig rig(p);
    const uint32_t bytes = 64 * KiB;
    uint64_t cycles =
        run_transfer(rig, write_chained(rig.host(0), segments(0, kDst, 1, bytes, 0), {kDesc}),
                     ctrl_word(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
    EXPECT_NEAR(double(bytes) / cycles, 2.0, 0.02 * 2.0);
}

TEST(ModelTransfer, DeviceStreamsKeepOnlyTheChunksInFlight) {
    PlatformParams p;
    Rig rig(p);
    // 64 KiB in bursts of at most max_burst_beats x 16 bytes: 256 chunks
    // each way. A stream folds its chunks only behind SystemC time (the
    // engine books up to a quantum ahead of it) and behind the chunks
    // still in flight, so the chunks booked in a quantum and those in
    // flight stay listed, not the run's.
    const uint32_t bytes = 64 * KiB;
    const auto segs = segments(kSrc, kDst, 1, bytes, 0);
    run_transfer(rig, write_chained(rig.host(0), segs, {kDesc}),
                 ctrl_word(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
    run_transfer(rig, write_chained(rig.host(0), segs, {kDesc}),
                 ctrl_word(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES));
    const DevicePort& device = rig.platform().device();
    const uint64_t chunk = p.dma.max_burst_beats * p.bus.width_bytes;
    ASSERT_EQ(device.source_stats().bursts, bytes / chunk);
    const auto per_quantum =
        static_cast<uint64_t>(p.quantum_cycles * p.device.rate_bytes_per_cycle / chunk);
    EXPECT_LE(device.source_backlog(), per_quantum + p.dma.max_outstanding_reads);
    EXPECT_LE(device.sink_backlog(), per_quantum + p.dma.max_outstanding_writes);
}

TEST(ModelTransfer, StatusWriteBackMarksEachDescriptorDone) {
    Rig rig(PlatformParams{});
    std::vector<Seg> segs = segments(kSrc, kDst, 5, 300, 512);
    uint64_t d = write_chained(rig.host(0), segs, {kDesc});
    run_transfer(rig, d, kM2M);
    for (unsigned i = 0; i < segs.size(); ++i) {
        dma_hw_desc desc;
        std::memcpy(&desc, rig.host(d + i * DMA_HW_DESC_SIZE), sizeof desc);
        EXPECT_EQ(desc.status, DMA_DESC_STATUS_DONE) << i;
        EXPECT_EQ(desc.bytes_done, 300u) << i;
    }
}

TEST(ModelTransfer, DescriptorIrqFlagRaisesTheChannelBit) {
    Rig rig(PlatformParams{});
    std::vector<Seg> segs = segments(kSrc, kDst, 3, 64, 64);
    segs[1].flags = DMA_DESC_IRQ;
    uint64_t d = write_chained(rig.host(0), segs, {kDesc});
    rig.run([&] {
        rig.start(0, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, false));
        ASSERT_NE(rig.wait_idle(0, 100000), 0u);
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
        EXPECT_EQ(rig.cpu().reg(DMA_REG_IRQ_STATUS), 1u);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS), DMA_STATUS_DONE);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_DESCS_DONE), 3u);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_BYTES_DONE_LO), 3u * 64);
    });
}

// The channel plans ahead of simulated time, but a read of DESCS_DONE or
// BYTES_DONE counts only the write-backs done by the read's own cycle.
TEST(ModelTransfer, ProgressCountersCountOnlyWhatIsDoneByTheReadsCycle) {
    Rig rig(PlatformParams{});
    TraceRecorder trace;
    rig.platform().set_trace(&trace);
    constexpr uint32_t kLength = 1024;
    const uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 24, kLength, 4096), {kDesc});
    struct Sample {
        uint64_t descs_at, descs, bytes_at, bytes;
    };
    std::vector<Sample> samples;
    rig.run([&] {
        rig.start(0, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        while (rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS) & DMA_STATUS_BUSY) {
            Sample s;
            s.descs = rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_DESCS_DONE);
            s.descs_at = rig.now_cycle();  // a read takes effect as it returns
            s.bytes = rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_BYTES_DONE_LO);
            s.bytes_at = rig.now_cycle();
            samples.push_back(s);
        }
    });
    std::vector<uint64_t> done;
    for (const auto& r : trace.records)
        if (r.track == TraceTrack::writeback) done.push_back(r.end);
    ASSERT_EQ(done.size(), 24u);
    const auto done_by = [&](uint64_t c) {
        return static_cast<uint64_t>(
            std::count_if(done.begin(), done.end(), [c](uint64_t e) { return e <= c; }));
    };
    unsigned between = 0;
    for (const Sample& s : samples) {
        EXPECT_EQ(s.descs, done_by(s.descs_at)) << "read at cycle " << s.descs_at;
        EXPECT_EQ(s.bytes, done_by(s.bytes_at) * kLength) << "read at cycle " << s.bytes_at;
        between += s.descs > 0 && s.descs < 24;
    }
    EXPECT_GT(between, 3u);  // the samples saw the transfer in progress
}

TEST(ModelTransfer, NoInterruptWithoutIrqEnableOrFlag) {
    Rig rig(PlatformParams{});
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 2, 64, 64), {kDesc});
    rig.run([&] {
        rig.start(0, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, false));
        ASSERT_NE(rig.wait_idle(0, 100000), 0u);
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
        EXPECT_EQ(rig.cpu().reg(DMA_REG_IRQ_STATUS), 0u);
    });
}

TEST(ModelTransfer, SmallSegmentsApproachTheReadChannelBound) {
    // 256-byte segments: per descriptor the read channel carries its data
    // beats plus 1/P of a P-slot descriptor fetch; write-backs use the
    // write channel and must not hold up the next descriptor's writes.
    PlatformParams p;
    Rig rig(p);
    const unsigned n = 256, len = 256, W = p.bus.width_bytes, P = p.dma.descriptor_prefetch;
    uint64_t cycles = run_transfer(
        rig, write_chained(rig.host(0), segments(kSrc, kDst, n, len, len), {kDesc}), kM2M);
    double beats_per_desc = double(len) / W + double(P * DMA_HW_DESC_SIZE) / W / P;
    double bound = len / beats_per_desc;
    EXPECT_GE(double(n) * len / cycles, 0.85 * bound);
}

TEST(ModelTransfer, SerialDescriptorsAreSlowerThanOverlapped) {
    // Without overlap each descriptor waits for the previous write-back, so
    // n descriptors cost at least n round trips of read + write latency.
    PlatformParams p;
    p.dma.data_overlap = false;
    Rig rig(p);
    const unsigned n = 32, len = 256;
    uint64_t cycles = run_transfer(
        rig, write_chained(rig.host(0), segments(kSrc, kDst, n, len, len), {kDesc}), kM2M);
    const unsigned beats = len / p.bus.width_bytes;
    // Cut-through: read latency and first beat, the write burst and its
    // response, then the one-beat write-back and its response.
    uint64_t per_desc = (p.memory.read_latency_cycles + 1) +
                        (beats + p.memory.write_latency_cycles) +
                        (1 + p.memory.write_latency_cycles);
    EXPECT_GE(cycles, n * per_desc);
}

}  // namespace
}  // namespace dmasim::model::test
