// The costs of a serial engine (axisgdma's) that a fetch-ahead queue does
// not hide (docs/timing-model.md): the launch between one descriptor's end
// and the next one's first read, a stage before every write, writes that
// wait for the word after them, and a chain link followed only when the
// mover asks. Each case checks the equation's cycles.
#include <gtest/gtest.h>

#include "support.h"

namespace dmasim::model {
namespace {

using namespace test;

constexpr uint64_t kDesc = 0x10000, kDesc2 = 0x20000, kSrc = 0x100000, kDst = 0x800000;

// A serial mover, no write-back, so a descriptor ends at its last write
// response and nothing but the knob under test sits between two.
PlatformParams serial() {
    PlatformParams p;
    p.dma.data_overlap = false;
    p.dma.status_writeback = DMA_HW_WB_NONE;
    return p;
}

uint32_t burst_bytes(const PlatformParams& p) { return p.dma.max_burst_beats * p.bus.width_bytes; }

// Read issue to write response of one full cut-through burst: its first
// beat after L, the write one cycle later, b beats and the response.
uint64_t burst_life(const PlatformParams& p) {
    return p.memory.read_latency_cycles + 1 + p.dma.max_burst_beats + p.memory.write_latency_cycles;
}

// The first fetch of P slots and its decode.
uint64_t first_ready(const PlatformParams& p) {
    return p.dma.start_latency_cycles + p.memory.read_latency_cycles +
           p.dma.descriptor_prefetch * DMA_HW_DESC_SIZE / p.bus.width_bytes +
           p.dma.descriptor_setup_cycles;
}

uint64_t run_list(const PlatformParams& p, unsigned count, const std::vector<uint64_t>& chunks,
                  uint32_t length = 0) {
    Rig rig(p);
    const uint32_t bytes = length ? length : burst_bytes(p);
    const uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, count, bytes, 4096), chunks);
    return rig.transfer(d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
}

// Both descriptors come in the first fetch, so the second is decoded long
// before the first ends; its read still waits Λ after that end:
// first_ready + life + Λ + life.
TEST(ModelSerialMover, LaunchCyclesSeparateDescriptorsOnTheCriticalPath) {
    PlatformParams p = serial();
    p.dma.descriptor_launch_cycles = 30;
    EXPECT_EQ(run_list(p, 2, {kDesc}), first_ready(p) + burst_life(p) + 30 + burst_life(p));
}

// Without the launch the second read issues at the first one's end.
TEST(ModelSerialMover, NoLaunchCyclesStartTheNextDescriptorAtTheEnd) {
    PlatformParams p = serial();
    EXPECT_EQ(run_list(p, 2, {kDesc}), first_ready(p) + 2 * burst_life(p));
}

// The launch counts from START too, but the first descriptor's fetch and
// decode take longer than a short launch: it changes nothing there.
TEST(ModelSerialMover, ShortLaunchCostsNothingBeforeTheFirstDescriptor) {
    PlatformParams p = serial();
    p.dma.descriptor_launch_cycles = 10;
    ASSERT_LT(10u, first_ready(p));
    EXPECT_EQ(run_list(p, 1, {kDesc}), first_ready(p) + burst_life(p));
}

// Store-and-forward: the write waits for the whole read burst (L + b
// instead of L + 1), then X more cycles before it issues.
TEST(ModelSerialMover, WriteIssueLatencyFollowsTheWritePolicy) {
    PlatformParams p = serial();
    p.dma.write_policy = WritePolicy::store_and_forward;
    p.dma.write_issue_latency_cycles = 2;
    const uint64_t b = p.dma.max_burst_beats;
    EXPECT_EQ(run_list(p, 1, {kDesc}), first_ready(p) + burst_life(p) - 1 + b + 2);
}

// A device-to-memory write pays both stages: every write's and the stream's.
TEST(ModelSerialMover, StreamWritesAddTheirOwnLatencyToEveryWritesLatency) {
    PlatformParams p = serial();
    p.dma.write_issue_latency_cycles = 2;
    p.dma.stream_write_latency_cycles = 3;
    Rig rig(p);
    const uint64_t d = write_chained(rig.host(0), segments(0, kDst, 1, burst_bytes(p), 0), {kDesc});
    // The stream's first word is in one cycle after the read issues.
    const uint64_t life = 1 + 2 + 3 + p.dma.max_burst_beats + p.memory.write_latency_cycles;
    EXPECT_EQ(rig.transfer(d, ctrl_word(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES)),
              first_ready(p) + life);
}

// One segment of four bursts through a buffer of two, store-and-forward.
// Reads 1 and 2 go at t0; read k > 2 waits for write k-2 to drain. A
// middle write waiting for the next read's first beat (L after that read
// issues) then holds up the read after it: writes 2 and 3 each start
// L + 1 later than that read's issue, and the segment ends L + 3 later
// than without the wait (4 bursts of b beats, t0 = first_ready):
//   without: t0 + 2L + 5b + WL        with: t0 + 3L + 5b + 3 + WL
uint64_t four_bursts_through_two(bool waits) {
    PlatformParams p = serial();
    p.dma.write_policy = WritePolicy::store_and_forward;
    p.dma.buffer_bytes = 2 * burst_bytes(p);
    p.dma.write_waits_for_next_word = waits;
    return run_list(p, 1, {kDesc}, 4 * burst_bytes(p));
}

TEST(ModelSerialMover, WriteWaitingForTheNextWordShowsTheReadLatencyOfMiddleBursts) {
    const PlatformParams p = serial();
    const uint64_t L = p.memory.read_latency_cycles, b = p.dma.max_burst_beats;
    EXPECT_EQ(four_bursts_through_two(true),
              first_ready(p) + 3 * L + 5 * b + 3 + p.memory.write_latency_cycles);
}

TEST(ModelSerialMover, WritesNotWaitingForTheNextWordFollowTheirOwnReads) {
    const PlatformParams p = serial();
    const uint64_t L = p.memory.read_latency_cycles, b = p.dma.max_burst_beats;
    EXPECT_EQ(four_bursts_through_two(false),
              first_ready(p) + 2 * L + 5 * b + p.memory.write_latency_cycles);
}

// Two chunks of one descriptor each, P = 2 so a chunk's data slot and
// chain slot come in one read. On demand, the link is decoded only when
// the mover, done with the first descriptor at r0, asks for the next:
// r0 + C, then the target chunk's read (L + 2 slots) and its decode S.
TEST(ModelSerialMover, ChainLinkOnDemandIsDecodedAfterThePreviousDescriptorsEnd) {
    PlatformParams p = serial();
    p.dma.descriptor_prefetch = 2;
    p.dma.chain_link_on_demand = true;
    const uint64_t r0 = first_ready(p) + burst_life(p);
    const uint64_t second_ready =
        r0 + p.dma.chain_link_cycles + first_ready(p) - p.dma.start_latency_cycles;
    EXPECT_EQ(run_list(p, 2, {kDesc, kDesc2}), second_ready + burst_life(p));
}

// Held links change nothing when the queue still holds the next descriptor:
// two descriptors in one chunk run as without the knob.
TEST(ModelSerialMover, ChainLinkOnDemandLeavesAChunkWithoutLinksAlone) {
    PlatformParams p = serial();
    p.dma.chain_link_on_demand = true;
    EXPECT_EQ(run_list(p, 2, {kDesc}), first_ready(p) + 2 * burst_life(p));
}

}  // namespace
}  // namespace dmasim::model
