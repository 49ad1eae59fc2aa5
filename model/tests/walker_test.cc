// Descriptor walker: chunks, chain links, END, prefetch accounting and
// the linked_list format.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kSrc = 0x100000, kDst = 0x800000, kDst2 = 0xC00000;

void run_one(Rig& rig, uint64_t desc, uint32_t ctrl) {
    rig.run([&] {
        rig.start(0, desc, ctrl);
        ASSERT_NE(rig.wait_idle(0, 10'000'000), 0u);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS), DMA_STATUS_DONE);
    });
}

struct List {
    uint64_t first;
    dma_hw_format format;
};

/// START to idle of `a`, then of `b`, one after the other on channel 0.
std::pair<uint64_t, uint64_t> cycles_of_two(Rig& rig, List a, List b) {
    uint64_t ta = 0, tb = 0;
    rig.run([&] {
        for (auto [list, t] : {std::pair{a, &ta}, std::pair{b, &tb}}) {
            rig.start(0, list.first, ctrl_word(DMA_HW_MEM_TO_MEM, list.format));
            const uint64_t t0 = rig.now_cycle();
            *t = rig.wait_idle(0, 10'000'000) - t0;
        }
    });
    return {ta, tb};
}

TEST(ModelWalker, ThreeChunkChainIsWalkedInOrderAndStopsAtEnd) {
    Rig rig(PlatformParams{});
    // Every descriptor writes the same destination from its own source, so
    // the destination ends up holding the source of the last one walked.
    const unsigned n = 12;
    std::vector<Seg> segs = segments(kSrc, kDst, n, 256, 4096);
    for (Seg& s : segs) s.dst = kDst;
    fill_pattern(rig.host(kSrc), n * 4096, 11);
    // Chunks out of address order: the walk must follow the chain, not memory.
    std::vector<uint64_t> chunks = {0x30000, 0x10000, 0x20000};
    uint64_t d = write_chained(rig.host(0), segs, chunks);
    // A valid descriptor right after END that must never run.
    uint64_t after_end = chunks[2] + chunk_sizes(n, 3)[2] * DMA_HW_DESC_SIZE;
    dma_hw_desc trap{kSrc, kDst2, 64, 0, 0, 0};
    std::memcpy(rig.host(after_end), &trap, sizeof trap);
    std::memset(rig.host(kDst2), 0xEE, 64);

    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));

    EXPECT_EQ(std::memcmp(rig.host(kDst), rig.host(segs.back().src), 256), 0);
    ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(st.descriptors, n);
    EXPECT_EQ(st.chain_links, 2u);
    dma_hw_desc after;
    std::memcpy(&after, rig.host(after_end), sizeof after);
    EXPECT_EQ(after.status, 0u);
    EXPECT_EQ(*rig.host(kDst2), 0xEE);
}

TEST(ModelWalker, PrefetchBurstsCountOverPrefetchedSlots) {
    PlatformParams p;
    Rig rig(p);
    // 12 descriptors over 3 page-aligned chunks of 4 + chain slot. Each chunk
    // is read in one burst of P slots (P >= 5), never past the page.
    const unsigned n = 12, depth = 3, P = p.dma.descriptor_prefetch;
    ASSERT_GE(P, 5u);
    uint64_t d =
        write_chained(rig.host(0), segments(kSrc, kDst, n, 64, 64), {0x10000, 0x20000, 0x30000});
    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
    EXPECT_EQ(rig.platform().channel_stats(0).descriptor_bytes_fetched,
              uint64_t(depth) * P * DMA_HW_DESC_SIZE);
}

TEST(ModelWalker, PrefetchNeverCrossesAPage) {
    PlatformParams p;
    p.dma.descriptor_prefetch = 8;
    Rig rig(p);
    // One chunk starting 2 slots before a page end: the first burst reads 2
    // slots, then bursts of 8 continue from the page start until END.
    const unsigned n = 6;
    uint64_t first = 0x11000 - 2 * DMA_HW_DESC_SIZE;
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, n, 64, 64), {first});
    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
    EXPECT_EQ(rig.platform().channel_stats(0).descriptor_bytes_fetched,
              (2u + 8u) * DMA_HW_DESC_SIZE);
}

TEST(ModelWalker, WordFetchReadsExactlyTheDescriptorsUsed) {
    PlatformParams p;
    p.dma.descriptor_fetch = DescriptorFetch::word;
    Rig rig(p);
    const unsigned n = 10;
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, n, 64, 64), {0x10000, 0x20000});
    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
    // n data descriptors plus one chain slot, one at a time.
    EXPECT_EQ(rig.platform().channel_stats(0).descriptor_bytes_fetched,
              (n + 1u) * DMA_HW_DESC_SIZE);
    EXPECT_EQ(rig.platform().channel_stats(0).descriptors, n);
}

TEST(ModelWalker, LinkedListCountsChainLinksBetweenChunks) {
    Rig rig(PlatformParams{});
    const unsigned n = 9;
    uint64_t d =
        write_linked(rig.host(0), segments(kSrc, kDst, n, 100, 128), {0x10000, 0x20000, 0x30000});
    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST));
    ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(st.descriptors, n);
    EXPECT_EQ(st.chain_links, 2u);
    EXPECT_EQ(st.descriptor_bytes_fetched, uint64_t(n) * DMA_HW_LL_DESC_SIZE);
}

TEST(ModelWalker, LinkedListAndChainedPagesMoveIdenticalBytes) {
    Rig rig(PlatformParams{});
    const unsigned n = 20;
    fill_pattern(rig.host(kSrc), n * 4096, 5);
    std::vector<Seg> a = segments(kSrc + 9, kDst, n, 3001, 4096);
    std::vector<Seg> b = segments(kSrc + 9, kDst2, n, 3001, 4096);
    uint64_t da = write_chained(rig.host(0), a, {0x10000, 0x20000});
    uint64_t db = write_linked(rig.host(0), b, {0x40000, 0x50000});
    rig.run([&] {
        rig.start(0, da, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        ASSERT_NE(rig.wait_idle(0, 10'000'000), 0u);
        rig.start(0, db, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST));
        ASSERT_NE(rig.wait_idle(0, 10'000'000), 0u);
    });
    EXPECT_EQ(std::memcmp(rig.host(kDst), rig.host(kDst2), n * 4096), 0);
    EXPECT_EQ(digest(rig.host(kDst), 3001), digest(rig.host(kSrc + 9), 3001));
}

TEST(ModelWalker, LinkedListIsSlowerThanChainedPagesForSmallSegments) {
    // Every linked-list descriptor is a dependent fetch (at least L + 3
    // beats); chained pages prefetch P descriptors per round trip.
    PlatformParams p;
    Rig rig(p);
    const unsigned n = 64;
    uint64_t da = write_chained(rig.host(0), segments(kSrc, kDst, n, 64, 64), {0x10000});
    uint64_t db = write_linked(rig.host(0), segments(kSrc, kDst2, n, 64, 64), {0x40000});
    const auto [ta, tb] = cycles_of_two(rig, {da, DMA_HW_FMT_CHAINED_PAGES},
                                        {db, DMA_HW_FMT_LINKED_LIST});
    EXPECT_GE(tb, n * (p.memory.read_latency_cycles + DMA_HW_LL_DESC_SIZE / p.bus.width_bytes));
    EXPECT_LT(ta, tb);
}

/// iDMA's desc64 front end: up to 4 speculative reads in flight.
PlatformParams speculating(unsigned queue = kUnboundedQueue) {
    PlatformParams p;
    p.dma.descriptor_fetch = DescriptorFetch::speculative;
    p.dma.descriptor_prefetch = 4;
    p.dma.descriptor_queue = queue;
    return p;
}

// dma.descriptor_fetch: speculative (iDMA's desc64 front end). n linked
// descriptors back to back: every next pointer is the predicted address,
// so no read is dropped; each fetch tops the reads in flight up to P, so
// the reads are the first one, then one per descriptor used and P more
// past the last one (docs/timing-model.md, "Speculative fetch").
TEST(ModelWalker, SpeculationHitsEveryDescriptorOfAContiguousList) {
    const PlatformParams p = speculating();
    Rig rig(p);
    const unsigned n = 16, P = p.dma.descriptor_prefetch;
    fill_pattern(rig.host(kSrc), n * 128, 3);
    uint64_t d = write_linked(rig.host(0), segments(kSrc, kDst, n, 100, 128), {0x10000});
    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST));
    ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(st.descriptors, n);
    EXPECT_EQ(st.speculative_reads_dropped, 0u);
    EXPECT_EQ(st.speculative_reads, uint64_t(n - 1 + P));
    EXPECT_EQ(st.descriptor_bytes_fetched, uint64_t(n + P) * DMA_HW_LL_DESC_SIZE);
    EXPECT_EQ(digest(rig.host(kDst + 128 * (n - 1)), 100),
              digest(rig.host(kSrc + 128 * (n - 1)), 100));
}

// Every descriptor in a chunk of its own: each next pointer misses, so the
// P reads in flight are dropped at every descriptor but the first.
TEST(ModelWalker, SpeculationDropsTheReadsInFlightAtEveryMiss) {
    const PlatformParams p = speculating();
    Rig rig(p);
    const unsigned n = 6, P = p.dma.descriptor_prefetch;
    std::vector<uint64_t> chunks;
    for (unsigned i = 0; i < n; ++i) chunks.push_back(0x10000 + 0x1000 * i);
    uint64_t d = write_linked(rig.host(0), segments(kSrc, kDst, n, 100, 128), chunks);
    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST));
    ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(st.descriptors, n);
    EXPECT_EQ(st.speculative_reads_dropped, uint64_t(P) * (n - 1));
}

// The reads in flight wait for a free place in the descriptor queue (the
// RTL's idma_req FIFO): a queue of 2 keeps at most one read ahead, so at
// most one slot past the end is read where an open queue reads P.
TEST(ModelWalker, SpeculationIsCappedByTheFreePlacesOfTheQueue) {
    Rig rig(speculating(2));
    const unsigned n = 16;
    uint64_t d = write_linked(rig.host(0), segments(kSrc, kDst, n, 100, 128), {0x10000});
    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST));
    ChannelStats st = rig.platform().channel_stats(0);
    EXPECT_EQ(st.descriptors, n);
    EXPECT_EQ(st.speculative_reads_dropped, 0u);
    EXPECT_LE(st.speculative_reads, uint64_t(n));  // n - 1 used, at most 1 past the end
}

// A dependent fetch (one linked descriptor per read, the address known
// only from the previous one) costs at least L + Z/W per descriptor.
// Speculation beats that on a contiguous list, where every read hits, and
// not on one whose every next pointer misses: it then pays the round trip
// and the drained reads besides.
TEST(ModelWalker, SpeculationHidesTheRoundTripsOnlyWhenItHits) {
    const PlatformParams p = speculating();
    Rig rig(p);
    const unsigned n = 32;
    std::vector<uint64_t> scattered;
    for (unsigned i = 0; i < n; ++i) scattered.push_back(0x40000 + 0x1000 * i);
    uint64_t contiguous = write_linked(rig.host(0), segments(kSrc, kDst, n, 64, 64), {0x10000});
    uint64_t apart = write_linked(rig.host(0), segments(kSrc, kDst2, n, 64, 64), scattered);
    const auto [t_contiguous, t_apart] = cycles_of_two(rig, {contiguous, DMA_HW_FMT_LINKED_LIST},
                                                       {apart, DMA_HW_FMT_LINKED_LIST});
    const uint64_t dependent =
        n * (p.memory.read_latency_cycles + DMA_HW_LL_DESC_SIZE / p.bus.width_bytes);
    EXPECT_LT(t_contiguous, dependent);
    EXPECT_GE(t_apart, dependent);
}

/// n linked descriptors of `bytes` each, every one in a chunk of its own
/// (each next pointer misses), from `base`.
uint64_t write_scattered(Rig& rig, unsigned n, uint32_t bytes, uint64_t base, uint64_t dst) {
    std::vector<uint64_t> chunks;
    for (unsigned i = 0; i < n; ++i) chunks.push_back(base + 0x1000 * i);
    return write_linked(rig.host(0), segments(kSrc, dst, n, bytes, bytes), chunks);
}

/// Cycles a scattered list of 2n descriptors takes beyond one of n: the
/// per-descriptor cost n times over, the start and the tail cancelled.
uint64_t marginal_of_n(const PlatformParams& p, unsigned n, uint32_t bytes) {
    Rig rig(p);
    const uint64_t a = write_scattered(rig, n, bytes, 0x40000, kDst);
    const uint64_t b = write_scattered(rig, 2 * n, bytes, 0x80000, kDst2);
    const auto [t_n, t_2n] =
        cycles_of_two(rig, {a, DMA_HW_FMT_LINKED_LIST}, {b, DMA_HW_FMT_LINKED_LIST});
    return t_2n - t_n;
}

// The guesses stop once the awaited descriptor's next pointer is in, with
// its second beat: a read issued at i has its first beat at i + L, so with
// L = 1 guesses go out at i + 1 and i + 2 only, not P (with a long latency
// all P do: SpeculationHitsEveryDescriptorOfAContiguousList;
// docs/timing-model.md, "Speculative fetch").
TEST(ModelWalker, SpeculationStopsOnceTheNextPointerIsIn) {
    PlatformParams p = speculating();
    p.memory.read_latency_cycles = 1;
    Rig rig(p);
    uint64_t d = write_linked(rig.host(0), segments(kSrc, kDst, 1, 64, 64), {0x10000});
    run_one(rig, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST));
    EXPECT_EQ(rig.platform().channel_stats(0).speculative_reads, 2u);
}

/// A list whose every next pointer misses, at a latency that outweighs the
/// read channel's beats.
PlatformParams missing_at_latency(bool waits) {
    PlatformParams p = speculating();
    p.memory.read_latency_cycles = 200;
    p.dma.speculation_miss_waits = waits;
    return p;
}

// dma.speculation_miss_waits false (iDMA desc64): a miss's read issues as
// soon as the next pointer is in, the second beat of the read before it, so
// each descriptor costs L + 2 (the dropped guesses' beats still take their
// place on the read channel, behind it).
TEST(ModelWalker, SpeculationMissReadsAsSoonAsTheNextPointerIsIn) {
    const PlatformParams p = missing_at_latency(false);
    const unsigned n = 4;
    EXPECT_EQ(marginal_of_n(p, n, 64), n * (p.memory.read_latency_cycles + 2));
}

// Waiting for the guesses to drain first costs more than L + 2.
TEST(ModelWalker, SpeculationMissThatWaitsForTheDrainCostsMore) {
    const PlatformParams p = missing_at_latency(true);
    const unsigned n = 4;
    EXPECT_GT(marginal_of_n(p, n, 64), n * (p.memory.read_latency_cycles + 2));
}

/// Scattered 2 KiB segments at L = 100: D = 128 beats a segment, more than
/// L, so the read channel is the bottleneck.
PlatformParams channel_bound(bool in_order) {
    PlatformParams p = speculating();
    p.memory.read_latency_cycles = 100;
    p.dma.speculation_miss_waits = false;
    p.dma.fetch_in_read_order = in_order;
    return p;
}
constexpr uint32_t kChannelBoundBytes = 2048;

/// (1 + P) b + D: a descriptor's read, its P dropped guesses of b beats
/// each and its data, back to back on the read channel.
uint64_t channel_beats_per_descriptor(const PlatformParams& p) {
    const uint64_t b = DMA_HW_LL_DESC_SIZE / p.bus.width_bytes;
    return (1 + p.dma.descriptor_prefetch) * b + kChannelBoundBytes / p.bus.width_bytes;
}

// dma.fetch_in_read_order: no fetch is booked past the mover's next data
// read, so the read channel returns every read in issue order and stays
// busy: each scattered descriptor costs (1 + P) b + D.
TEST(ModelWalker, FetchInReadOrderKeepsTheReadChannelBusy) {
    const PlatformParams p = channel_bound(true);
    const unsigned n = 4;
    EXPECT_EQ(marginal_of_n(p, n, kChannelBoundBytes), n * channel_beats_per_descriptor(p));
}

// Fetches booked ahead of the data leave gaps the long data reads do not
// fit, so the same list costs more.
TEST(ModelWalker, FetchesAheadOfTheDataLeaveTheReadChannelIdle) {
    const PlatformParams p = channel_bound(false);
    const unsigned n = 4;
    EXPECT_GT(marginal_of_n(p, n, kChannelBoundBytes), n * channel_beats_per_descriptor(p));
}

// A descriptor leaves the FIFO when the mover takes it, not when it is
// decoded: behind a slow device the walker fetches only as fast as the
// mover takes descriptors, so however long the list, a descriptor waits
// from its fetch behind at most the 2P the FIFO holds and the R whose
// reads are out, one device time each.
TEST(ModelWalker, FetchesWaitForTheMoverToTakeDescriptorsFromTheFifo) {
    PlatformParams p;
    p.device.rate_bytes_per_cycle = 1;
    Rig rig(p);
    const unsigned n = 512, P = p.dma.descriptor_prefetch, R = p.dma.max_outstanding_reads;
    const uint32_t bytes = 256;  // one burst: 256 cycles of the device each
    std::vector<uint64_t> chunks;
    for (unsigned c = 0; c < 5; ++c) chunks.push_back(0x10000 + c * 0x1000);
    const uint64_t d = write_chained(rig.host(0), segments(0, kDst, n, bytes, bytes), chunks);
    run_one(rig, d, ctrl_word(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
    const ChannelStats& st = rig.platform().channel_stats(0);
    ASSERT_EQ(st.descriptors, n);
    const auto per_descriptor = static_cast<uint64_t>(bytes / p.device.rate_bytes_per_cycle);
    const uint64_t round_trips = 4 * (p.memory.read_latency_cycles + 32);
    EXPECT_LE(st.descriptor_latencies.max(), (2 * P + R + 1) * per_descriptor + round_trips);
}

TEST(ModelWalker, ChainLinksCostRoundTripsWhenDataCannotHideThem) {
    // 64-byte segments give the mover 4 beats of work per descriptor, far
    // less than a chain link's dependent fetch (L + beats + C), so every
    // chunk boundary shows up in the total time.
    PlatformParams p;
    Rig rig(p);
    const unsigned n = 64, deep = 16;
    std::vector<uint64_t> many;
    for (unsigned c = 0; c < deep; ++c) many.push_back(0x40000 + c * 0x1000);
    uint64_t flat = write_chained(rig.host(0), segments(kSrc, kDst, n, 64, 64), {0x10000});
    uint64_t chained = write_chained(rig.host(0), segments(kSrc, kDst2, n, 64, 64), many);
    uint64_t t_flat = 0, t_chained = 0;
    rig.run([&] {
        uint32_t ctrl = ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES);
        rig.start(0, flat, ctrl);
        uint64_t t0 = rig.now_cycle();
        t_flat = rig.wait_idle(0, 10'000'000) - t0;
        rig.start(0, chained, ctrl);
        t0 = rig.now_cycle();
        t_chained = rig.wait_idle(0, 10'000'000) - t0;
    });
    EXPECT_EQ(rig.platform().channel_stats(0).chain_links, deep - 1);
    // Each of the 15 links adds at least most of a read round trip.
    EXPECT_GE(t_chained, t_flat + (deep - 1) * p.memory.read_latency_cycles / 2);
}

}  // namespace
}  // namespace dmasim::model::test
