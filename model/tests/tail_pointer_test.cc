// dma.submission tail_pointer: a channel started once runs a descriptor
// ring up to TAIL, idles there and resumes on the next TAIL write, in both
// formats; a TAIL the walk never meets is a named error.
#include <gtest/gtest.h>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kRing = 0x10000, kSrc = 0x100000, kDst = 0x800000;
constexpr unsigned kSlots = 8;
constexpr uint32_t kSegment = 512;

PlatformParams tail_pointer() {
    PlatformParams p;
    p.dma.submission = Submission::tail_pointer;
    return p;
}

uint32_t ch_reg(Rig& rig, uint32_t offset) { return rig.cpu().reg(DMA_CH_BASE(0) + offset); }

void write_tail(Rig& rig, uint64_t tail) {
    rig.cpu().set_reg(DMA_CH_BASE(0) + DMA_CH_TAIL_LO, static_cast<uint32_t>(tail));
    rig.cpu().set_reg(DMA_CH_BASE(0) + DMA_CH_TAIL_HI, static_cast<uint32_t>(tail >> 32));
}

/// Polls STATUS until it shows IDLE or the channel stops; returns STATUS.
uint32_t wait_for_idle(Rig& rig) {
    for (unsigned i = 0; i < 100000; ++i) {
        const uint32_t status = ch_reg(rig, DMA_CH_STATUS);
        if ((status & DMA_STATUS_IDLE) || !(status & DMA_STATUS_BUSY)) return status;
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
    }
    return ch_reg(rig, DMA_CH_STATUS);
}

/// Whether segment k was copied: its destination holds its source bytes.
bool copied(Rig& rig, unsigned k) {
    return std::memcmp(rig.host(kDst + k * 4096), rig.host(kSrc + k * 4096), kSegment) == 0;
}

class TailPointer : public ::testing::TestWithParam<dma_hw_format> {};

TEST_P(TailPointer, RunsToTailIdlesAndResumesRoundTheRing) {
    Rig rig(tail_pointer());
    fill_pattern(rig.host(kSrc), kSlots * 4096, 7);
    const std::vector<uint64_t> slot =
        write_ring(rig.host(0), segments(kSrc, kDst, kSlots, kSegment, 4096), kRing, GetParam());
    rig.run([&] {
        rig.start(0, kRing, ctrl_word(DMA_HW_MEM_TO_MEM, GetParam()));
        // Parked until the first TAIL: nothing fetched.
        EXPECT_EQ(ch_reg(rig, DMA_CH_STATUS), DMA_STATUS_BUSY | DMA_STATUS_IDLE);
        EXPECT_EQ(rig.platform().channel_stats(0).descriptor_bytes_fetched, 0u);

        write_tail(rig, slot[2]);
        EXPECT_EQ(wait_for_idle(rig), DMA_STATUS_BUSY | DMA_STATUS_IDLE);
        EXPECT_EQ(ch_reg(rig, DMA_CH_DESCS_DONE), 3u);
        EXPECT_EQ(ch_reg(rig, DMA_CH_BYTES_DONE_LO), 3 * kSegment);
        EXPECT_TRUE(copied(rig, 2));
        EXPECT_FALSE(copied(rig, 3));

        write_tail(rig, slot[kSlots - 1]);
        EXPECT_EQ(wait_for_idle(rig), DMA_STATUS_BUSY | DMA_STATUS_IDLE);
        EXPECT_EQ(ch_reg(rig, DMA_CH_DESCS_DONE), kSlots);
        EXPECT_TRUE(copied(rig, kSlots - 1));

        // Round the ring: slots 0 and 1 again, with new data at slot 0.
        fill_pattern(rig.host(kSrc), kSegment, 8);
        EXPECT_FALSE(copied(rig, 0));
        write_tail(rig, slot[1]);
        EXPECT_EQ(wait_for_idle(rig), DMA_STATUS_BUSY | DMA_STATUS_IDLE);
        EXPECT_EQ(ch_reg(rig, DMA_CH_DESCS_DONE), kSlots + 2);
        EXPECT_TRUE(copied(rig, 0));

        rig.cpu().set_reg(DMA_CH_BASE(0) + DMA_CH_CTRL, DMA_CTRL_ABORT);
        rig.wait_idle(0, 100000);
        EXPECT_EQ(ch_reg(rig, DMA_CH_STATUS),
                  DMA_STATUS_ERROR | (DMA_ERR_ABORTED << DMA_STATUS_ERR_SHIFT));
    });
}

// The TAIL names a place inside a slot: the walk goes round the ring once
// and stops where it began, never running a descriptor twice.
TEST_P(TailPointer, TailTheWalkNeverMeetsStopsTheChannelWithTailUnreached) {
    Rig rig(tail_pointer());
    const std::vector<uint64_t> slot =
        write_ring(rig.host(0), segments(kSrc, kDst, kSlots, kSegment, 4096), kRing, GetParam());
    rig.run([&] {
        rig.start(0, kRing, ctrl_word(DMA_HW_MEM_TO_MEM, GetParam()));
        write_tail(rig, slot[3] + 8);
        EXPECT_NE(rig.wait_idle(0, 1000000), 0u);
        EXPECT_EQ(ch_reg(rig, DMA_CH_STATUS),
                  DMA_STATUS_ERROR | (DMA_ERR_TAIL_UNREACHED << DMA_STATUS_ERR_SHIFT));
        EXPECT_EQ(ch_reg(rig, DMA_CH_DESCS_DONE), kSlots);
    });
}

// A TAIL moved on before the walk fetched the old one only lets it go on:
// the channel idles once, at the new TAIL, and every descriptor is fetched
// once (a walk parked at the old TAIL would have read its successors again
// on resuming). The start latency holds the first fetch back past both
// writes.
TEST_P(TailPointer, TailMovedBeforeTheWalkArrivesDoesNotStopIt) {
    PlatformParams p = tail_pointer();
    p.dma.start_latency_cycles = 200;
    Rig rig(p);
    const std::vector<uint64_t> slot =
        write_ring(rig.host(0), segments(kSrc, kDst, kSlots, kSegment, 4096), kRing, GetParam());
    rig.run([&] {
        rig.start(0, kRing, ctrl_word(DMA_HW_MEM_TO_MEM, GetParam()));
        write_tail(rig, slot[0]);
        write_tail(rig, slot[5]);
        EXPECT_EQ(wait_for_idle(rig), DMA_STATUS_BUSY | DMA_STATUS_IDLE);
        EXPECT_EQ(ch_reg(rig, DMA_CH_DESCS_DONE), 6u);
    });
    const ChannelStats s = rig.platform().channel_stats(0);
    EXPECT_EQ(s.tail_idles, 1u);
    // chained_pages reads a prefetch window of 8 slots in one burst (those
    // past TAIL over-prefetched); linked_list one 48-byte descriptor a fetch.
    EXPECT_EQ(s.descriptor_bytes_fetched, GetParam() == DMA_HW_FMT_LINKED_LIST ? 6 * 48 : 8 * 32);
}

INSTANTIATE_TEST_SUITE_P(Formats, TailPointer,
                         ::testing::Values(DMA_HW_FMT_CHAINED_PAGES, DMA_HW_FMT_LINKED_LIST),
                         [](const auto& info) {
                             return info.param == DMA_HW_FMT_LINKED_LIST ? "linked_list"
                                                                         : "chained_pages";
                         });

TEST(ModelTailPointer, CapsReportsTheMode) {
    Rig rig(tail_pointer());
    rig.run([&] { EXPECT_NE(rig.cpu().reg(DMA_REG_CAPS) & DMA_CAPS_TAIL_POINTER, 0u); });
}

TEST(ModelTailPointer, StartModeRunsToEndWhateverTailSays) {
    Rig rig(PlatformParams{});
    const uint64_t d = write_linked(rig.host(0), segments(kSrc, kDst, 4, kSegment, 4096), {kRing});
    rig.run([&] {
        EXPECT_EQ(rig.cpu().reg(DMA_REG_CAPS) & DMA_CAPS_TAIL_POINTER, 0u);
        write_tail(rig, d);
        rig.start(0, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST));
        EXPECT_NE(rig.wait_idle(0, 1000000), 0u);
        EXPECT_EQ(ch_reg(rig, DMA_CH_STATUS), DMA_STATUS_DONE);
        EXPECT_EQ(ch_reg(rig, DMA_CH_DESCS_DONE), 4u);
    });
}

}  // namespace
}  // namespace dmasim::model::test
