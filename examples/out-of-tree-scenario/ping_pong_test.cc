// ping_pong_test.cc - the scenario's own tests. Each case simulates once;
// the program runs every case in a process of its own.
#include <dmasim/tb/run.h>
#include <gtest/gtest.h>

using dmasim::tb::SimConfig;

namespace {

SimConfig small(unsigned rounds) {
    SimConfig c;
    c.memory_size_mib = 64;
    c.workload.scenario = "ping_pong";
    c.workload.entries = 16;
    c.workload.chain_depth = 2;
    c.scenario_params["scenario.ping_pong.rounds"] = rounds;
    return c;
}

TEST(PingPong, EveryLegMovesEveryByte) {
    const auto r = dmasim::tb::run_simulation(small(1));
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.leaked_pages, 0u);
}

TEST(PingPong, ThreeRoundsAreSixLegs) {
    const auto r = dmasim::tb::run_simulation(small(3));
    EXPECT_TRUE(r.integrity) << r.failure;
    // Two legs per round, each moving the whole list of 16 x 4 KiB.
    EXPECT_EQ(r.bytes, 2u * 3u * 16u * 4096u);
}

}  // namespace
