// RAM target: burst timing, channel independence, errors and DMI.
#include <gtest/gtest.h>

#include <vector>

#include "memory.h"
#include "support.h"

namespace dmasim::model::test {
namespace {

struct Access {
    tlm::tlm_response_status status;
    uint64_t cycles;
};

// One burst from the CPU port; returns its annotated delay in cycles.
Access cpu_burst(Rig& rig, bool write, uint64_t addr, unsigned bytes) {
    std::vector<uint8_t> data(bytes);
    tlm::tlm_generic_payload trans;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(addr);
    trans.set_data_ptr(data.data());
    trans.set_data_length(bytes);
    trans.set_streaming_width(bytes);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    rig.cpu().socket->b_transport(trans, delay);
    double period = 1000.0 / rig.platform().params().clock_mhz;
    return {trans.get_response_status(),
            static_cast<uint64_t>(delay.to_seconds() * 1e9 / period + 0.5)};
}

TEST(ModelMemory, ReadBurstCompletesLatencyPlusBeatsAfterIssue) {
    PlatformParams p;
    Rig rig(p);
    const unsigned b = 8;  // beats
    Access a = cpu_burst(rig, false, 0x1000, b * p.bus.width_bytes);
    EXPECT_EQ(a.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(a.cycles, p.memory.read_latency_cycles + b);
}

TEST(ModelMemory, InterconnectLatencyIsAddedToEachRequest) {
    PlatformParams p;
    p.bus.interconnect_latency_cycles = 3;
    Rig rig(p);
    const unsigned b = 4;
    Access a = cpu_burst(rig, false, 0x2000, b * p.bus.width_bytes);
    EXPECT_EQ(a.cycles, 3 + p.memory.read_latency_cycles + b);
}

TEST(ModelMemory, WriteResponseComesWriteLatencyAfterLastBeat) {
    PlatformParams p;
    Rig rig(p);
    const unsigned b = 5;
    Access a = cpu_burst(rig, true, 0x3000, b * p.bus.width_bytes);
    EXPECT_EQ(a.cycles, b + p.memory.write_latency_cycles);
}

TEST(ModelMemory, SecondReadQueuesBehindTheFirstOnTheReadChannel) {
    PlatformParams p;
    Rig rig(p);
    const uint64_t L = p.memory.read_latency_cycles, b = 16;
    rig.memory().read_burst(0, 0, b, b * 16);
    Memory::ReadTiming second = rig.memory().read_burst(0, 0, b, b * 16);
    // Data beats of the second follow those of the first: [L + b, L + 2b).
    EXPECT_EQ(second.data_start, L + b);
    EXPECT_EQ(second.done, L + 2 * b);
}

TEST(ModelMemory, ReadAndWriteChannelsAreIndependent) {
    PlatformParams p;
    Rig rig(p);
    const uint64_t b = 16;
    rig.memory().read_burst(0, 0, b, b * 16);
    Memory::WriteTiming w = rig.memory().write_burst(0, 0, b, b * 16);
    EXPECT_EQ(w.response, b + p.memory.write_latency_cycles);
}

TEST(ModelMemory, BandwidthCapStretchesEachBeat) {
    PlatformParams p;
    p.memory.bandwidth_bytes_per_cycle = 4;  // a quarter of the 16-byte bus
    Rig rig(p);
    const uint64_t b = 8;
    Memory::ReadTiming r = rig.memory().read_burst(0, 0, b, b * 16);
    EXPECT_EQ(r.done, p.memory.read_latency_cycles + b * 16 / 4);
}

TEST(ModelMemory, AddressBeyondRamGetsAddressError) {
    Rig rig(PlatformParams{}, 1 * MiB);
    EXPECT_EQ(cpu_burst(rig, false, 1 * MiB, 16).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(cpu_burst(rig, false, 1 * MiB - 8, 16).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(ModelMemory, FaultRegionAnswersGenericError) {
    Rig rig(PlatformParams{}, 1 * MiB);
    rig.memory().inject_fault_from(512 * KiB);
    EXPECT_EQ(cpu_burst(rig, true, 512 * KiB, 16).status, tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(cpu_burst(rig, true, 512 * KiB - 16, 16).status, tlm::TLM_OK_RESPONSE);
}

TEST(ModelMemory, DmiCoversAllOfRam) {
    Rig rig(PlatformParams{}, 2 * MiB);
    tlm::tlm_generic_payload trans;
    tlm::tlm_dmi dmi;
    trans.set_address(0x100);
    ASSERT_TRUE(rig.cpu().socket->get_direct_mem_ptr(trans, dmi));
    EXPECT_EQ(dmi.get_start_address(), 0u);
    EXPECT_EQ(dmi.get_end_address(), 2 * MiB - 1);
    EXPECT_EQ(dmi.get_dmi_ptr(), rig.host(0));
}

TEST(ModelMemory, WriteCopiesBytesIntoBacking) {
    Rig rig(PlatformParams{}, 1 * MiB);
    rig.run([&] { rig.cpu().write32(0x40, 0xA5A5F00Du); });
    uint32_t v;
    std::memcpy(&v, rig.host(0x40), 4);
    EXPECT_EQ(v, 0xA5A5F00Du);
}

}  // namespace
}  // namespace dmasim::model::test
