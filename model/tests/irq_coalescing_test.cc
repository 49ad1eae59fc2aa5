// Interrupt coalescing (dma.irq_coalesce_count and
// dma.irq_coalesce_timeout_cycles, as AXI DMA's IRQThreshold and IRQDelay):
// how many interrupts a list of DMA_DESC_IRQ descriptors raises, and when
// the delay timer fires.
#include <gtest/gtest.h>

#include "support.h"

namespace dmasim::model {
namespace {

using namespace test;

constexpr uint64_t kDesc = 0x10000, kSrc = 0x100000, kDst = 0x800000;
constexpr uint32_t kSegment = 256;  // one burst: completions come >= 16 cycles apart

// Runs `n` one-burst descriptors, each flagged DMA_DESC_IRQ, mem_to_mem.
ChannelStats run_flagged(PlatformParams p, unsigned n, TraceRecorder* trace = nullptr) {
    Rig rig(p);
    if (trace) rig.platform().set_trace(trace);
    std::vector<Seg> segs = segments(kSrc, kDst, n, kSegment, 4096);
    for (Seg& s : segs) s.flags = DMA_DESC_IRQ;
    const uint64_t d = write_chained(rig.host(0), segs, {kDesc});
    EXPECT_NE(rig.transfer(d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES)), 0u);
    return rig.platform().channel_stats(0);
}

TEST(ModelIrqCoalescing, CountOfOneRaisesOneInterruptPerFlaggedCompletion) {
    const ChannelStats s = run_flagged(PlatformParams{}, 6);
    // 6 completions, each its own interrupt, plus the stop interrupt (IRQ_EN).
    EXPECT_EQ(s.irqs_raised, 6u + 1u);
    EXPECT_EQ(s.irq_completions_coalesced, 0u);
    EXPECT_EQ(s.irqs_by_timeout, 0u);
}

TEST(ModelIrqCoalescing, ThresholdRaisesOneInterruptPerCountCompletions) {
    PlatformParams p;
    p.dma.irq_coalesce_count = 4;
    p.dma.irq_coalesce_timeout_cycles = 1000000;  // never expires here
    const ChannelStats s = run_flagged(p, 10);
    // 10 = 4 + 4 + 2: two threshold interrupts, and the stop interrupt
    // reports the 2 still pending. Each interrupt folds in all its
    // completions but one: 3 + 3 + 1.
    EXPECT_EQ(s.irqs_raised, 10u / 4 + 1);
    EXPECT_EQ(s.irq_completions_coalesced, 3u + 3u + 1u);
    EXPECT_EQ(s.irqs_by_timeout, 0u);
}

TEST(ModelIrqCoalescing, DelayTimerRaisesEachCompletionWhenTheyComeFurtherApart) {
    PlatformParams p;
    p.dma.irq_coalesce_count = 4;
    p.dma.irq_coalesce_timeout_cycles = 1;  // shorter than any gap between completions
    const ChannelStats s = run_flagged(p, 6);
    // The timer expires after each of the first 5 completions; the last one
    // completes as the channel stops, so the stop interrupt reports it.
    EXPECT_EQ(s.irqs_by_timeout, 5u);
    EXPECT_EQ(s.irqs_raised, 5u + 1u);
    EXPECT_EQ(s.irq_completions_coalesced, 0u);
}

TEST(ModelIrqCoalescing, DelayInterruptRisesTimeoutPlusIrqLatencyAfterTheCompletion) {
    PlatformParams p;
    p.dma.irq_coalesce_count = 3;
    p.dma.irq_coalesce_timeout_cycles = 7;
    p.dma.data_overlap = false;  // completions far apart: the timer always expires
    TraceRecorder trace;
    run_flagged(p, 2, &trace);
    std::vector<uint64_t> writebacks, irqs;
    for (const auto& r : trace.records) {
        if (r.track == TraceTrack::writeback) writebacks.push_back(r.end);
        if (r.track == TraceTrack::irq) irqs.push_back(r.start);
    }
    ASSERT_EQ(writebacks.size(), 2u);
    // The line rises (the engine retires the interrupt) at the first
    // completion + timeout + irq latency, and for the stop at the second
    // completion + irq latency.
    ASSERT_GE(irqs.size(), 2u);
    EXPECT_EQ(irqs[0], writebacks[0] + 7 + p.dma.irq_latency_cycles);
    EXPECT_EQ(irqs.back(), writebacks[1] + p.dma.irq_latency_cycles);
}

}  // namespace
}  // namespace dmasim::model
