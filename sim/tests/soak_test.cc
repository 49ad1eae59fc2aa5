// soak_test.cc - the soak's point generator stays inside the bounds it
// promises and draws only configurations validation accepts, and its
// report checker catches every invariant it names.
#include <dmasim/tb/validate.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "config_loader.h"
#include "process.h"
#include "soak_check.h"
#include "soak_point.h"

namespace dmasim::soak {
namespace {

using nlohmann::json;

std::map<std::string, std::string> as_map(const Point& p) { return {p.sets.begin(), p.sets.end()}; }

uint64_t num(const std::map<std::string, std::string>& m, const std::string& key) {
    return std::stoull(m.at(key));
}

TEST(SimSoakPoint, SameSeedGivesTheSamePoint) {
    EXPECT_EQ(generate_point(7).sets, generate_point(7).sets);
    EXPECT_NE(generate_point(7).sets, generate_point(8).sets);
}

TEST(SimSoakPoint, PointsStayInRangeAndBounded) {
    for (uint64_t seed = 1; seed <= 200; ++seed) {
        auto m = as_map(generate_point(seed));
        const uint64_t entries = num(m, "workload.entries");
        ASSERT_GE(entries, 1u);
        ASSERT_LE(entries, 4096u);
        const uint64_t largest =
            std::max(num(m, "workload.segment_bytes"), num(m, "workload.segment_bytes_max"));
        ASSERT_GE(largest, 1u);
        ASSERT_LE(largest, 1u << 20);
        ASSERT_LE(entries * largest, kMaxListBytes) << seed;
        const uint64_t lists = m.at("workload.scenario") == "requests" ? num(m, "workload.requests")
                               : m.at("workload.scenario") == "multi_channel"
                                   ? num(m, "dma.channels")
                                   : 1;
        ASSERT_LE(lists * entries * largest, kMaxPointBytes) << seed;
        if (m.at("workload.segment_distribution") == "uniform") {
            ASSERT_LE(num(m, "workload.segment_bytes_min"), num(m, "workload.segment_bytes_max"));
        }
    }
}

/// The keys of the parameter table, and of the point of `seed`.
std::set<std::string> table_keys() {
    std::set<std::string> keys;
    for (const auto& row : tb::param_table()) keys.insert(row.key);
    return keys;
}

// A row added to a parameter table is soaked with no line in the soak:
// each point sets every key but the trace (written for trace arrivals)
// and the short list the soak leaves at its defaults.
TEST(SimSoakPoint, EveryPointSetsEveryRowButTheListedOnes) {
    std::set<std::string> want = table_keys();
    want.erase("workload.trace");
    std::vector<std::string> left_out;
    for (const std::string& key : table_keys())
        if (!is_soaked(key)) left_out.push_back(key);
    EXPECT_EQ(left_out, std::vector<std::string>{"fault.kind"});
    for (const std::string& key : left_out) want.erase(key);
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        std::set<std::string> got;
        for (const auto& [key, value] : generate_point(seed).sets) got.insert(key);
        EXPECT_EQ(got, want) << seed;
    }
}

// Every spelling of every choice and boolean row is drawn, the ways of
// submitting and completing included.
TEST(SimSoakPoint, EverySpellingOfEveryChoiceIsDrawn) {
    std::map<std::string, std::set<std::string>> seen;
    for (uint64_t seed = 1; seed <= 300; ++seed)
        for (const auto& [key, value] : generate_point(seed).sets) seen[key].insert(value);
    for (const auto& row : tb::param_table()) {
        if (!is_soaked(row.key)) continue;
        if (row.kind == model::ParamKind::choice) {
            EXPECT_EQ(seen[row.key], std::set<std::string>(row.choices.begin(), row.choices.end()))
                << row.key;
        }
        if (row.kind == model::ParamKind::boolean) {
            EXPECT_EQ(seen[row.key], (std::set<std::string>{"false", "true"})) << row.key;
        }
    }
    EXPECT_EQ(seen["workload.completion"], (std::set<std::string>{"interrupt", "polling"}));
    EXPECT_EQ(seen["dma.submission"], (std::set<std::string>{"start", "tail_pointer"}));
}

// Every row's draws stay inside its soak range where it narrows one (a
// row's `.soaked(lo, hi)`), else inside its range, and take only its
// allowed values: for every row, so a row added later is held to it too.
TEST(SimSoakPoint, DrawsStayInsideTheRowsSoakRangesAndAllowedValues) {
    std::map<std::string, const model::ParamDef<tb::SimConfig>*> rows;
    for (const auto& row : tb::param_table()) rows[row.key] = &row;
    unsigned narrowed_draws = 0;
    for (uint64_t seed = 1; seed <= 100; ++seed) {
        for (const auto& [key, value] : generate_point(seed).sets) {
            const auto& row = *rows.at(key);
            if (row.kind == model::ParamKind::integer) {
                const model::IntRange& r = row.int_range;
                const uint64_t v = std::stoull(value);
                if (!r.values.empty()) {
                    EXPECT_NE(std::find(r.values.begin(), r.values.end(), v), r.values.end())
                        << key << " = " << value;
                    continue;
                }
                EXPECT_GE(v, r.soak.narrowed ? r.soak.min : r.min) << key << " = " << value;
                EXPECT_LE(v, r.soak.narrowed ? r.soak.max : r.max) << key << " = " << value;
                narrowed_draws += r.soak.narrowed;
            }
            if (row.kind == model::ParamKind::real) {
                const model::RealRange& r = row.real_range;
                const double v = std::stod(value);
                EXPECT_GE(v, r.soak.narrowed ? r.soak.min : r.min) << key << " = " << value;
                EXPECT_LE(v, r.soak.narrowed ? r.soak.max : r.max) << key << " = " << value;
                narrowed_draws += r.soak.narrowed;
            }
        }
    }
    EXPECT_GT(narrowed_draws, 1000u);
    // Spot checks that the rows' soak ranges are the ones docs/testing.md names.
    for (uint64_t seed = 1; seed <= 100; ++seed) {
        auto m = as_map(generate_point(seed));
        EXPECT_LE(num(m, "workload.requests"), 64u) << seed;
        EXPECT_LE(std::stod(m.at("clock_mhz")), 2000.0) << seed;
        EXPECT_GE(num(m, "memory.size_mib"), 64u) << seed;
    }
}

/// The KEY=VALUE overrides of `p` as the soak passes them, its trace (if
/// any) written to `trace_path`.
std::vector<std::string> overrides(const Point& p, const std::string& trace_path) {
    if (!p.trace.empty()) std::ofstream(trace_path) << p.trace;
    const std::vector<std::string> args = set_args(p, trace_path);
    std::vector<std::string> sets;
    for (size_t i = 1; i < args.size(); i += 2) sets.push_back(args[i]);
    return sets;
}

TEST(SimSoakPoint, EveryPointPassesValidation) {
    // The rules are the model's and the testbench's (tb::validate); the
    // generator must never draw a point they refuse.
    const std::string trace =
        (std::filesystem::temp_directory_path() / fmt::format("soak-test-{}.trace", getpid()))
            .string();
    for (uint64_t seed = 1; seed <= 200; ++seed)
        EXPECT_NO_THROW(
            sim::load_config(std::vector<std::string>{}, overrides(generate_point(seed), trace)))
            << seed;
    std::filesystem::remove(trace);
}

// Request streams are drawn too: every arrival kind, a trace with at most
// as many directions as channels when each direction takes an engine ring.
TEST(SimSoakPoint, RequestStreamsAreDrawnWithTracesTheirRingsCanRun) {
    unsigned streams = 0, traces = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
        const Point p = generate_point(seed);
        auto m = as_map(p);
        if (m.at("workload.scenario") != "requests") continue;
        ++streams;
        EXPECT_EQ(m.at("workload.arrival") == "trace", !p.trace.empty()) << seed;
        if (p.trace.empty()) continue;
        ++traces;
        std::istringstream lines(p.trace);
        std::set<std::string> directions;
        for (std::string at, direction, rest;
             lines >> at >> direction && std::getline(lines, rest);)
            directions.insert(direction);
        if (m.at("dma.submission") == "tail_pointer") {
            EXPECT_LE(directions.size(), num(m, "dma.channels")) << seed;
        }
    }
    EXPECT_GT(streams, 30u);
    EXPECT_GT(traces, 5u);
}

TEST(SimSoakPoint, ReproducerSetsEveryKey) {
    for (uint64_t seed = 1; seed <= 50; ++seed) {
        const Point p = generate_point(seed);
        const std::string line = reproducer(p, "t.trace");
        EXPECT_EQ(line.rfind("dmasim run --set ", 0), 0u) << line;
        for (const auto& [key, value] : p.sets)
            EXPECT_NE(line.find(" --set " + key + "=" + value), std::string::npos) << key;
        EXPECT_EQ(line.find(" --set workload.trace=t.trace") != std::string::npos,
                  !p.trace.empty());
    }
}

// A soak point's CPU budget ends its run, whatever the run does: the
// soak counts a run ended by SIGXCPU as past its budget, not as failed.
TEST(SimSoakBudget, ARunPastItsCpuSecondsIsEndedBySigxcpu) {
    const pid_t pid = sim::spawn({"/bin/sh", "-c", "while :; do :; done"}, "", "", 1);
    const auto [waited, status] = sim::wait_any();
    EXPECT_EQ(waited, pid);
    EXPECT_EQ(status, 128 + SIGXCPU);
}

/// A report that holds every invariant: 2 channels, multi_channel, 10
/// fixed 100-byte segments over 3 chunks on each.
json passing_report() {
    const uint64_t channels = 2, entries = 10, segment = 100, depth = 3;
    json stat = {{"max_reads_in_flight", {{"value", 4}}}, {"max_writes_in_flight", {{"value", 2}}}};
    return {{"config",
             {{"workload.scenario", "multi_channel"},
              {"dma.channels", channels},
              {"workload.entries", entries},
              {"workload.segment_distribution", "fixed"},
              {"workload.segment_bytes", segment},
              {"workload.chain_depth", depth},
              {"dma.max_outstanding_reads", 4},
              {"dma.max_outstanding_writes", 2},
              // No per-descriptor cost, so a wrong descriptor count breaks one check only.
              {"cpu.irq_handler_cycles", 40},
              {"cpu.per_descriptor_cycles", 0},
              {"cpu.poll_cycles", 7},
              {"workload.payload", "checked"},
              {"iommu.enabled", false},
              {"iommu.walk_levels", 4}}},
            {"result",
             {{"integrity", "pass"},
              {"bytes", channels * entries * segment},
              {"descriptors", channels * entries},
              {"chain_links", channels * (depth - 1)},
              // Two interrupts (one per channel's stop) at 40 cycles each.
              {"interrupts", 2},
              // No polls: polling is off.
              {"polls", 0},
              {"cpu_busy_cycles", 2 * 40}}},
            {"statistics", {{"dma.ch0", stat}, {"dma.ch1", stat}}}};
}

TEST(SimSoakCheck, ConsistentReportPasses) { EXPECT_TRUE(check_report(passing_report()).empty()); }

TEST(SimSoakCheck, EachBrokenInvariantIsReported) {
    const std::vector<std::pair<const char*, void (*)(json&)>> cases = {
        {"integrity", [](json& r) { r["result"]["integrity"] = "fail"; }},
        {"bytes", [](json& r) { r["result"]["bytes"] = 1999; }},
        {"descriptors", [](json& r) { r["result"]["descriptors"] = 10; }},
        {"chain_links", [](json& r) { r["result"]["chain_links"] = 2; }},
        {"cpu", [](json& r) { r["result"]["cpu_busy_cycles"] = 81; }},
        {"polls", [](json& r) { r["result"]["polls"] = 1; }},
        {"timing only", [](json& r) { r["config"]["workload.payload"] = "none"; }},
        {"reads", [](json& r) { r["statistics"]["dma.ch1"]["max_reads_in_flight"]["value"] = 5; }},
        {"writes",
         [](json& r) { r["statistics"]["dma.ch0"]["max_writes_in_flight"]["value"] = 3; }},
    };
    for (const auto& [name, breakit] : cases) {
        json r = passing_report();
        breakit(r);
        EXPECT_EQ(check_report(r).size(), 1u) << name;
    }
}

/// passing_report() behind the IOMMU: each channel's list merged into 4
/// segments (over the 3 chunks: 2 links each), 12 misses walked 4 levels.
json passing_iommu_report() {
    json r = passing_report();
    r["config"]["iommu.enabled"] = true;
    r["result"]["descriptors"] = 2 * 4;
    r["statistics"]["iommu"] = {{"iotlb_misses", {{"value", 12}}},
                                {"walk_reads", {{"value", 12 * 4}}},
                                {"translation_faults", {{"value", 0}}}};
    return r;
}

TEST(SimSoakCheck, IommuReportsAllowMergedDescriptorsButNoFaultsOrOverlongWalks) {
    EXPECT_TRUE(check_report(passing_iommu_report()).empty());
    const std::vector<std::pair<const char*, void (*)(json&)>> cases = {
        {"more descriptors than entries", [](json& r) { r["result"]["descriptors"] = 21; }},
        {"a transfer without descriptors",
         [](json& r) {
             r["result"]["descriptors"] = 1;
             r["result"]["chain_links"] = 0;
         }},
        {"more links than chunks", [](json& r) { r["result"]["chain_links"] = 5; }},
        {"fault", [](json& r) { r["statistics"]["iommu"]["translation_faults"]["value"] = 1; }},
        {"walk too long", [](json& r) { r["statistics"]["iommu"]["walk_reads"]["value"] = 49; }},
        {"walk read nothing",
         [](json& r) { r["statistics"]["iommu"]["walk_reads"]["value"] = 11; }},
    };
    for (const auto& [name, breakit] : cases) {
        json r = passing_iommu_report();
        breakit(r);
        EXPECT_EQ(check_report(r).size(), 1u) << name;
    }
}

// A request stream of 5 requests: completed and dropped add up to them.
TEST(SimSoakCheck, EveryRequestOfAStreamEndsCompletedOrDropped) {
    json r = passing_report();
    r["config"]["workload.scenario"] = "requests";
    r["config"]["workload.arrival"] = "poisson";
    r["config"]["workload.requests"] = 5;
    r["result"]["scenario_results"] = {{"requests_completed", {{"value", 3}}},
                                       {"requests_dropped", {{"value", 2}}}};
    EXPECT_TRUE(check_report(r).empty());
    r["result"]["scenario_results"]["requests_dropped"]["value"] = 1;
    EXPECT_EQ(check_report(r).size(), 1u);
}

TEST(SimSoakCheck, UniformBytesMustLieBetweenTheBounds) {
    json r = passing_report();
    r["config"]["workload.segment_distribution"] = "uniform";
    r["config"]["workload.segment_bytes_min"] = 50;
    r["config"]["workload.segment_bytes_max"] = 100;
    // 2 channels x 10 entries: bytes in [2*10*50, 2*10*100].
    r["result"]["bytes"] = 2 * 10 * 50;
    EXPECT_TRUE(check_report(r).empty());
    r["result"]["bytes"] = 2 * 10 * 50 - 1;
    EXPECT_EQ(check_report(r).size(), 1u);
}

}  // namespace
}  // namespace dmasim::soak
