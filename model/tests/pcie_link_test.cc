// PCIe link timing (docs/pcie.md): the non-posted round trip, posted
// writes split at MPS, completions split at RCB, tags, and the raw rate.
// A Gen2 x4 link with no DLLP share carries exactly 2 bytes per cycle at
// 1 GHz (5 GT/s x 4 lanes x 8/10 / 8), so every expected cycle is whole.
#include <gtest/gtest.h>

#include "burst.h"
#include "pcie_link.h"
#include "support.h"

namespace dmasim::model {
namespace {

using namespace test;

constexpr unsigned kWidth = 16;
constexpr uint64_t kLatency = 50;                 // memory.read_latency_cycles
constexpr uint64_t kRoundTrip = 100;              // pcie.read_latency_cycles
constexpr uint64_t kRate = 2;                     // link bytes per cycle
constexpr uint64_t kRequest = 2 + 2 + 4 + 16;     // framing, sequence, LCRC, 4DW header
constexpr uint64_t kCompletion = 2 + 2 + 4 + 12;  // ... 3DW completion header

MemoryParams memory_params(const SimMemory& mem) {
    MemoryParams m;
    m.backing = mem.base();
    m.size_bytes = mem.size();
    m.read_latency_cycles = kLatency;
    return m;
}

struct LinkRig {
    explicit LinkRig(const PcieParams& p, double memory_bandwidth = 0)
        : memory("memory", with_bandwidth(memory_params(mem), memory_bandwidth), kWidth, clock),
          link(p, memory, kWidth, clock) {}
    static MemoryParams with_bandwidth(MemoryParams m, double bandwidth) {
        m.bandwidth_bytes_per_cycle = bandwidth;
        return m;
    }
    SimMemory mem{1 * MiB};
    Clock clock{1000};
    Memory memory;
    PcieLink link;
};

PcieParams gen2_x4() {
    PcieParams p;
    p.gen = 2;
    p.lanes = 4;
    p.dllp_overhead = 0;
    p.read_latency_cycles = kRoundTrip;
    return p;
}

// The request crosses, half the round trip reaches memory, the memory
// reads, the data goes back half the round trip and crosses as one CplD.
uint64_t one_read_done(uint64_t bytes) {
    const uint64_t arrive = kRequest / kRate + kRoundTrip / 2;
    const uint64_t data = arrive + kLatency + beats_of(0, bytes, kWidth);
    return data + kRoundTrip / 2 + (bytes + kCompletion) / kRate;
}

TEST(ModelPcieLink, OneReadIsRequestRoundTripMemoryAndCompletion) {
    LinkRig rig(gen2_x4());
    const Memory::ReadTiming r = rig.link.read(0, 0, 64);
    EXPECT_EQ(r.done, one_read_done(64));  // 12 + 50 + 50 + 4 + 50 + 42 = 208
    // Its first data byte arrives after the completion's overhead.
    EXPECT_EQ(r.data_start, r.done - 64 / kRate);
}

TEST(ModelPcieLink, WritesAreSplitAtMpsAndPostedWhenTheLastTlpLeaves) {
    PcieParams p = gen2_x4();
    p.max_payload_bytes = 256;
    LinkRig rig(p);
    const Memory::WriteTiming w = rig.link.write(0, 0, 1024);
    // 1024 / 256 = 4 MWr TLPs back to back; no response travels back.
    EXPECT_EQ(w.response, 4 * (256 + kRequest) / kRate);
    EXPECT_EQ(w.data_end, w.response);
}

// Memory at 1 byte per cycle, half the link's rate: a 256-byte TLP holds
// the write channel o = 256 cycles but crosses the link in L = 140. TLP 0
// reaches memory at L + RL/2; flow control holds each later one until the
// memory is free, so TLP k starts at L + RL/2 + k o; the last answers when
// its data is absorbed, less what streamed in while it crossed:
// (L + RL/2 + (N - 1) o) - RL/2 + (o - L) = N o, the memory's own pace.
TEST(ModelPcieLink, PostedWritesWaitForAMemorySlowerThanTheLink) {
    PcieParams p = gen2_x4();
    p.max_payload_bytes = 256;
    constexpr double kBandwidth = 1;
    LinkRig rig(p, kBandwidth);
    constexpr uint64_t kTlps = 4, kTlp = 256;
    const uint64_t occupancy = static_cast<uint64_t>(kTlp / kBandwidth);
    const uint64_t streaming = (kTlp + kRequest) / kRate;
    const Memory::WriteTiming w = rig.link.write(0, 0, kTlps * kTlp);
    EXPECT_EQ(w.response, kTlps * occupancy);
    // The engine's buffer is free once the last TLP has left.
    EXPECT_EQ(w.data_end, w.response - (occupancy - streaming));
    EXPECT_LE(static_cast<double>(kTlps * kTlp), kBandwidth * static_cast<double>(w.response));
}

// A memory cap at or above the width never holds the link.
TEST(ModelPcieLink, MemoryAsFastAsThePortLeavesPostedWritesAlone) {
    PcieParams p = gen2_x4();
    p.max_payload_bytes = 256;
    LinkRig rig(p, kWidth);
    const Memory::WriteTiming w = rig.link.write(0, 0, 1024);
    EXPECT_EQ(w.response, 4 * (256 + kRequest) / kRate);
}

TEST(ModelPcieLink, CompletionsEndOnReadCompletionBoundaries) {
    PcieParams p = gen2_x4();
    p.max_payload_bytes = 128;
    p.read_completion_boundary_bytes = 64;
    LinkRig rig(p);
    // 200 bytes from 100: the first completion may carry at most 128 bytes
    // and must end on a 64-byte boundary, so it stops at 192 (92 bytes);
    // the second carries the other 108, once the memory has delivered them.
    const Memory::ReadTiming r = rig.link.read(0, 100, 200);
    const uint64_t data = kRequest / kRate + kRoundTrip / 2 + kLatency;
    const uint64_t first_ready = data + beats_of(100, 92, kWidth) + kRoundTrip / 2;
    const uint64_t first_done = first_ready + (92 + kCompletion) / kRate;
    const uint64_t second_ready = data + beats_of(100, 200, kWidth) + kRoundTrip / 2;
    const uint64_t second_done = std::max(first_done, second_ready) + (108 + kCompletion) / kRate;
    EXPECT_EQ(r.done, second_done);
}

TEST(ModelPcieLink, ReadsAreSplitAtTheMaxReadRequestSize) {
    PcieParams p = gen2_x4();
    p.max_read_request_bytes = 128;
    p.max_payload_bytes = 128;
    LinkRig rig(p);
    // Two requests leave back to back; each comes back as one completion.
    const Memory::ReadTiming r = rig.link.read(0, 0, 256);
    const uint64_t second_arrive = 2 * kRequest / kRate + kRoundTrip / 2;
    // The memory serves them one after another on its read channel.
    const uint64_t second_ready = std::max(second_arrive, kRequest / kRate + kRoundTrip / 2 + 8) +
                                  kLatency + 8 + kRoundTrip / 2;
    const uint64_t first_done = one_read_done(128);
    EXPECT_EQ(r.done, std::max(first_done, second_ready) + (128 + kCompletion) / kRate);
}

TEST(ModelPcieLink, TagsLimitReadsInFlight) {
    PcieParams p = gen2_x4();
    p.tags = 1;
    LinkRig rig(p);
    const uint64_t first = rig.link.read(0, 0, 64).done;
    const uint64_t second = rig.link.read(0, 4096, 64).done;
    EXPECT_EQ(first, one_read_done(64));
    // With one tag the second request waits for the first completion.
    EXPECT_EQ(second, first + one_read_done(64));
}

TEST(ModelPcieLink, RawRateFollowsGenerationLanesAndEncoding) {
    EXPECT_DOUBLE_EQ(PcieLink::raw_gbytes_per_second(1, 1), 2.5 * 8 / 10 / 8);
    EXPECT_DOUBLE_EQ(PcieLink::raw_gbytes_per_second(3, 8), 8.0 * 8 * 128 / 130 / 8);
    EXPECT_DOUBLE_EQ(PcieLink::raw_gbytes_per_second(5, 16), 32.0 * 16 * 128 / 130 / 8);
    PcieParams p;  // Gen3 x8, 8.14 % DLLP share, at 1 GHz
    LinkRig rig(p);
    EXPECT_DOUBLE_EQ(rig.link.bytes_per_cycle(), 8.0 * 8 * 128 / 130 / 8 * (1 - 0.0814));
}

TEST(ModelPcieLink, ParametersNoLinkHasAreRefused) {
    // The first problem validate() reports names the key at fault.
    auto first_key = [](const PcieParams& p) {
        BusParams bus;
        bus.kind = BusKind::pcie;
        bus.pcie = p;
        auto problems = validate(DmaParams{}, bus);
        return problems.empty() ? std::string() : problems.front().keys.front();
    };
    PcieParams p;
    p.max_payload_bytes = 384;
    EXPECT_EQ(first_key(p), "pcie.max_payload_bytes");
    p = {};
    p.gen = 6;
    EXPECT_EQ(first_key(p), "pcie.gen");
    EXPECT_EQ(first_key(PcieParams{}), "");
}

}  // namespace
}  // namespace dmasim::model
