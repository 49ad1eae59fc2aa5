// scenarios_test.cc - every shipped scenario runs on a shortened workload
// and passes; the trace and VCD outputs appear complete. One run per test.
#include <dmasim/tb/run.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "support.h"

namespace dmasim::tb {
namespace {

RunResult run_scenario(const std::string& name, SimConfig c = test::small_config()) {
    c.workload.scenario = name;
    return run_simulation(c);
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(Scenarios, ThroughputPasses) {
    const RunResult r = run_scenario("throughput");
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.leaked_pages, 0u);
}

TEST(Scenarios, MultiChannelMovesTheListOnEveryChannel) {
    SimConfig c = test::small_config();
    c.platform.dma.channels = 3;
    const RunResult r = run_scenario("multi_channel", c);
    EXPECT_TRUE(r.integrity) << r.failure;
    // Three copies of the list, each with its own seed but the same fixed lengths.
    EXPECT_EQ(r.bytes, 3 * test::list_bytes(c.workload));
    EXPECT_EQ(r.descriptors, 3 * c.workload.entries);
    EXPECT_EQ(r.chain_links, 3 * (c.workload.chain_depth - 1));
}

TEST(Scenarios, MultiChannelFromTheDevicePasses) {
    // Two device reads interleave in one stream: only what can be attributed
    // (bytes, descriptors, nothing written outside the lists) is checked.
    SimConfig c = test::small_config();
    c.platform.dma.channels = 2;
    c.workload.direction = DMA_HW_DEV_TO_MEM;
    const RunResult r = run_scenario("multi_channel", c);
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.bytes, 2 * test::list_bytes(c.workload));
}

TEST(Scenarios, ContentionPassesWithTheDefaultTrafficMaster) {
    const RunResult r = run_scenario("contention");
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.bytes, test::list_bytes(test::small_config().workload));
}

TEST(Scenarios, ContentionIsSlowerThanThroughputAlone) {
    // Not a timing figure: only that competing traffic cannot speed a run up.
    SimConfig c = test::small_config();
    c.workload.entries = 64;
    c.workload.segment_bytes = 4096;
    c.platform.traffic.bytes_per_cycle = c.platform.bus.width_bytes;
    const RunResult r = run_scenario("contention", c);
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_LE(r.bytes_per_cycle, c.platform.bus.width_bytes);
}

TEST(Scenarios, StreamingFillsFromAndDrainsToTheDevice) {
    const RunResult r = run_scenario("streaming");
    EXPECT_TRUE(r.integrity) << r.failure;
    // Both directions move the list once (same lengths, next seed).
    EXPECT_EQ(r.bytes, 2 * test::list_bytes(test::small_config().workload));
}

TEST(Scenarios, ErrorInjectionSeesEveryErrorClass) {
    SimConfig c = test::small_config();
    c.platform.dma.max_chain_depth = 4;
    c.workload.segment_bytes = 4096;
    c.workload.entries = 64;
    const RunResult r = run_scenario("error_injection", c);
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.leaked_pages, 0u);
}

TEST(Scenarios, ExampleTwoListsPasses) {
    SimConfig c = test::small_config();
    c.platform.dma.channels = 2;
    const RunResult r = run_scenario("example_two_lists", c);
    EXPECT_TRUE(r.integrity) << r.failure;
    // List A: 37 entries; list B: 18 entries of twice the size.
    EXPECT_EQ(r.descriptors, 37u + 18u);
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

double counter(const RunResult& r, const std::string& group, const std::string& name) {
    for (const auto& g : r.statistics)
        if (g.name == group)
            for (const auto& c : g.counters)
                if (c.name == name) return c.value;
    return -1;
}

TEST(Outputs, TraceHasOneCompleteEventPerBurstAndAnInterrupt) {
    const std::string path = ::testing::TempDir() + "tb_trace.json";
    std::remove(path.c_str());
    RunOptions o;
    o.trace_path = path;
    const RunResult r = run_simulation(test::small_config(), o);
    ASSERT_TRUE(r.integrity) << r.failure;
    const std::string json = slurp(path);
    EXPECT_EQ(json.rfind("{\"displayTimeUnit\"", 0), 0u);
    EXPECT_EQ(json.substr(json.size() - 4), "\n]}\n");
    // Channel 0 is process 1 (the RAM's own tracks name its bursts too).
    auto channel_slices = [&json](const std::string& name) {
        size_t n = 0;
        std::istringstream lines(json);
        for (std::string line; std::getline(lines, line);)
            n += line.rfind("{\"name\":\"" + name + "\",\"cat\":\"dma\",\"ph\":\"X\"", 0) == 0 &&
                 line.find(",\"pid\":1,") != std::string::npos;
        return n;
    };
    EXPECT_EQ(channel_slices("read"), counter(r, "dma.ch0", "read_bursts"));
    EXPECT_EQ(channel_slices("write"), counter(r, "dma.ch0", "write_bursts"));
    EXPECT_EQ(count(json, "\"ph\":\"i\""), 1u);  // one transfer, one interrupt
    EXPECT_GT(count(json, "\"thread_name\""), 0u);
}

TEST(Outputs, VcdHoldsTheIrqAndBusySignals) {
    const std::string path = ::testing::TempDir() + "tb_wave.vcd";
    std::remove(path.c_str());
    RunOptions o;
    o.vcd_path = path;
    const RunResult r = run_simulation(test::small_config(), o);
    ASSERT_TRUE(r.integrity) << r.failure;
    const std::string vcd = slurp(path);
    EXPECT_NE(vcd.find("irq"), std::string::npos);
    EXPECT_NE(vcd.find("busy_ch0"), std::string::npos);
}

}  // namespace
}  // namespace dmasim::tb
