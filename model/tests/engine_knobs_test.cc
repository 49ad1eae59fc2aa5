// The engine-fidelity knobs (docs/timing-model.md): status write-back
// policy, descriptor slot size, read refill threshold and start latency.
// Each case checks an equation of the timing model or the bytes in memory.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "descriptor_codec.h"
#include "support.h"

namespace dmasim::model {
namespace {

using namespace test;

constexpr uint64_t kDesc = 0x10000, kSrc = 0x100000, kDst = 0x800000;

uint32_t m2m(dma_hw_format f = DMA_HW_FMT_CHAINED_PAGES) { return ctrl_word(DMA_HW_MEM_TO_MEM, f); }

// One descriptor of one full burst, cut-through, from START to idle
// (docs/timing-model.md, "One descriptor's life"): a fetch of P slots of
// `slot` bytes, decode, read latency to the first write beat, the write
// and its response, then the write-back if the policy writes one.
uint64_t one_burst_life(const PlatformParams& p, unsigned slot, bool writeback) {
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t b = p.dma.max_burst_beats;
    const uint64_t fetch = L + p.dma.descriptor_prefetch * slot / p.bus.width_bytes;
    return p.dma.start_latency_cycles + fetch + p.dma.descriptor_setup_cycles + (L + 1) + (b + WL) +
           (writeback ? 1 + WL : 0);
}

uint64_t run_one_burst(const PlatformParams& p) {
    Rig rig(p);
    const uint32_t len = p.dma.max_burst_beats * p.bus.width_bytes;
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 1, len, 0), {kDesc},
                               p.dma.descriptor_bytes);
    return rig.transfer(d, m2m());
}

TEST(ModelEngineKnobs, NoWriteBackEndsAtTheLastWriteResponse) {
    PlatformParams p;
    p.dma.status_writeback = DMA_HW_WB_NONE;
    EXPECT_EQ(run_one_burst(p), one_burst_life(p, DMA_HW_DESC_SIZE, false));
}

TEST(ModelEngineKnobs, CompactSlotsHalveTheFetch) {
    PlatformParams p;
    p.dma.descriptor_bytes = 16;
    EXPECT_EQ(run_one_burst(p), one_burst_life(p, 16, true));
}

TEST(ModelEngineKnobs, SixtyFourByteSlotsDoubleTheFetch) {
    PlatformParams p;
    p.dma.descriptor_bytes = 64;
    EXPECT_EQ(run_one_burst(p), one_burst_life(p, 64, true));
}

TEST(ModelEngineKnobs, StartLatencyDelaysTheFirstFetch) {
    PlatformParams p;
    p.dma.start_latency_cycles = 10;
    EXPECT_EQ(run_one_burst(p), one_burst_life(p, DMA_HW_DESC_SIZE, true));
}

// A separate 4-byte descriptor port on the 16-byte bus (AXI DMA's
// M_AXI_SG): the fetch's P slots leave the port 4 bytes a cycle after the
// first beat, and the 8-byte status write-back takes 2 port beats where
// the bus takes 1 (docs/timing-model.md, "Descriptor port").
TEST(ModelEngineKnobs, NarrowSeparateDescriptorPortStretchesFetchAndWriteBack) {
    PlatformParams p;
    p.dma.descriptor_port = DescriptorPort::separate;
    p.dma.descriptor_port_width_bytes = 4;
    const uint64_t fetched = p.dma.descriptor_prefetch * DMA_HW_DESC_SIZE;
    const uint64_t fetch_extra = fetched / 4 - fetched / p.bus.width_bytes;
    const uint64_t writeback_extra = 8 / 4 - 1;
    EXPECT_EQ(run_one_burst(p),
              one_burst_life(p, DMA_HW_DESC_SIZE, true) + fetch_extra + writeback_extra);
}

TEST(ModelEngineKnobs, SeparatePortAsWideAsTheBusTimesLikeTheSharedOne) {
    PlatformParams p;
    p.dma.descriptor_port = DescriptorPort::separate;
    p.dma.descriptor_port_width_bytes = p.bus.width_bytes;
    EXPECT_EQ(run_one_burst(p), one_burst_life(p, DMA_HW_DESC_SIZE, true));
}

// Four descriptors, the second with DMA_DESC_IRQ; returns which of them
// hold a DONE status afterwards.
std::vector<bool> statuses_written(dma_hw_writeback policy) {
    PlatformParams p;
    p.dma.status_writeback = policy;
    Rig rig(p);
    std::vector<Seg> segs = segments(kSrc, kDst, 4, 300, 512);
    segs[1].flags = DMA_DESC_IRQ;
    uint64_t d = write_chained(rig.host(0), segs, {kDesc});
    EXPECT_NE(rig.transfer(d, m2m()), 0u);
    std::vector<bool> done;
    for (unsigned i = 0; i < segs.size(); ++i) {
        dma_hw_desc desc;
        std::memcpy(&desc, rig.host(d + i * DMA_HW_DESC_SIZE), sizeof desc);
        done.push_back(desc.status == DMA_DESC_STATUS_DONE && desc.bytes_done == 300);
    }
    return done;
}

TEST(ModelEngineKnobs, PerDescriptorWritesEveryStatus) {
    EXPECT_EQ(statuses_written(DMA_HW_WB_PER_DESCRIPTOR),
              (std::vector<bool>{true, true, true, true}));
}

TEST(ModelEngineKnobs, IrqOnlyWritesTheInterruptingDescriptor) {
    EXPECT_EQ(statuses_written(DMA_HW_WB_IRQ_ONLY),
              (std::vector<bool>{false, true, false, false}));
}

TEST(ModelEngineKnobs, LastWritesTheEndDescriptor) {
    EXPECT_EQ(statuses_written(DMA_HW_WB_LAST),
              (std::vector<bool>{false, false, false, true}));
}

TEST(ModelEngineKnobs, NoneWritesNothingAndTheRegistersStillCount) {
    PlatformParams p;
    p.dma.status_writeback = DMA_HW_WB_NONE;
    Rig rig(p);
    std::vector<Seg> segs = segments(kSrc, kDst, 4, 300, 512);
    uint64_t d = write_chained(rig.host(0), segs, {kDesc});
    std::vector<uint8_t> before(rig.host(d), rig.host(d) + 4 * DMA_HW_DESC_SIZE);
    rig.run([&] {
        rig.start(0, d, m2m());
        ASSERT_NE(rig.wait_idle(0, 100000), 0u);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS), DMA_STATUS_DONE);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_DESCS_DONE), 4u);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_BYTES_DONE_LO), 4u * 300);
        uint32_t caps = rig.cpu().reg(DMA_REG_CAPS);
        EXPECT_EQ((caps & DMA_CAPS_WRITEBACK_MASK) >> DMA_CAPS_WRITEBACK_SHIFT,
                  uint32_t(DMA_HW_WB_NONE));
        EXPECT_EQ((caps & DMA_CAPS_DESC_SIZE_MASK) >> DMA_CAPS_DESC_SIZE_SHIFT,
                  p.dma.descriptor_bytes);
    });
    EXPECT_EQ(std::memcmp(before.data(), rig.host(d), before.size()), 0);
}

TEST(ModelEngineKnobs, CompactChainedListCopiesAndWritesSixteenBitStatus) {
    PlatformParams p;
    p.dma.descriptor_bytes = 16;
    Rig rig(p);
    std::vector<Seg> segs = segments(kSrc + 5, kDst + 3, 7, 1000, 1200);
    fill_pattern(rig.host(kSrc), 0x4000, 11);
    const std::vector<uint64_t> chunks = {kDesc, 0x30000, 0x21000};
    uint64_t d = write_chained(rig.host(0), segs, chunks, 16);
    EXPECT_NE(rig.transfer(d, m2m()), 0u);
    for (const Seg& s : segs)
        EXPECT_EQ(digest(rig.host(s.dst), s.length), digest(rig.host(s.src), s.length));
    dma_hw_desc16 first;
    std::memcpy(&first, rig.host(d), sizeof first);
    EXPECT_EQ(first.status, DMA_DESC_STATUS_DONE);
    EXPECT_EQ(first.length, 1000u);  // the write-back leaves the driver's fields alone
    const ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(st.chain_links, chunks.size() - 1);
}

TEST(ModelEngineKnobs, EightyByteLinkedListFetchesEachDescriptorOnce) {
    PlatformParams p;
    p.dma.descriptor_bytes = 64;
    Rig rig(p);
    const unsigned n = 6;
    std::vector<Seg> segs = segments(kSrc, kDst, n, 500, 512);
    fill_pattern(rig.host(kSrc), 0x2000, 5);
    uint64_t d = write_linked(rig.host(0), segs, {kDesc, 0x40000}, 64);
    // Bytes the hardware ignores must survive.
    const uint64_t user = 0x1122334455667788ull;
    std::memcpy(rig.host(d + 0x30), &user, sizeof user);
    EXPECT_NE(rig.transfer(d, m2m(DMA_HW_FMT_LINKED_LIST)), 0u);
    EXPECT_EQ(rig.platform().channel_stats(0).descriptor_bytes_fetched,
              uint64_t(n) * DMA_HW_LL_DESC80_SIZE);  // 64-byte slot + next
    for (const Seg& s : segs)
        EXPECT_EQ(digest(rig.host(s.dst), s.length), digest(rig.host(s.src), s.length));
    uint64_t kept;
    std::memcpy(&kept, rig.host(d + 0x30), sizeof kept);
    EXPECT_EQ(kept, user);
}

// A read refill of R bytes issues its bursts together once R bytes of
// buffer are free: one long segment, whose reads then come in groups of
// R / burst at one issue cycle each.
TEST(ModelEngineKnobs, ReadRefillIssuesReadsInGroups) {
    PlatformParams p;
    const unsigned burst = p.dma.max_burst_beats * p.bus.width_bytes;  // 256 B
    p.dma.buffer_bytes = 8 * burst;
    p.dma.read_refill_bytes = 4 * burst;
    Rig rig(p);
    TraceRecorder rec;
    rig.platform().set_trace(&rec);
    const uint32_t bytes = 64 * burst;
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 1, bytes, 0), {kDesc});
    EXPECT_NE(rig.transfer(d, m2m()), 0u);
    std::set<uint64_t> issues;
    unsigned reads = 0;
    for (const auto& r : rec.records)
        if (r.track == TraceTrack::read && r.channel == 0) issues.insert(r.start), ++reads;
    EXPECT_EQ(reads, bytes / burst);
    // The first refill fills the empty buffer (8 bursts), every later one 4.
    EXPECT_EQ(issues.size(), 1 + (bytes / burst - 8) / 4);
}

// Device to memory (S2MM): the device streams `bytes` from the read's
// issue at one bus word per cycle (device.rate = W by default).
uint64_t run_stream_in(const PlatformParams& p, uint32_t bytes) {
    Rig rig(p);
    uint64_t d = write_chained(rig.host(0), segments(0, kDst, 1, bytes, 0), {kDesc});
    return rig.transfer(d, ctrl_word(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
}

// One full burst streamed in: the write may go `wait` cycles after the
// stream's first beat (1 cut-through, b store-and-forward), plus the
// stream write latency X.
uint64_t one_stream_burst_life(const PlatformParams& p, uint64_t wait) {
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t b = p.dma.max_burst_beats;
    const uint64_t fetch = L + p.dma.descriptor_prefetch * DMA_HW_DESC_SIZE / p.bus.width_bytes;
    const uint64_t X = p.dma.stream_write_latency_cycles;
    return fetch + p.dma.descriptor_setup_cycles + wait + X + (b + WL) + (1 + WL);
}

TEST(ModelEngineKnobs, StreamWriteLatencyDelaysTheFirstDeviceToMemoryWrite) {
    PlatformParams p;
    p.dma.stream_write_latency_cycles = 38;  // PG021 Table 1: tvalid to awvalid 39 = 1 + 38
    const uint32_t burst = p.dma.max_burst_beats * p.bus.width_bytes;
    EXPECT_EQ(run_stream_in(p, burst), one_stream_burst_life(p, 1));
}

TEST(ModelEngineKnobs, StreamStoreAndForwardWaitsForTheWholeStreamBurst) {
    PlatformParams p;
    p.dma.stream_write_policy = StreamWritePolicy::store_and_forward;
    p.dma.stream_write_latency_cycles = 3;
    const uint32_t burst = p.dma.max_burst_beats * p.bus.width_bytes;
    EXPECT_EQ(run_stream_in(p, burst), one_stream_burst_life(p, p.dma.max_burst_beats));
}

TEST(ModelEngineKnobs, StreamCutThroughOverridesAStoreAndForwardEngine) {
    PlatformParams p;
    p.dma.write_policy = WritePolicy::store_and_forward;
    p.dma.stream_write_policy = StreamWritePolicy::cut_through;
    const uint32_t burst = p.dma.max_burst_beats * p.bus.width_bytes;
    EXPECT_EQ(run_stream_in(p, burst), one_stream_burst_life(p, 1));
}

// The latency is a pipeline stage, not a per-burst gap: on a long stream
// (N bursts, buffer and outstanding limits deep enough for X more cycles
// of data) the writes follow each other back to back, one burst every b
// cycles, so the stream ends X cycles later, not N X.
TEST(ModelEngineKnobs, StreamWriteLatencyIsPaidOnceOnALongStream) {
    PlatformParams p;
    p.dma.stream_write_latency_cycles = 38;
    const uint64_t N = 256, b = p.dma.max_burst_beats;
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t fetch = L + p.dma.descriptor_prefetch * DMA_HW_DESC_SIZE / p.bus.width_bytes;
    const uint64_t expected = fetch + p.dma.descriptor_setup_cycles + 1 +
                              p.dma.stream_write_latency_cycles + N * b + WL + (1 + WL);
    EXPECT_EQ(run_stream_in(p, static_cast<uint32_t>(N * b * p.bus.width_bytes)), expected);
}

// Memory-to-memory writes keep write_policy and no stream latency.
TEST(ModelEngineKnobs, StreamWriteKnobsLeaveMemoryToMemoryAlone) {
    PlatformParams p;
    p.dma.stream_write_policy = StreamWritePolicy::store_and_forward;
    p.dma.stream_write_latency_cycles = 38;
    EXPECT_EQ(run_one_burst(p), one_burst_life(p, DMA_HW_DESC_SIZE, true));
}

// DMA_DESC_DEBURST (iDMA's reduce_len) cuts only its own descriptor into
// one-beat bursts: two descriptors of n full beats each, the second
// debursted, make 1 + n read bursts and 1 + n write bursts.
TEST(ModelEngineKnobs, DeburstFlagSplitsOnlyItsDescriptorIntoBeats) {
    PlatformParams p;
    Rig rig(p);
    const unsigned n = p.dma.max_burst_beats;
    std::vector<Seg> segs = segments(kSrc, kDst, 2, n * p.bus.width_bytes, 4096);
    segs[1].flags = DMA_DESC_DEBURST;
    fill_pattern(rig.host(kSrc), 8192, 7);
    EXPECT_NE(rig.transfer(write_chained(rig.host(0), segs, {kDesc}), m2m()), 0u);
    const ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(st.read_bursts, 1u + n);
    EXPECT_EQ(st.write_bursts, 1u + n);
    for (const Seg& s : segs)
        EXPECT_EQ(digest(rig.host(s.dst), s.length), digest(rig.host(s.src), s.length));
}

// With one read in flight, a debursted descriptor of n beats pays a read
// round trip (L + 1) per beat; its cut-through writes follow each beat,
// so the last write goes when the last read is done.
TEST(ModelEngineKnobs, DeburstedDescriptorPaysOneReadRoundTripPerBeat) {
    PlatformParams p;
    p.dma.max_outstanding_reads = 1;
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t n = p.dma.max_burst_beats;
    const uint64_t fetch = L + p.dma.descriptor_prefetch * DMA_HW_DESC_SIZE / p.bus.width_bytes;
    Rig rig(p);
    std::vector<Seg> segs =
        segments(kSrc, kDst, 1, static_cast<uint32_t>(n * p.bus.width_bytes), 0);
    segs[0].flags = DMA_DESC_DEBURST;
    const uint64_t expected =
        fetch + p.dma.descriptor_setup_cycles + n * (L + 1) + (1 + WL) + (1 + WL);
    EXPECT_EQ(rig.transfer(write_chained(rig.host(0), segs, {kDesc}), m2m()), expected);
}

// Linked descriptors with their next pointer inside the slot
// (dma.descriptor_next: in_slot), with `app` APP words.
PlatformParams in_slot(unsigned slot, unsigned app = 0) {
    PlatformParams p;
    p.dma.descriptor_bytes = slot;
    p.dma.descriptor_next = DescriptorNext::in_slot;
    p.dma.descriptor_app_words = app;
    return p;
}

// One linked descriptor of one full burst: its fetch is one read of the
// Z bytes of its fields and APP words (aligned, so ceil(Z / W) beats).
uint64_t one_linked_burst_life(const PlatformParams& p, uint64_t Z) {
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t b = p.dma.max_burst_beats, W = p.bus.width_bytes;
    const uint64_t fetch = L + (Z + W - 1) / W;
    return fetch + p.dma.descriptor_setup_cycles + (L + 1) + (b + WL) + (1 + WL);
}

uint64_t run_one_linked_burst(const PlatformParams& p) {
    Rig rig(p);
    const uint32_t len = p.dma.max_burst_beats * p.bus.width_bytes;
    uint64_t d = write_linked(rig.host(0), segments(kSrc, kDst, 1, len, 0), {kDesc},
                              layout_of(DMA_HW_FMT_LINKED_LIST, p.dma));
    return rig.transfer(d, m2m(DMA_HW_FMT_LINKED_LIST));
}

TEST(ModelEngineKnobs, InSlotThirtyTwoByteLinkedDescriptorFetchesThirtyTwoBytes) {
    PlatformParams p = in_slot(32);
    EXPECT_EQ(run_one_linked_burst(p), one_linked_burst_life(p, 32));
}

// AXI DMA with the control/status stream: 8 words + APP0..APP4 = 52 bytes.
TEST(ModelEngineKnobs, AppWordsAreFetchedWithTheirDescriptor) {
    PlatformParams p = in_slot(32, 5);
    EXPECT_EQ(run_one_linked_burst(p), one_linked_burst_life(p, 32 + 5 * 4));
}

// n linked descriptors in one chunk, 0x40 apart (52 bytes rounded up):
// each is one read of 52 bytes, the data is copied, and the 16-bit status
// lands at 0x1E of every descriptor while its APP words are left alone.
TEST(ModelEngineKnobs, InSlotListWithAppWordsCopiesAndWritesTheShortStatus) {
    PlatformParams p = in_slot(32, 5);
    Rig rig(p);
    const unsigned n = 5;
    std::vector<Seg> segs = segments(kSrc + 3, kDst + 1, n, 700, 1024);
    fill_pattern(rig.host(kSrc), 0x2000, 9);
    const dma_hw_layout layout = layout_of(DMA_HW_FMT_LINKED_LIST, p.dma);
    ASSERT_EQ(descriptor_stride(layout), DMA_HW_APP_ALIGN);
    uint64_t d = write_linked(rig.host(0), segs, {kDesc}, layout);
    const uint32_t app4 = 0xA5A5A5A5u;
    std::memcpy(rig.host(d + 0x30), &app4, sizeof app4);
    EXPECT_NE(rig.transfer(d, m2m(DMA_HW_FMT_LINKED_LIST)), 0u);
    EXPECT_EQ(rig.platform().channel_stats(0).descriptor_bytes_fetched, uint64_t(n) * 52);
    for (const Seg& s : segs)
        EXPECT_EQ(digest(rig.host(s.dst), s.length), digest(rig.host(s.src), s.length));
    for (unsigned k = 0; k < n; ++k) {
        dma_hw_ll_desc32 desc;
        std::memcpy(&desc, rig.host(d + k * DMA_HW_APP_ALIGN), sizeof desc);
        EXPECT_EQ(desc.status, DMA_DESC_STATUS_DONE) << "descriptor " << k;
        EXPECT_EQ(desc.length, 700u);
    }
    uint32_t kept;
    std::memcpy(&kept, rig.host(d + 0x30), sizeof kept);
    EXPECT_EQ(kept, app4);
}

// The 64-byte in-slot layout is the 48-byte one in a 64-byte slot: 64
// bytes read per descriptor, the last 16 ignored.
TEST(ModelEngineKnobs, InSlotSixtyFourByteLinkedListReadsSixtyFourPerDescriptor) {
    PlatformParams p = in_slot(64);
    Rig rig(p);
    const unsigned n = 4;
    std::vector<Seg> segs = segments(kSrc, kDst, n, 500, 512);
    uint64_t d =
        write_linked(rig.host(0), segs, {kDesc, 0x40000}, layout_of(DMA_HW_FMT_LINKED_LIST, p.dma));
    const uint64_t user = 0x1122334455667788ull;
    std::memcpy(rig.host(d + 0x30), &user, sizeof user);
    EXPECT_NE(rig.transfer(d, m2m(DMA_HW_FMT_LINKED_LIST)), 0u);
    EXPECT_EQ(rig.platform().channel_stats(0).descriptor_bytes_fetched,
              uint64_t(n) * DMA_HW_LL_DESC64_SIZE);
    dma_hw_ll_desc64 first;
    std::memcpy(&first, rig.host(d), sizeof first);
    EXPECT_EQ(first.d.status, DMA_DESC_STATUS_DONE);
    EXPECT_EQ(first.d.bytes_done, 500u);
    EXPECT_EQ(first.user[0], user);
}

// chained_pages with APP words: a burst fetch of P slots 0x40 apart reads
// from the first slot to the end of the last one's APP words,
// (P - 1) x 64 + 32 + 4A bytes.
TEST(ModelEngineKnobs, AppWordsStretchAChainedFetchToTheirAlignedStride) {
    PlatformParams p;
    p.dma.descriptor_app_words = 3;
    Rig rig(p);
    const uint64_t P = p.dma.descriptor_prefetch, W = p.bus.width_bytes;
    const uint64_t Z = (P - 1) * DMA_HW_APP_ALIGN + DMA_HW_DESC_SIZE + 3 * 4;
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t b = p.dma.max_burst_beats;
    const uint64_t expected =
        L + (Z + W - 1) / W + p.dma.descriptor_setup_cycles + (L + 1) + (b + WL) + (1 + WL);
    const uint32_t len = p.dma.max_burst_beats * p.bus.width_bytes;
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 1, len, 0), {kDesc},
                               layout_of(DMA_HW_FMT_CHAINED_PAGES, p.dma));
    EXPECT_EQ(rig.transfer(d, m2m()), expected);
    EXPECT_EQ(rig.platform().channel_stats(0).descriptor_bytes_fetched, Z);
}

TEST(ModelEngineKnobs, CapsReportTheDescriptorLayout) {
    PlatformParams p = in_slot(32, 5);
    Rig rig(p);
    rig.run([&] {
        const uint32_t caps = rig.cpu().reg(DMA_REG_CAPS);
        EXPECT_TRUE(caps & DMA_CAPS_NEXT_IN_SLOT);
        EXPECT_EQ((caps & DMA_CAPS_APP_WORDS_MASK) >> DMA_CAPS_APP_WORDS_SHIFT, 5u);
        EXPECT_EQ((caps & DMA_CAPS_DESC_SIZE_MASK) >> DMA_CAPS_DESC_SIZE_SHIFT, 32u);
    });
}

TEST(ModelEngineKnobs, InSlotNeedsRoomForTheNextPointer) {
    PlatformParams p = in_slot(16);
    const std::vector<ParamProblem> problems = validate(p);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].keys,
              (std::vector<std::string>{"dma.descriptor_next", "dma.descriptor_bytes"}));
}

// S2MM with APP words (AXI DMA with its status stream): the write-back
// also writes the APP words, which dmasim's device sends as zeros. One
// full burst streamed in, 32-byte in-slot layout with five words: the
// fetch reads 52 bytes (4 beats), the status is one beat at 0x1E and the
// 20 APP bytes at 0x20 two more beats on the write channel, so the
// descriptor is done 1 + 2 + WL after its last write response.
TEST(ModelEngineKnobs, DeviceToMemoryWritesTheAppWordsBackWithTheStatus) {
    PlatformParams p = in_slot(32, 5);
    const uint64_t L = p.memory.read_latency_cycles, WL = p.memory.write_latency_cycles;
    const uint64_t b = p.dma.max_burst_beats, W = p.bus.width_bytes;
    const uint64_t Z = 32 + 5 * 4;
    const uint64_t expected =
        L + (Z + W - 1) / W + p.dma.descriptor_setup_cycles + 1 + (b + WL) + (1 + 2 + WL);
    Rig rig(p);
    const uint64_t d =
        write_linked(rig.host(0), segments(0, kDst, 1, static_cast<uint32_t>(b * W), 0), {kDesc},
                     layout_of(DMA_HW_FMT_LINKED_LIST, p.dma));
    std::memset(rig.host(d + 0x20), 0xEE, 5 * 4);
    EXPECT_EQ(rig.transfer(d, ctrl_word(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_LINKED_LIST)), expected);
    for (unsigned i = 0; i < 5 * 4; ++i) EXPECT_EQ(*rig.host(d + 0x20 + i), 0) << "APP byte " << i;
    dma_hw_ll_desc32 desc;
    std::memcpy(&desc, rig.host(d), sizeof desc);
    EXPECT_EQ(desc.status, DMA_DESC_STATUS_DONE);
}

}  // namespace
}  // namespace dmasim::model
