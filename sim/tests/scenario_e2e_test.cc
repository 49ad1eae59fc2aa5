// scenario_e2e_test.cc - scenario parameters and results through the real
// binary: the tutorial scenario (example_repeat) from a config, --set and a
// sweep, and the error scenarios saying what they checked.
#include <dmasim/hw/dma_hw.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::read_file;
using test::run_dmasim;
using test::TempDir;

constexpr uint64_t kEntries = 8, kSegment = 1024;

/// example_repeat on 8 x 1 KiB with the given --set parameters; its report.
json repeat_report(const TempDir& dir, const std::vector<std::string>& params) {
    const std::string report = dir.path() + "/r.json";
    std::vector<std::string> args = {"run",      "--quiet",
                                     "--set",    "workload.scenario=example_repeat",
                                     "--set",    "workload.entries=8",
                                     "--set",    "workload.segment_bytes=1KiB",
                                     "--report", report};
    for (const auto& p : params) args.insert(args.end(), {"--set", p});
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.err;
    return json::parse(read_file(report));
}

TEST(SimScenarioE2E, ParametersDriveTheScenarioAndResultsReachTheReport) {
    TempDir dir;
    const json j = repeat_report(dir, {"scenario.example_repeat.iterations=3"});
    EXPECT_EQ(j["config"]["scenario.example_repeat.iterations"], 3);
    // Every iteration moves the whole list and is measured.
    EXPECT_EQ(j["result"]["bytes"], 3 * kEntries * kSegment);
    const json& results = j["result"]["scenario_results"];
    ASSERT_TRUE(results.contains("iteration_ns_min")) << results.dump();
    EXPECT_EQ(results["iteration_ns_max"]["unit"], "ns");
    EXPECT_GT(results["iteration_ns_min"]["value"].get<double>(), 0);
    EXPECT_LE(results["iteration_ns_min"]["value"], results["iteration_ns_max"]["value"]);
}

TEST(SimScenarioE2E, GapParameterAddsExactlyItsIdleTime) {
    // Iterations are identical but for their seed and nothing else runs
    // meanwhile, so 3 iterations with a gap of G cycles take 2 G cycles
    // (2 G ns at the default 1000 MHz) longer than with none.
    TempDir dir;
    const auto none = repeat_report(dir, {"scenario.example_repeat.iterations=3"});
    const auto gapped = repeat_report(
        dir, {"scenario.example_repeat.iterations=3", "scenario.example_repeat.gap_cycles=1us"});
    EXPECT_EQ(gapped["config"]["scenario.example_repeat.gap_cycles"], 1000);
    EXPECT_EQ(gapped["result"]["cycles"].get<uint64_t>() - none["result"]["cycles"].get<uint64_t>(),
              2u * 1000);
}

TEST(SimScenarioE2E, ShippedConfigAndSweepOfAParameter) {
    TempDir dir;
    const std::string sweep =
        dir.write("s.yaml", std::string("base: ") + DMASIM_SOURCE_DIR +
                                "/configs/scenarios/example_repeat.yaml\n"
                                "set:\n  workload.entries: 8\n  workload.segment_bytes: 1024\n"
                                "sweep:\n  scenario.example_repeat.iterations: [1, 2]\n");
    const std::string out = dir.path() + "/o";
    auto r = run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const std::string csv = read_file(out + "/results.csv");
    // The scenario's results follow the standard columns, before the statistics.
    EXPECT_NE(csv.find(",integrity,iteration_ns_min,iteration_ns_max,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\n1,8192,"), std::string::npos) << csv;   // 1 x 8 x 1024 bytes
    EXPECT_NE(csv.find("\n2,16384,"), std::string::npos) << csv;  // 2 x 8 x 1024 bytes
}

TEST(SimScenarioE2E, ErrorInjectionSaysWhatItCheckedInsteadOfZeroThroughput) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    auto r = run_dmasim(dir, {"run", DMASIM_SOURCE_DIR "/configs/scenarios/error_injection.yaml",
                              "--report", report});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("throughput"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("nothing: the scenario's transfers are not measured"), std::string::npos)
        << r.out;
    const json results = json::parse(read_file(report))["result"]["scenario_results"];
    for (const auto& [name, code] :
         std::vector<std::pair<std::string, unsigned>>{{"zero_length", DMA_ERR_ZERO_LENGTH},
                                                       {"descriptor_address", DMA_ERR_DESC_ADDRESS},
                                                       {"data_address", DMA_ERR_DATA_ADDRESS},
                                                       {"chain_loop", DMA_ERR_CHAIN_LOOP},
                                                       {"bad_flags", DMA_ERR_BAD_DESCRIPTOR},
                                                       {"too_deep", DMA_ERR_CHAIN_LOOP},
                                                       {"abort", DMA_ERR_ABORTED}}) {
        EXPECT_EQ(results[name + ".code"]["value"], code) << name;
        EXPECT_EQ(results[name + ".held"]["value"], 1) << name;
    }
}

TEST(SimScenarioE2E, BusFaultReportsTheFaultedChannelsCode) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    auto r = run_dmasim(dir, {"run", DMASIM_SOURCE_DIR "/configs/scenarios/bus_fault.yaml", "--set",
                              "fault.kind=descriptor", "--report", report, "--quiet"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json results = json::parse(read_file(report))["result"]["scenario_results"];
    EXPECT_EQ(results["fault.code"]["value"], DMA_ERR_DESC_BUS);
    EXPECT_EQ(results["fault.held"]["value"], 1);
}

}  // namespace
}  // namespace dmasim::sim
