// payload_e2e_test.cc - workload.payload none and workload.buffers packed
// through the real binary: a timing-only run gives the cycles and every
// statistic of the checked run it stands for, and configs where either
// makes no sense are refused up front (exit 2) naming their keys.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::run_dmasim;
using test::TempDir;

std::string source_path(const std::string& relative) {
    return std::string(DMASIM_SOURCE_DIR) + "/" + relative;
}

struct Case {
    std::string name;
    std::string config;  ///< relative to the source tree
    std::vector<std::string> sets;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// Small lists (so both modes run in well under a second each) over every
// direction and descriptor format, odd segment lengths and offsets, both
// placements, and every scenario that supports payload none.
std::vector<Case> cases() {
    const std::vector<std::string> small = {
        "workload.entries=48", "workload.chain_depth=5", "workload.segment_distribution=uniform",
        "workload.segment_bytes_min=1", "workload.segment_bytes_max=9000"};
    std::vector<Case> out;
    for (const char* dir : {"mem_to_mem", "dev_to_mem", "mem_to_dev"})
        for (const char* format : {"chained_pages", "linked_list"}) {
            Case c{fmt::format("{}_{}", dir, format), "configs/default.yaml", small};
            c.sets.push_back(fmt::format("workload.direction={}", dir));
            c.sets.push_back(fmt::format("dma.descriptor_format={}", format));
            out.push_back(c);
        }
    out.push_back({"offset_contiguous",
                   "configs/default.yaml",
                   {"workload.offset=100", "memory.placement=contiguous"}});
    // Longer than a 32 KiB fragment block: packed gives them pages of their own.
    out.push_back(
        {"large_segments",
         "configs/default.yaml",
         {"workload.entries=6", "workload.segment_bytes=40000", "workload.chain_depth=2"}});
    for (const char* scenario :
         {"contention", "streaming", "multi_channel", "example_two_lists", "throughput"})
        out.push_back({scenario, fmt::format("configs/scenarios/{}.yaml", scenario), {}});
    return out;
}

class PayloadNone : public ::testing::TestWithParam<std::tuple<Case, std::string>> {};

json run_report(const Case& c, const std::string& buffers, const std::string& payload) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    std::vector<std::string> args = {"run",
                                     source_path(c.config),
                                     "--quiet",
                                     "--report",
                                     report,
                                     "--set",
                                     "workload.payload=" + payload,
                                     "--set",
                                     "workload.buffers=" + buffers};
    for (const auto& s : c.sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    if (buffers == "packed") {  // packed segments start where the previous one ends
        args.push_back("--set");
        args.push_back("workload.offset=0");
    }
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(test::read_file(report)) : json::object();
}

// The payload never influences timing: the engine plans every burst from
// descriptors and addresses alone, so everything but `integrity` (and the
// config key itself) must be identical.
TEST_P(PayloadNone, GivesTheCyclesAndStatisticsOfTheCheckedRun) {
    const auto& [c, buffers] = GetParam();
    json checked = run_report(c, buffers, "checked");
    json none = run_report(c, buffers, "none");
    ASSERT_FALSE(checked.empty() || none.empty());
    EXPECT_EQ(checked["result"]["integrity"], "pass");
    EXPECT_EQ(none["result"]["integrity"], "not_checked");
    checked["result"].erase("integrity");
    none["result"].erase("integrity");
    EXPECT_EQ(checked["result"], none["result"]);
    EXPECT_EQ(checked["statistics"], none["statistics"]);
    EXPECT_GT(none["result"]["cycles"].get<uint64_t>(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Configs, PayloadNone,
                         ::testing::Combine(::testing::ValuesIn(cases()),
                                            ::testing::Values("pages", "packed")),
                         [](const auto& info) {
                             return std::get<0>(info.param).name + "_" + std::get<1>(info.param);
                         });

test::Outcome run_sets(const std::string& config, const std::vector<std::string>& sets) {
    TempDir dir;
    std::vector<std::string> args = {"run", source_path(config), "--quiet"};
    for (const auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    return run_dmasim(dir, args);
}

bool mentions(const std::string& text, std::initializer_list<const char*> parts) {
    for (const char* p : parts)
        if (text.find(p) == std::string::npos) return false;
    return true;
}

TEST(PayloadRefused, ScenariosThatCheckMemoryRefusePayloadNone) {
    for (const char* scenario : {"error_injection", "bus_fault"}) {
        auto r =
            run_sets(fmt::format("configs/scenarios/{}.yaml", scenario), {"workload.payload=none"});
        EXPECT_EQ(r.status, 2) << scenario;
        EXPECT_TRUE(mentions(r.err, {"workload.payload", "none", scenario})) << r.err;
    }
}

TEST(PayloadRefused, PackedBuffersWithAnOffsetAreRefused) {
    auto r = run_sets("configs/default.yaml", {"workload.buffers=packed", "workload.offset=64"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(mentions(r.err, {"workload.buffers", "workload.offset = 64"})) << r.err;
}

TEST(ListLimits, AChainDeeperThanTheEngineAllowsIsRefusedAtValidation) {
    // chain_depth D makes D - 1 links: 9 chunks are 8 links, one over 7.
    auto r = run_sets("configs/default.yaml",
                      {"workload.entries=64", "workload.chain_depth=9", "dma.max_chain_depth=7"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(
        mentions(r.err, {"workload.chain_depth = 9", "dma.max_chain_depth = 7", "CHAIN_LOOP"}))
        << r.err;
    auto fits = run_sets("configs/default.yaml", {"workload.entries=64", "workload.chain_depth=8",
                                                  "dma.max_chain_depth=7"});
    EXPECT_EQ(fits.status, 0) << fits.err;
}

TEST(ListLimits, MoreDescriptorsThanTheEngineAllowsAreRefusedAtValidation) {
    auto r = run_sets("configs/default.yaml",
                      {"workload.entries=65", "workload.chain_depth=1", "dma.max_descriptors=64"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(mentions(r.err, {"workload.entries = 65", "dma.max_descriptors = 64"})) << r.err;
}

TEST(ListLimits, ErrorInjectionMayExceedTheLimitsOnPurpose) {
    auto r = run_sets("configs/scenarios/error_injection.yaml",
                      {"workload.chain_depth=2", "dma.max_chain_depth=1", "workload.entries=64"});
    EXPECT_NE(r.status, 2) << r.err;
}

}  // namespace
}  // namespace dmasim::sim
