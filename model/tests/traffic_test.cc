// The background traffic master: it competes for RAM channels but never
// changes memory.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kDesc = 0x10000, kSrc = 0x100000, kDst = 0x800000;
const uint32_t kM2M = ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES);

double traffic_bytes(Platform& platform) {
    for (const StatGroup& g : platform.statistics())
        if (g.name == "traffic") return g.counters.at(0).value;
    return -1;
}

TEST(ModelTraffic, BackgroundReadsTakeReadBandwidth) {
    PlatformParams p;
    p.traffic.bytes_per_cycle = 8;  // half of the 16-byte read channel
    p.traffic.read_fraction = 1.0;
    Rig rig(p);
    const uint32_t bytes = 256 * KiB;
    uint64_t cycles =
        rig.transfer(write_chained(rig.host(0), segments(kSrc, kDst, 1, bytes, 0), {kDesc}), kM2M);
    ASSERT_NE(cycles, 0u);
    EXPECT_GT(traffic_bytes(rig.platform()), 0);
    // The read channel carries at most one beat per cycle for both masters.
    EXPECT_LE(double(bytes) / cycles, p.bus.width_bytes - 0.8 * p.traffic.bytes_per_cycle);
}

TEST(ModelTraffic, BackgroundWritesNeverChangeMemory) {
    PlatformParams p;
    p.traffic.bytes_per_cycle = 8;
    p.traffic.read_fraction = 0.0;  // writes only
    const uint64_t ram = 16 * MiB;
    Rig rig(p, ram);
    fill_pattern(rig.host(0), ram, 9);
    const uint32_t bytes = 64 * KiB;
    uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 1, bytes, 0), {kDesc});
    std::vector<uint8_t> before(rig.host(0), rig.host(0) + ram);
    std::memcpy(&before[kDst], rig.host(kSrc), bytes);  // the transfer itself

    ASSERT_NE(rig.transfer(d, kM2M), 0u);

    EXPECT_GT(traffic_bytes(rig.platform()), 0);
    // Only the transfer's destination and its descriptor's write-back differ.
    std::memcpy(&before[kDesc], rig.host(kDesc), DMA_HW_DESC_SIZE);
    EXPECT_EQ(std::memcmp(before.data(), rig.host(0), ram), 0);
}

TEST(ModelTraffic, IdlePlatformLetsSimulationEnd) {
    PlatformParams p;
    p.traffic.bytes_per_cycle = 4;
    Rig rig(p);
    // run() returns only if no process keeps the kernel busy.
    rig.run([&] { sc_core::wait(sc_core::sc_time(1, sc_core::SC_US)); });
    EXPECT_EQ(traffic_bytes(rig.platform()), 0);
}

}  // namespace
}  // namespace dmasim::model::test
