// run_e2e_test.cc - `dmasim run` through the real binary: exit status,
// summary, report keys and their consistency, trace, and usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::run_dmasim;
using test::TempDir;

/// A small, fast workload: 16 entries of 4 KiB over 2 chunks.
const std::vector<std::string> kSmall = {"--set", "workload.entries=16",
                                         "--set", "workload.segment_bytes=4096",
                                         "--set", "workload.chain_depth=2"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

/// Reads a report (or trace). A report's figures hold the invariants: the
/// run checked them itself (tb/bench/src/measure.h) or wrote no report.
json read_json(const std::string& path) { return json::parse(test::read_file(path)); }

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(SimRunE2E, DefaultConfigRunsAndPrintsTheSummary) {
    TempDir dir;
    auto r = run_dmasim(dir, {"run"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("platform     ", 0), 0u) << r.out;  // platform line first
    // One line per result definition (tb/results.h), by its label.
    for (const char* line : {"\nbytes moved ", "\nsimulated time ", "\nthroughput ",
                             "\nbus utilisation ", "\ndescriptors ", "\ndescriptor latency ch0 ",
                             "\nintegrity                 pass\n", "\nwall time "})
        EXPECT_TRUE(contains(r.out, line)) << line << "\n" << r.out;
    EXPECT_FALSE(contains(r.out + r.err, "Copyright")) << "SystemC banner shown";
}

TEST(SimRunE2E, ReportHoldsConsistentResultKeys) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    auto r = run_dmasim(dir, with({"run"}, with(kSmall, {"--report", report, "--quiet"})));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");  // --quiet
    json j = read_json(report);
    const json& res = j["result"];
    for (const char* key :
         {"bytes", "descriptors", "chain_links", "cycles", "sim_time_ns", "throughput_gbps",
          "bytes_per_cycle", "descriptor_bytes_fetched", "bus_utilization", "integrity"})
        EXPECT_TRUE(res.contains(key)) << key;
    EXPECT_EQ(res["integrity"], "pass");
    // 16 entries x 4096 bytes over 2 chunks: 16 data descriptors, 1 chain link.
    EXPECT_EQ(res["bytes"], 16 * 4096);
    EXPECT_EQ(res["descriptors"], 16);
    EXPECT_EQ(res["chain_links"], 2 - 1);
    const double bytes = res["bytes"], ns = res["sim_time_ns"], cycles = res["cycles"];
    const double clock_mhz = j["config"]["clock_mhz"];
    EXPECT_NEAR(res["throughput_gbps"].get<double>(), bytes / ns, 1e-9 * bytes / ns);
    EXPECT_NEAR(res["bytes_per_cycle"].get<double>(), bytes / cycles, 1e-9 * bytes / cycles);
    EXPECT_EQ(cycles, std::round(ns * clock_mhz / 1000));
    // config is flat and fully resolved; wall time sits outside result.
    EXPECT_EQ(j["config"]["workload.entries"], 16);
    EXPECT_EQ(j["config"]["dma.descriptor_format"], "chained_pages");
    EXPECT_TRUE(j["config"].contains("traffic.seed"));
    EXPECT_TRUE(j.contains("wall_seconds"));
    EXPECT_FALSE(res.contains("wall_seconds"));
    EXPECT_TRUE(j["statistics"].contains("dma.ch0"));
}

TEST(SimRunE2E, ReportHoldsADescriptorLatencyHistogram) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    ASSERT_EQ(run_dmasim(dir, with({"run"}, with(kSmall, {"--report", report, "--quiet"}))).status,
              0);
    json j = read_json(report);
    const json& h = j["histograms"]["dma.ch0.descriptor_latency_cycles"];
    EXPECT_EQ(h["count"], 16);  // one latency per data descriptor
    uint64_t counted = 0;
    for (const json& b : h["buckets"]) {
        counted += b["count"].get<uint64_t>();
        EXPECT_EQ(b["to"], 2 * b["from"].get<uint64_t>());  // power-of-two buckets
    }
    EXPECT_EQ(counted, 16u);
    EXPECT_LE(h["p50"], h["p90"]);
    EXPECT_LE(h["p90"], h["p99"]);
    EXPECT_LE(h["p99"], h["max"]);
    // The percentiles are statistics too (so CSV columns and plot axes).
    EXPECT_EQ(j["statistics"]["dma.ch0"]["descriptor_latency_p90_cycles"]["value"], h["p90"]);
    // No descriptor can finish faster than one fetch round trip (read
    // latency 50) plus its data (4096 B / 16 B per beat = 256 beats).
    EXPECT_GE(h["p50"].get<uint64_t>(), 50u + 4096 / 16);
}

TEST(SimRunE2E, SetOverridesTheConfigFile) {
    TempDir dir;
    const std::string cfg = dir.write("c.yaml", "workload:\n  entries: 4\n  chain_depth: 1\n");
    const std::string report = dir.path() + "/r.json";
    auto r = run_dmasim(dir, {"run", cfg, "--set", "workload.entries=8", "--report", report});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_json(report)["result"]["descriptors"], 8);
}

// AXI DMA's profile on the 1 GHz, 8-byte DDR-like platform: the platform's
// clock, bus and memory land in the report, the engine's own keys stay,
// and the run takes other cycles than the profile alone (4-byte bus,
// 5-cycle memory).
TEST(SimRunE2E, PlatformFileMovesAnEngineOntoItsClockBusAndMemory) {
    TempDir dir;
    const std::string engine = DMASIM_SOURCE_DIR "/configs/engines/axi-dma.yaml";
    const std::string platform = DMASIM_SOURCE_DIR "/configs/platforms/ddr-like.yaml";
    const std::string alone = dir.path() + "/alone.json", on = dir.path() + "/on.json";
    ASSERT_EQ(run_dmasim(dir, {"run", engine, "--quiet", "--report", alone}).status, 0);
    auto r = run_dmasim(dir, {"run", engine, "--platform", platform, "--quiet", "--report", on,
                              "--set", "memory.write_latency_cycles=30"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json a = read_json(alone), p = read_json(on);
    EXPECT_EQ(p["config"]["clock_mhz"], 1000.0);
    EXPECT_EQ(p["config"]["bus.width_bytes"], 8);
    EXPECT_EQ(p["config"]["memory.read_latency_cycles"], 50);
    EXPECT_EQ(p["config"]["memory.write_latency_cycles"], 30);  // --set over the platform
    EXPECT_EQ(p["config"]["dma.descriptor_setup_cycles"],
              a["config"]["dma.descriptor_setup_cycles"]);
    EXPECT_EQ(a["config"]["bus.width_bytes"], 4);
    EXPECT_EQ(p["result"]["bytes"], a["result"]["bytes"]);
    EXPECT_NE(p["result"]["cycles"], a["result"]["cycles"]);
}

TEST(SimRunE2E, PlatformFileWithAnEngineKeyExits2NamingItsLine) {
    TempDir dir;
    const std::string platform = dir.write("p.yaml", "clock_mhz: 100\ndma:\n  channels: 2\n");
    const std::string report = dir.path() + "/r.json";
    auto r = run_dmasim(dir, {"run", "--platform", platform, "--report", report});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "p.yaml:2: dma is not a platform key")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(report));
    r = run_dmasim(dir, {"run", "--platform", dir.path() + "/none.yaml"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "none.yaml")) << r.err;
}

// config --resolve and advise read --platform as run does.
TEST(SimRunE2E, ResolveAndAdviseTakeThePlatformFile) {
    TempDir dir;
    const std::string engine = DMASIM_SOURCE_DIR "/configs/engines/idma-desc64.yaml";
    auto r = run_dmasim(dir, {"config", "--resolve", engine, "--platform",
                              DMASIM_SOURCE_DIR "/configs/platforms/fpga-100mhz.yaml"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "\nbus.width_bytes: 4\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "\nmemory.read_latency_cycles: 5\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "\ndma.max_burst_beats: 256\n")) << r.out;  // iDMA's own
    // An engine profile is no platform file: refused before anything runs.
    r = run_dmasim(dir, {"advise", "--platform", engine, "-j", "1"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "idma-desc64.yaml:")) << r.err;
    EXPECT_TRUE(contains(r.err, "is not a platform key")) << r.err;
}

TEST(SimRunE2E, OutOfRangeValueExits2WithoutAReport) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    auto r = run_dmasim(dir, {"run", "--set", "dma.channels=99", "--report", report});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "dma.channels")) << r.err;
    EXPECT_TRUE(contains(r.err, "1 .. 16")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(report));
}

TEST(SimRunE2E, UnknownKeyInAFileExits2WithLineAndSuggestion) {
    TempDir dir;
    const std::string cfg = dir.write("bad.yaml", "dma:\n  max_outstanding_read: 4\n");
    auto r = run_dmasim(dir, {"run", cfg});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "bad.yaml:2:")) << r.err;
    EXPECT_TRUE(contains(r.err, "did you mean dma.max_outstanding_reads?")) << r.err;
}

TEST(SimRunE2E, MalformedYamlExits2WithLine) {
    TempDir dir;
    const std::string cfg = dir.write("bad.yaml", "dma:\n  channels: [1\n");
    auto r = run_dmasim(dir, {"run", cfg});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "bad.yaml:")) << r.err;
    EXPECT_TRUE(contains(r.err, "YAML syntax error")) << r.err;
}

TEST(SimRunE2E, UnknownScenarioNamesTheLineAndTheKnownOnes) {
    TempDir dir;
    const std::string cfg = dir.write("s.yaml", "workload:\n  scenario: throughputt\n");
    auto r = run_dmasim(dir, {"run", cfg});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err,
                         "s.yaml:2: unknown scenario 'throughputt', did you mean "
                         "throughput?"))
        << r.err;
}

TEST(SimRunE2E, ChainDeeperThanTheEngineAllowsIsRefusedWithExit2AndNoReport) {
    // 4 chunks need 3 chain links, more than 1: refused at validation
    // (the engine would stop with CHAIN_LOOP), naming both keys.
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    auto r =
        run_dmasim(dir, {"run", "--set", "workload.entries=8", "--set", "workload.chain_depth=4",
                         "--set", "dma.max_chain_depth=1", "--report", report});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("dma.max_chain_depth = 1"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(report));
}

TEST(SimRunE2E, CommandLineErrorsExit2AndHelpExits0) {
    TempDir dir;
    EXPECT_EQ(run_dmasim(dir, {"run", "--bogus"}).status, 2);
    EXPECT_EQ(run_dmasim(dir, {}).status, 2);  // no subcommand
    EXPECT_EQ(run_dmasim(dir, {"sweep", "-j", "0", "x.yaml"}).status, 2);
    for (const char* sub : {"run", "sweep", "merge", "plot", "config"}) {
        auto r = run_dmasim(dir, {sub, "--help"});
        EXPECT_EQ(r.status, 0) << sub;
        EXPECT_TRUE(contains(r.out, "Usage")) << sub;
    }
}

TEST(SimRunE2E, ConfigMarkdownMatchesTheCheckedInDocs) {
    TempDir dir;
    auto r = run_dmasim(dir, {"config", "--markdown"});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, test::read_file(DMASIM_SOURCE_DIR "/docs/configuration.md"));
}

TEST(SimRunE2E, ResolvedConfigReproducesTheRun) {
    TempDir dir;
    auto resolved = run_dmasim(dir, with({"config", "--resolve"}, kSmall));
    ASSERT_EQ(resolved.status, 0) << resolved.err;
    const std::string cfg = dir.write("resolved.yaml", resolved.out);
    const std::string a = dir.path() + "/a.json", b = dir.path() + "/b.json";
    ASSERT_EQ(run_dmasim(dir, with({"run", "--quiet", "--report", a}, kSmall)).status, 0);
    ASSERT_EQ(run_dmasim(dir, {"run", cfg, "--quiet", "--report", b}).status, 0);
    EXPECT_EQ(read_json(a)["config"], read_json(b)["config"]);
    EXPECT_EQ(read_json(a)["result"], read_json(b)["result"]);  // deterministic
}

TEST(SimRunE2E, TraceHoldsOneCompleteEventPerBurst) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json", trace = dir.path() + "/t.json";
    auto r = run_dmasim(dir, with({"run"}, with(kSmall, {"--report", report, "--trace", trace})));
    ASSERT_EQ(r.status, 0) << r.err;
    json events = read_json(trace)["traceEvents"];
    size_t reads = 0, writes = 0;
    for (const auto& e : events) {
        // Channel 0 is process 1; the RAM's own tracks name its bursts too.
        if (e["ph"] != "X" || e["pid"] != 1) continue;
        reads += e["name"] == "read";
        writes += e["name"] == "write";
    }
    const json ch0 = read_json(report)["statistics"]["dma.ch0"];
    EXPECT_EQ(reads, ch0["read_bursts"]["value"].get<double>());
    EXPECT_EQ(writes, ch0["write_bursts"]["value"].get<double>());
    // default.yaml: 16-byte bus, 16-beat bursts, so one page is 4096 / 256
    // bursts and 16 one-page segments take 16 x 16 reads.
    EXPECT_EQ(reads, 16u * 4096 / (16 * 16));
}

}  // namespace
}  // namespace dmasim::sim
