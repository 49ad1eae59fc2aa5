// Trace hooks: one span per descriptor fetch, read burst and write burst,
// one instant per interrupt, on per-channel tracks.
#include <gtest/gtest.h>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kSrc = 0x100000, kDst = 0x800000;

TEST(ModelTrace, OneSpanPerFetchAndBurstAndAnInstantPerInterrupt) {
    PlatformParams p;
    Rig rig(p);
    TraceRecorder rec;
    rig.platform().set_trace(&rec);
    const unsigned n = 6;
    std::vector<Seg> segs = segments(kSrc, kDst, n, 1000, 4096);
    segs[2].flags = DMA_DESC_IRQ;
    // Two page-aligned chunks of 3 descriptors: one fetch burst each.
    uint64_t d = write_chained(rig.host(0), segs, {0x10000, 0x20000});
    ASSERT_NE(rig.transfer(d, ctrl_word(DMA_HW_MEM_TO_MEM, DescriptorFormat::chained_pages)), 0u);
    rig.platform().set_trace(nullptr);

    ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(rec.count("ch0 desc", "fetch"), 2u);
    EXPECT_EQ(rec.count("ch0 read", "read"), st.read_bursts);
    EXPECT_EQ(rec.count("ch0 write", "write"), st.write_bursts);
    EXPECT_EQ(rec.count("ch0 write", "write-back"), n);
    // The IRQ-flagged descriptor, then the channel stopping with IRQ_EN.
    EXPECT_EQ(rec.count("ch0 irq", "irq"), 2u);
    for (const TraceRecorder::Record& r : rec.records) EXPECT_LE(r.start, r.end) << r.track;
}

TEST(ModelTrace, TracksAreNamedPerChannel) {
    PlatformParams p;
    p.dma.channels = 2;
    Rig rig(p);
    TraceRecorder rec;
    rig.platform().set_trace(&rec);
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 1, 64, 0), {0x10000});
    rig.run([&] {
        rig.start(1, d, ctrl_word(DMA_HW_MEM_TO_MEM, DescriptorFormat::chained_pages));
        ASSERT_NE(rig.wait_idle(1, 100000), 0u);
    });
    EXPECT_EQ(rec.count("ch1 desc"), 1u);
    EXPECT_EQ(rec.count("ch0 desc"), 0u);
    EXPECT_EQ(rec.count("ch1 read"), 1u);
}

}  // namespace
}  // namespace dmasim::model::test
