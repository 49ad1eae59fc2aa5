// advise_e2e_test.cc - `dmasim advise` through the real binary: a known
// bottleneck is the first knob of its group, the JSON keeps the groups
// apart and agrees with the table and with `dmasim run`, and bad input is
// refused as `run` refuses it.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::read_file;
using test::run_dmasim;
using test::TempDir;

/// `dmasim advise --set ... -j 2 --json OUT` and its JSON, or null with a
/// test failure naming stderr.
json advise(const TempDir& dir, const std::vector<std::string>& sets) {
    const std::string out = dir.path() + "/advice.json";
    std::vector<std::string> args = {"advise", "-j", "2", "--json", out};
    for (const auto& set : sets) args.insert(args.end(), {"--set", set});
    const auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    return r.status == 0 ? json::parse(read_file(out)) : json();
}

std::string first_knob(const json& advice, const char* group) {
    return advice[group].empty() ? "" : advice[group][0]["knob"].get<std::string>();
}

// A small list of 64-byte segments fetched one descriptor per read: each
// data descriptor waits a memory round trip for its fetch, so fetching
// more per read (or queueing more ahead) is the engine's best step.
TEST(AdviseE2E, PrefetchStarvedListRanksDescriptorFetchFirst) {
    TempDir dir;
    const json advice = advise(dir, {"workload.entries=1024", "workload.segment_bytes=64",
                                     "workload.chain_depth=16", "dma.descriptor_prefetch=1"});
    const std::string first = first_knob(advice, "engine");
    EXPECT_TRUE(first == "dma.descriptor_prefetch" || first == "dma.descriptor_queue")
        << advice["engine"].dump(2);
}

// One read in flight against a 200-cycle latency, bursts already as long
// as they go: the engine waits out the latency per burst, and a second
// read in flight is what hides it.
TEST(AdviseE2E, OneOutstandingReadRanksOutstandingReadsFirst) {
    TempDir dir;
    const json advice = advise(
        dir, {"dma.max_outstanding_reads=1", "memory.read_latency_cycles=200",
              "dma.max_burst_beats=256", "workload.entries=16", "workload.segment_bytes=16KiB"});
    EXPECT_EQ(first_knob(advice, "engine"), "dma.max_outstanding_reads")
        << advice["engine"].dump(2);
}

// A 4-byte bus under an engine with plenty in flight: moving the data is
// the cost, and only a wider bus moves it faster.
TEST(AdviseE2E, NarrowBusPutsBusWidthFirstAmongPlatformKnobs) {
    TempDir dir;
    const json advice = advise(dir, {"bus.width_bytes=4", "dma.max_outstanding_reads=64",
                                     "dma.max_outstanding_writes=64", "workload.entries=64"});
    EXPECT_EQ(first_knob(advice, "platform"), "bus.width_bytes") << advice["platform"].dump(2);
}

TEST(AdviseE2E, JsonKeepsTheGroupsApartRankedAndAgreesWithRun) {
    TempDir dir;
    const std::vector<std::string> sets = {"workload.entries=64", "workload.segment_bytes=512"};
    const json advice = advise(dir, sets);
    ASSERT_TRUE(advice.is_object());
    std::vector<std::string> run_args;
    for (const auto& set : sets) run_args.insert(run_args.end(), {"--set", set});
    const json run = json::parse(test::report_of_run(dir, run_args));
    const int64_t base = advice["baseline"]["cycles"].get<int64_t>();
    EXPECT_EQ(base, run["result"]["cycles"].get<int64_t>());
    EXPECT_EQ(advice["config"], run["config"]);

    // Each group's own sections only, each knob once, most cycles saved first.
    const std::map<std::string, std::set<std::string>> sections = {
        {"engine", {"dma", "iommu", "pcie"}},
        {"platform", {"bus", "memory", "pcie", "device", "traffic"}},
        {"driver", {"dma", "iommu", "cpu", "memory", "workload"}}};
    std::set<std::string> seen;
    for (const auto& [group, allowed] : sections) {
        ASSERT_TRUE(advice[group].is_array()) << group;
        int64_t previous = INT64_MAX;
        for (const auto& row : advice[group]) {
            const std::string knob = row["knob"];
            EXPECT_TRUE(allowed.count(knob.substr(0, knob.find('.')))) << group << ": " << knob;
            EXPECT_TRUE(seen.insert(knob).second) << knob << " listed twice";
            const int64_t saved = row["cycles_saved"];
            EXPECT_EQ(saved, base - row["cycles"].get<int64_t>()) << knob;
            EXPECT_LE(saved, previous) << knob;
            previous = saved;
            EXPECT_NE(row["from"], row["to"]) << knob;
            EXPECT_TRUE(row.contains("speedup") && row.contains("largest_move")) << knob;
        }
    }
    EXPECT_TRUE(seen.count("dma.max_burst_beats"));
    EXPECT_TRUE(seen.count("bus.width_bytes"));
    EXPECT_TRUE(advice["not_run"].is_array());
    EXPECT_TRUE(advice["failed"].empty());
}

// The buffer must hold two bursts: with 256-byte bursts in a 512-byte
// buffer, doubling the burst breaks that rule, so the step is listed as
// not run, and advise still succeeds.
TEST(AdviseE2E, AStepThatBreaksARuleIsNotRun) {
    TempDir dir;
    const json advice = advise(dir, {"workload.entries=16", "dma.buffer_bytes=512"});
    ASSERT_TRUE(advice.is_object());
    bool refused = false;
    for (const auto& row : advice["not_run"]) refused |= row["knob"] == "dma.max_burst_beats";
    EXPECT_TRUE(refused) << advice["not_run"].dump(2);
    for (const auto& row : advice["engine"]) EXPECT_NE(row["knob"], "dma.max_burst_beats");
}

TEST(AdviseE2E, BadInputIsRefusedAsRunRefusesIt) {
    TempDir dir;
    auto r = run_dmasim(dir, {"advise", "--set", "dma.prefetch=2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("dma.prefetch"), std::string::npos) << r.err;
    r = run_dmasim(dir, {"advise", "--set", "dma.max_burst_beats=0"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("dma.max_burst_beats"), std::string::npos) << r.err;
    r = run_dmasim(dir, {"advise", dir.path() + "/missing.yaml"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("missing.yaml"), std::string::npos) << r.err;
    r = run_dmasim(dir, {"advise", "-j", "0"});
    EXPECT_EQ(r.status, 2);
}

TEST(AdviseE2E, JsonIntoAFolderIsRefusedBeforeAnythingRuns) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() + "/taken");
    const auto r = run_dmasim(dir, {"advise", "--json", dir.path() + "/taken"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("--json"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("baseline"), std::string::npos) << r.out;
}

TEST(AdviseE2E, DefaultConfigRanksAtLeastOneKnob) {
    TempDir dir;
    const auto r = run_dmasim(
        dir, {"advise", std::string(DMASIM_SOURCE_DIR) + "/configs/default.yaml", "-j", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("baseline:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("knobs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" -> "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace dmasim::sim
