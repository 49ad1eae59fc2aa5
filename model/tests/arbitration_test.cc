// Several channels share the bus fairly; a shared channel serves a
// request in the first idle gap that fits it, whatever order it was
// planned in.
#include <dmasim/model/resource.h>
#include <gtest/gtest.h>

#include <cstring>

#include "support.h"

namespace dmasim::model::test {
namespace {

// A walker books the next chunks' fetches before the data mover books the
// reads it issued earlier: those reads take the idle cycles before them.
TEST(ModelArbitration, ARequestPlannedLateTakesAnEarlierGapThatFitsIt) {
    Resource r;
    EXPECT_EQ(r.book(100, 16, 256), 100u);  // planned first, for later
    EXPECT_EQ(r.book(200, 16, 256), 200u);
    EXPECT_EQ(r.book(10, 16, 256), 10u);     // fits [10, 26) before 100
    EXPECT_EQ(r.book(90, 16, 256), 116u);    // [90, 106) would overlap: after 100's burst
    EXPECT_EQ(r.book(120, 80, 256), 216u);   // [132, 200) is 68 cycles: too short
    EXPECT_EQ(r.book(132, 68, 256), 132u);   // exactly fills it
    EXPECT_EQ(r.free_at(), 296u);
    // Busy time adds up across the gaps filled: no two bookings overlap.
    EXPECT_EQ(r.busy_before(1000), 16u + 16 + 16 + 16 + 80 + 68);
    EXPECT_EQ(r.busy_before(110), 16u + 10);  // [10, 26) and [100, 110)
}

// Folded bookings leave no gap to fill: a request for a cycle before the
// last folded booking's end starts at that end, as it would have without
// folding (the bus was busy up to it).
TEST(ModelArbitration, SettledBookingsAreNotReopened) {
    Resource r;
    r.book(0, 50, 64);
    r.book(60, 40, 64);
    r.settle(100);
    EXPECT_EQ(r.unsettled(), 0u);
    EXPECT_EQ(r.book(50, 5, 64), 100u);
    EXPECT_EQ(r.busy_before(105), 95u);
}

TEST(ModelArbitration, TwoChannelsWithEqualWorkFinishWithinFivePercent) {
    PlatformParams p;
    p.dma.channels = 2;
    Rig rig(p);
    const unsigned n = 32, len = 4096;
    uint64_t d0 = write_chained(rig.host(0), segments(0x100000, 0x800000, n, len, len), {0x10000});
    uint64_t d1 = write_chained(rig.host(0), segments(0x200000, 0x900000, n, len, len), {0x20000});
    fill_pattern(rig.host(0x100000), 2 * n * len, 4);
    uint64_t t0 = 0, t1 = 0, done0 = 0, done1 = 0;
    rig.run([&] {
        rig.start(0, d0, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        t0 = rig.now_cycle();
        rig.start(1, d1, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        t1 = rig.now_cycle();
        done0 = rig.wait_idle(0, 10'000'000);
        done1 = rig.wait_idle(1, 10'000'000);
    });
    ASSERT_NE(done0, 0u);
    ASSERT_NE(done1, 0u);
    double c0 = double(done0 - t0), c1 = double(done1 - t1);
    EXPECT_LE(std::abs(c0 - c1), 0.05 * std::max(c0, c1)) << c0 << " " << c1;
    // Sharing: each took longer than it would alone at full bus width.
    EXPECT_GT(std::min(c0, c1), 1.5 * n * len / p.bus.width_bytes);
    EXPECT_EQ(std::memcmp(rig.host(0x100000), rig.host(0x800000), n * len), 0);
    EXPECT_EQ(std::memcmp(rig.host(0x200000), rig.host(0x900000), n * len), 0);
}

TEST(ModelArbitration, ChannelsAreIndependentlyControlled) {
    PlatformParams p;
    p.dma.channels = 2;
    Rig rig(p);
    uint64_t d0 = write_chained(rig.host(0), segments(0x100000, 0x800000, 1, 64, 0), {0x10000});
    rig.run([&] {
        rig.start(0, d0, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        ASSERT_NE(rig.wait_idle(0, 100000), 0u);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS), DMA_STATUS_DONE);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(1) + DMA_CH_STATUS), 0u);
    });
}

}  // namespace
}  // namespace dmasim::model::test
