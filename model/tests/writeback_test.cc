// writeback_test.cc - a descriptor's status write-back reaches memory at
// the cycle the write completes, not when the engine plans it (up to a
// quantum earlier): software polling a status word sees DONE exactly when
// DESCS_DONE counts the descriptor, and never for work ABORT dropped.
#include <gtest/gtest.h>

#include <map>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kDesc = 0x10000, kSrc = 0x100000, kDst = 0x800000;
constexpr uint32_t kSegment = 2048;

uint32_t ch_reg(Rig& rig, uint32_t offset) { return rig.cpu().reg(DMA_CH_BASE(0) + offset); }

/// Whether the 32-byte chained_pages descriptor k in one chunk at kDesc
/// shows DONE in memory.
bool shows_done(Rig& rig, unsigned k) {
    const dma_hw_layout l{DMA_HW_FMT_CHAINED_PAGES, DMA_HW_DESC_SIZE, 0, 0};
    uint32_t status = 0;
    std::memcpy(&status, rig.host(kDesc + k * DMA_HW_DESC_SIZE + dma_hw_layout_status_offset(&l)),
                sizeof status);
    return status & DMA_DESC_STATUS_DONE;
}

unsigned done_in_memory(Rig& rig, unsigned descriptors) {
    unsigned done = 0;
    for (unsigned k = 0; k < descriptors; ++k) done += shows_done(rig, k);
    return done;
}

// The CPU reads DESCS_DONE and then the status words at every cycle (a
// register read costs nothing here, so it lands at the cycle it is made):
// each word turns DONE at the end of its write-back's trace slice, the
// cycle its write response arrives, and never disagrees with DESCS_DONE.
TEST(ModelWriteback, StatusWordShowsDoneFromItsWriteBackCycleOn) {
    constexpr unsigned kDescriptors = 3;
    PlatformParams p;
    p.bus.mmio_latency_cycles = 0;
    Rig rig(p);
    TraceRecorder trace;
    rig.platform().set_trace(&trace);
    write_chained(rig.host(0), segments(kSrc, kDst, kDescriptors, kSegment, 4096), {kDesc});
    const sc_core::sc_time cycle(1000.0 / p.clock_mhz, sc_core::SC_NS);
    std::map<unsigned, uint64_t> first_done;  // descriptor -> first cycle it showed DONE
    rig.run([&] {
        rig.start(0, kDesc, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, false));
        for (bool busy = true; busy; sc_core::wait(cycle)) {
            busy = ch_reg(rig, DMA_CH_STATUS) & DMA_STATUS_BUSY;
            const uint32_t counted = ch_reg(rig, DMA_CH_DESCS_DONE);
            EXPECT_EQ(done_in_memory(rig, kDescriptors), counted) << "cycle " << rig.now_cycle();
            for (unsigned k = 0; k < kDescriptors; ++k)
                if (shows_done(rig, k) && !first_done.count(k)) first_done[k] = rig.now_cycle();
        }
    });
    ASSERT_EQ(first_done.size(), kDescriptors);
    unsigned writebacks = 0;
    for (const TraceRecorder::Record& r : trace.records) {
        if (r.track != TraceTrack::writeback) continue;
        ++writebacks;
        EXPECT_EQ(first_done[r.args.descriptor], r.end) << "descriptor " << r.args.descriptor;
        EXPECT_GT(r.end, r.start);
    }
    EXPECT_EQ(writebacks, kDescriptors);
}

// ABORT drops the work planned past it: no status word the engine had
// planned to write after the abort ever shows DONE.
TEST(ModelWriteback, AbortLeavesOnlyTheCountedDescriptorsDone) {
    constexpr unsigned kDescriptors = 32;
    PlatformParams p;
    Rig rig(p);
    TraceRecorder trace;
    rig.platform().set_trace(&trace);
    write_chained(rig.host(0), segments(kSrc, kDst, kDescriptors, kSegment, 4096), {kDesc});
    uint32_t counted = 0;
    rig.run([&] {
        rig.start(0, kDesc, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, false));
        // A few descriptors in: the engine has planned a quantum ahead.
        sc_core::wait(sc_core::sc_time(3 * 1000.0 * 160 / p.clock_mhz, sc_core::SC_NS));
        rig.cpu().set_reg(DMA_CH_BASE(0) + DMA_CH_CTRL, DMA_CTRL_ABORT);
        ASSERT_NE(rig.wait_idle(0, 100000), 0u);
        counted = ch_reg(rig, DMA_CH_DESCS_DONE);
    });
    EXPECT_GT(counted, 0u);
    // The engine had booked write-backs past the abort.
    EXPECT_GT(trace.count(TraceTrack::writeback, 0), counted);
    EXPECT_EQ(done_in_memory(rig, kDescriptors), counted);
}

}  // namespace
}  // namespace dmasim::model::test
