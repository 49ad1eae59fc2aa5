// report_test.cc - report JSON, the human summary and atomic writes.
#include "report.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support.h"

namespace dmasim::sim {
namespace {

/// 1 MiB in 65,536 cycles at 1000 MHz: 65,536 ns, 16 bytes per cycle.
tb::RunResult one_mib_result() {
    tb::RunResult r;
    r.bytes = 1 << 20;
    r.cycles = 65536;
    r.sim_time_ns = 65536;
    r.throughput_gbps = static_cast<double>(r.bytes) / r.sim_time_ns;
    r.bytes_per_cycle = static_cast<double>(r.bytes) / r.cycles;
    r.integrity = true;
    r.statistics = {{"dma.ch0", {{"read_bursts", 4096, "bursts"}}}};
    return r;
}

TEST(SimReport, KeepsWallTimeOutsideTheResult) {
    Json report = make_report(tb::SimConfig{}, one_mib_result(), 1.5);
    EXPECT_EQ(report["wall_seconds"], 1.5);
    EXPECT_FALSE(report["result"].contains("wall_seconds"));
    EXPECT_EQ(report["result"]["integrity"], "pass");
    EXPECT_EQ(report["statistics"]["dma.ch0"]["read_bursts"]["value"], 4096);
    EXPECT_EQ(report["statistics"]["dma.ch0"]["read_bursts"]["unit"], "bursts");
}

TEST(SimReport, FailedIntegrityCarriesTheReason) {
    tb::RunResult r = one_mib_result();
    r.integrity = false;
    r.failure = "byte 12 differs";
    r.first_bad_address = 0x1000;
    Json result = make_report(tb::SimConfig{}, r, 0)["result"];
    EXPECT_EQ(result["integrity"], "fail");
    EXPECT_EQ(result["failure"], "byte 12 differs");
    EXPECT_EQ(result["first_bad_address"], 0x1000);
}

TEST(SimReport, ConfigIsFlatByDottedKey) {
    tb::SimConfig c;
    c.workload.entries = 77;
    Json config = config_to_json(c);
    EXPECT_EQ(config["workload.entries"], 77);
    EXPECT_EQ(config["memory.placement"], "scattered");
    for (const auto& [key, value] : config.items()) EXPECT_FALSE(value.is_object()) << key;
}

TEST(SimSummary, StartsWithThePlatformAndShowsThroughput) {
    std::string text = summary_text(tb::SimConfig{}, one_mib_result(), 0.5);
    EXPECT_EQ(text.rfind("platform                  1000 MHz, 16-byte bus", 0), 0u) << text;
    // 2^20 bytes / 65,536 ns = 16 GB/s = 16 bytes/cycle at 1 GHz.
    EXPECT_NE(text.find("\nthroughput                16 GB/s\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nbytes per cycle           16 B/cycle\n"), std::string::npos) << text;
    // 1 MiB in 0.5 s of wall time: 2,097,152 B per wall second, 2.1 MB/s
    // to the wall time's three digits.
    EXPECT_NE(text.find("\nwall time                 500 ms (2.1 MB/s simulated)\n"),
              std::string::npos)
        << text;
}

// 65,536 ns is 65.536 us: four significant digits in the unit that keeps
// it at least 1, as every time the summary prints.
TEST(SimSummary, ScalesTheSimulatedTime) {
    std::string text = summary_text(tb::SimConfig{}, one_mib_result(), 0.5);
    EXPECT_NE(text.find("\nsimulated time            65.54 us\n"), std::string::npos) << text;
}

// The figure issue 40 quoted: 1.509 us summed in binary doubles.
TEST(SimSummary, ScenarioResultsPrintWithoutFloatNoise) {
    tb::RunResult r = one_mib_result();
    r.scenario_results = {{"latency_p99_us", 1.5090000000000001, "us", "p99"},
                          {"requests_completed", 1, "requests", "done"}};
    std::string text = summary_text(tb::SimConfig{}, r, 0.5);
    EXPECT_NE(text.find("latency_p99_us = 1.509 us  (p99)\n"), std::string::npos) << text;
    EXPECT_NE(text.find("requests_completed = 1 request  (done)\n"), std::string::npos) << text;
}

TEST(SimReport, ScenarioResultsKeepFullPrecision) {
    tb::RunResult r = one_mib_result();
    r.scenario_results = {{"latency_p99_us", 1.5090000000000001, "us", "p99"}};
    const Json result = make_report(tb::SimConfig{}, r, 0)["result"];
    EXPECT_EQ(result["scenario_results"]["latency_p99_us"]["value"].get<double>(),
              1.5090000000000001);
}

TEST(SimSummary, OneEntryIsOneEntry) {
    tb::SimConfig c;
    c.workload.entries = 1;
    c.workload.chain_depth = 1;
    std::string text = summary_text(c, one_mib_result(), 0.5);
    EXPECT_NE(text.find(", 1 entry x "), std::string::npos) << text;
    EXPECT_NE(text.find("DMA 1 channel,"), std::string::npos) << text;
}

/// A channel's descriptor latencies from `count` descriptors.
tb::RunResult with_latencies(uint64_t count) {
    tb::RunResult r = one_mib_result();
    r.histograms = {{"dma.ch0.descriptor_latency_cycles", "cycles", count, 400, 410, 420, 420, {}}};
    return r;
}

// The summary names the latency (per descriptor, unlike a request
// scenario's) and says what it spans.
TEST(SimSummary, DescriptorLatencyIsNamedAndExplained) {
    std::string text = summary_text(tb::SimConfig{}, with_latencies(256), 0.5);
    EXPECT_NE(text.find("\ndescriptor latency ch0    p50 400 / p90 410 / p99 420 cycles, "
                        "a descriptor's fetch issued to its status written back\n"),
              std::string::npos)
        << text;
}

// Nearest rank: p99 of 99 samples is the 99th, their maximum; of 100 the
// 99th of 100, not the maximum.
TEST(SimSummary, DescriptorLatencyFromFewerThanAHundredSaysSo) {
    EXPECT_NE(summary_text(tb::SimConfig{}, with_latencies(99), 0.5)
                  .find("(from only 99 descriptors: p99 and above are their maximum)\n"),
              std::string::npos);
    EXPECT_EQ(summary_text(tb::SimConfig{}, with_latencies(100), 0.5).find("from only"),
              std::string::npos);
}

TEST(SimSummary, ShowsTheCycleAccountLargestFirstWithShares) {
    tb::RunResult r = one_mib_result();
    // 65,536 cycles: a quarter write-back, three quarters data, no other cause.
    r.account[static_cast<size_t>(model::Cause::writeback)] = r.cycles / 4;
    r.account[static_cast<size_t>(model::Cause::data)] = r.cycles - r.cycles / 4;
    std::string text = summary_text(tb::SimConfig{}, r, 0.5);
    const auto data = text.find("\ncycles by cause           data                    49152 cycles  75.0 %\n");
    const auto writeback = text.find("\n                          writeback               16384 cycles  25.0 %\n");
    EXPECT_NE(data, std::string::npos) << text;
    EXPECT_NE(writeback, std::string::npos) << text;
    EXPECT_LT(data, writeback);
    EXPECT_EQ(text.find("idle"), std::string::npos) << "causes without cycles are left out";
}

TEST(SimAtomicWrite, LeavesOnlyTheCompleteFile) {
    test::TempDir dir;
    const std::string path = dir.path() + "/r.json";
    write_file_atomically(path, "first");
    write_file_atomically(path, "second");
    EXPECT_EQ(test::read_file(path), "second");
    size_t files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path()))
        ++files;
    EXPECT_EQ(files, 1u);  // no temporary left behind
}

TEST(SimAtomicWrite, FailsLoudlyInAMissingDirectory) {
    EXPECT_THROW(write_file_atomically("/nonexistent/dir/r.json", "x"), std::runtime_error);
}

}  // namespace
}  // namespace dmasim::sim
