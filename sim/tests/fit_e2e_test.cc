// fit_e2e_test.cc - `dmasim fit` through the real binary: it recovers
// settings hidden in points dmasim itself made, and refuses bad input
// naming the file, line and column before anything runs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using test::read_file;
using test::run_dmasim;
using test::TempDir;

const std::string kProfile = DMASIM_SOURCE_DIR "/configs/default.yaml";

/// A serial engine, one read in flight: every descriptor pays its setup
/// once and every burst the read latency, so lists of one-burst and of
/// many-burst segments tell the two apart (cycles ~ N (S + b L + ...)).
std::string serial_profile(const TempDir& dir) {
    return dir.write("serial.yaml", fmt::format("base: {}\ndma:\n  data_overlap: false\n"
                                                "  max_outstanding_reads: 1\n",
                                                kProfile));
}

/// Cycles of one small list with the hidden settings `hidden`.
uint64_t cycles_of(const TempDir& dir, const std::string& profile, unsigned entries,
                   unsigned segment_bytes, const std::vector<std::string>& hidden) {
    const std::string report = dir.path() + "/point.json";
    std::vector<std::string> args = {"run",
                                     profile,
                                     "--quiet",
                                     "--report",
                                     report,
                                     "--set",
                                     fmt::format("workload.entries={}", entries),
                                     "--set",
                                     fmt::format("workload.segment_bytes={}", segment_bytes),
                                     "--set",
                                     "workload.chain_depth=1"};
    for (const auto& h : hidden) args.insert(args.end(), {"--set", h});
    EXPECT_EQ(run_dmasim(dir, args).status, 0);
    return nlohmann::json::parse(read_file(report))["result"]["cycles"].get<uint64_t>();
}

TEST(SimFitE2E, RecoversTwoSettingsHiddenInPointsDmasimMade) {
    TempDir dir;
    const std::string profile = serial_profile(dir);
    // Neither hidden value is the profile's (2 and 50) nor a first-round
    // grid point of its range, so the search has to find them.
    const std::vector<std::string> hidden = {"dma.descriptor_setup_cycles=7",
                                             "memory.read_latency_cycles=23"};
    std::string csv = "workload.entries,workload.segment_bytes,workload.chain_depth,cycles\n";
    const std::pair<unsigned, unsigned> rows[] = {
        {2, 64}, {4, 4096}, {16, 64}, {8, 512}, {3, 1024}};
    for (const auto& [entries, bytes] : rows)
        csv += fmt::format("{},{},1,{}\n", entries, bytes,
                           cycles_of(dir, profile, entries, bytes, hidden));
    const std::string points = dir.write("points.csv", csv);
    const std::string fitted = dir.path() + "/fitted.yaml";

    const auto out = run_dmasim(
        dir, {"fit", profile, "--points", points, "--key", "dma.descriptor_setup_cycles=0..12",
              "--key", "memory.read_latency_cycles=1..40", "-o", fitted, "-j", "2"});

    ASSERT_EQ(out.status, 0) << out.err;
    EXPECT_NE(out.out.find("fitted dma.descriptor_setup_cycles = 7 "), std::string::npos)
        << out.out;
    EXPECT_NE(out.out.find("fitted memory.read_latency_cycles = 23 "), std::string::npos)
        << out.out;
    // Five points: the fifth is held out, and both errors are zero.
    EXPECT_NE(out.out.find("training 0.00 %, held-out 0.00 % (1 point)"), std::string::npos)
        << out.out;
    // Both inside their ranges, and the points tell them apart.
    EXPECT_EQ(out.out.find("warning:"), std::string::npos) << out.out;
    const std::string yaml = read_file(fitted);
    EXPECT_NE(yaml.find("descriptor_setup_cycles: 7  # fitted over 0..12"), std::string::npos)
        << yaml;
    EXPECT_NE(yaml.find("read_latency_cycles: 23  # fitted over 1..40"), std::string::npos) << yaml;
    // The fitted profile runs as a config and gives the measured cycles.
    const std::string report = dir.path() + "/check.json";
    ASSERT_EQ(run_dmasim(
                  dir, {"run", fitted, "--quiet", "--report", report, "--set", "workload.entries=4",
                        "--set", "workload.segment_bytes=4096", "--set", "workload.chain_depth=1"})
                  .status,
              0);
    EXPECT_EQ(nlohmann::json::parse(read_file(report))["result"]["cycles"].get<uint64_t>(),
              cycles_of(dir, profile, 4, 4096, hidden));
}

/// The points of `rows` ({entries, segment bytes}) on `profile` with the
/// hidden settings `hidden`, as a points file in `dir`.
std::string points_of(const TempDir& dir, const std::string& profile,
                      const std::vector<std::pair<unsigned, unsigned>>& rows,
                      const std::vector<std::string>& hidden) {
    std::string csv = "workload.entries,workload.segment_bytes,workload.chain_depth,cycles\n";
    for (const auto& [entries, bytes] : rows)
        csv += fmt::format("{},{},1,{}\n", entries, bytes,
                           cycles_of(dir, profile, entries, bytes, hidden));
    return dir.write("points.csv", csv);
}

TEST(SimFitE2E, AKeyStoppedAtAnEndOfItsRangeIsWarnedOf) {
    TempDir dir;
    const std::string profile = serial_profile(dir);
    const std::vector<std::pair<unsigned, unsigned>> rows = {{2, 64}, {8, 64}, {4, 1024}};
    const std::string fitted = dir.path() + "/fitted.yaml";
    // A setup of 7 searched over 0..5 stops at 5: the range is too narrow.
    const std::string short_of_it =
        points_of(dir, profile, rows, {"dma.descriptor_setup_cycles=7"});
    const auto narrow = run_dmasim(dir, {"fit", profile, "--points", short_of_it, "--key",
                                         "dma.descriptor_setup_cycles=0..5", "-o", fitted});
    ASSERT_EQ(narrow.status, 0) << narrow.err;
    EXPECT_NE(narrow.out.find("warning: dma.descriptor_setup_cycles stopped at 5, the upper end "
                              "of the searched range 0..5: the best value may lie beyond it, "
                              "widen --key dma.descriptor_setup_cycles"),
              std::string::npos)
        << narrow.out;
    // A setup of 0 is the key's own lowest value: no range can go below it.
    const std::string none = points_of(dir, profile, rows, {"dma.descriptor_setup_cycles=0"});
    const auto floor = run_dmasim(dir, {"fit", profile, "--points", none, "--key",
                                        "dma.descriptor_setup_cycles=0..5", "-o", fitted});
    ASSERT_EQ(floor.status, 0) << floor.err;
    EXPECT_NE(floor.out.find("warning: dma.descriptor_setup_cycles stopped at 0, the lower end "
                             "of the key's own range (0 .. "),
              std::string::npos)
        << floor.out;
}

// One descriptor per point: its setup and the start latency are each paid
// once, so the points see only their sum; each alone still moves it.
TEST(SimFitE2E, KeysThePointsSeeOnlyAsASumAreSaidToBeIndistinct) {
    TempDir dir;
    const std::string profile = serial_profile(dir);
    const std::string points =
        points_of(dir, profile, {{1, 64}, {1, 1024}, {1, 4096}},
                  {"dma.descriptor_setup_cycles=7", "dma.start_latency_cycles=3"});
    const auto out = run_dmasim(
        dir, {"fit", profile, "--points", points, "--key", "dma.descriptor_setup_cycles=0..12",
              "--key", "dma.start_latency_cycles=0..12", "-o", dir.path() + "/fitted.yaml"});
    ASSERT_EQ(out.status, 0) << out.err;
    EXPECT_NE(out.out.find("warning: keys dma.descriptor_setup_cycles and "
                           "dma.start_latency_cycles cannot be told apart by these points: "
                           "moving both one step (one up, the other down)"),
              std::string::npos)
        << out.out;
}

// Points named by five keys, some values long and some short: every column
// is as wide as its widest cell, so each table line is as long as the header.
TEST(SimFitE2E, ResidualColumnsLineUpForLongPointNames) {
    TempDir dir;
    const std::string points =
        dir.write("points.csv",
                  "workload.entries,workload.segment_bytes,workload.chain_depth,"
                  "memory.read_latency_cycles,memory.write_latency_cycles,cycles\n"
                  "1,64,1,1,1,100\n256,4096,1,100,100,1000000\n16,512,4,10,30,5000\n");
    const auto out =
        run_dmasim(dir, {"fit", kProfile, "--points", points, "-o", dir.path() + "/scored.yaml"});
    ASSERT_EQ(out.status, 0) << out.err;
    std::vector<std::string> table;
    std::istringstream lines(out.out);
    for (std::string line;
         std::getline(lines, line) && line.rfind("fitted", 0) != 0 && line.rfind("mean", 0) != 0;)
        table.push_back(line);
    ASSERT_EQ(table.size(), 4u) << out.out;
    for (size_t i = 1; i < table.size(); ++i) {
        EXPECT_EQ(table[i].size(), table.front().size()) << out.out;
        EXPECT_EQ(table[i].find(" cycles ") + 1, table.front().find("measurement")) << out.out;
    }
}

/// cycles of `profile` in `direction`, from its report.
uint64_t profile_cycles(const TempDir& dir, const std::string& profile,
                        const std::string& direction) {
    const std::string report = dir.path() + "/profile.json";
    EXPECT_EQ(run_dmasim(dir, {"run", profile, "--quiet", "--report", report, "--set",
                               "workload.direction=" + direction})
                  .status,
              0);
    return nlohmann::json::parse(read_file(report))["result"]["cycles"].get<uint64_t>();
}

// PG021's latency table (Table 1) and throughput windows (Table 2) as fit
// points (configs/fit/axi-dma-pg021.csv, docs/engines.md): started with
// every fitted key away from the profile's value, the fit lands on the
// shipped AXI DMA profile, matching the four MM2S figures exactly.
TEST(SimFitE2E, RefitsTheAxiDmaProfileToPg021sTables) {
    TempDir dir;
    const std::string shipped = DMASIM_SOURCE_DIR "/configs/engines/axi-dma.yaml";
    const std::string start =
        dir.write("start.yaml", fmt::format("base: {}\ndma:\n  start_latency_cycles: 0\n"
                                            "  descriptor_setup_cycles: 2\n"
                                            "  stream_write_latency_cycles: 0\n"
                                            "  max_outstanding_writes: 8\n"
                                            "memory:\n  read_latency_cycles: 50\n",
                                            shipped));
    const std::string fitted = dir.path() + "/fitted.yaml";
    const auto out = run_dmasim(
        dir,
        {"fit", start, "--points", DMASIM_SOURCE_DIR "/configs/fit/axi-dma-pg021.csv", "--key",
         "dma.start_latency_cycles=0..64", "--key", "memory.read_latency_cycles=1..64", "--key",
         "dma.descriptor_setup_cycles=0..64", "--key", "dma.stream_write_latency_cycles=0..100",
         "--key", "dma.max_outstanding_writes=1..16", "-o", fitted, "-j", "2"});
    ASSERT_EQ(out.status, 0) << out.err;
    for (const char* window : {"start_to_fetch_cycles", "fetch_to_read_cycles",
                               "read_to_out_cycles", "data_window_cycles"})
        EXPECT_TRUE(std::regex_search(
            out.out, std::regex(fmt::format("mem_to_dev +dma\\.ch0\\.{} .* \\+0\\.00%", window))))
            << window << "\n"
            << out.out;
    for (const char* direction : {"mem_to_dev", "dev_to_mem"})
        EXPECT_EQ(profile_cycles(dir, fitted, direction), profile_cycles(dir, shipped, direction))
            << direction << "\n"
            << out.out;
}

// Issue 35 row 7: each key's range is valid at both ends, but a long
// burst in a small buffer is not (the buffer holds two bursts): the search
// meets such combinations, skips and counts them, and goes on.
TEST(SimFitE2E, CombinationsThatBreakAConfigRuleAreSkippedAndCounted) {
    TempDir dir;
    // 512 bytes hold two bursts of at most 16 beats x 16 bytes.
    const std::string profile =
        dir.write("small.yaml", fmt::format("base: {}\ndma:\n  buffer_bytes: 512\n", kProfile));
    const std::string points =
        dir.write("points.csv", fmt::format("workload.entries,workload.segment_bytes,"
                                            "workload.chain_depth,cycles\n4,1024,1,{}\n",
                                            cycles_of(dir, profile, 4, 1024, {})));
    const std::string fitted = dir.path() + "/fitted.yaml";
    // Both ends valid: 1 beat in 512 bytes, 17 beats (272 bytes) in 544;
    // 17 beats in 512 bytes is not, and the first grid over beats tries it.
    const auto out =
        run_dmasim(dir, {"fit", profile, "--points", points, "--key", "dma.max_burst_beats=1..17",
                         "--key", "dma.buffer_bytes=512..544", "-o", fitted, "-j", "2"});
    ASSERT_EQ(out.status, 0) << out.out << out.err;
    EXPECT_TRUE(std::regex_search(
        out.out, std::regex("skipped [1-9][0-9]* combinations? of values that break a config "
                            "rule at some point, e\\.g\\. dma\\.max_burst_beats=")))
        << out.out;
    EXPECT_NE(out.out.find("must hold two bursts"), std::string::npos) << out.out;
    EXPECT_TRUE(std::filesystem::exists(fitted));
}

struct BadFit {
    std::string name, csv, key, message;
};

// Names the case in ctest's output rather than dumping its bytes.
void PrintTo(const BadFit& bad, std::ostream* os) { *os << bad.name; }

class SimFitBadInputE2E : public testing::TestWithParam<BadFit> {};

TEST_P(SimFitBadInputE2E, ExitsTwoNamingTheProblemBeforeAnythingRuns) {
    TempDir dir;
    const BadFit& bad = GetParam();
    const std::string points = dir.write("points.csv", bad.csv);
    const auto out = run_dmasim(dir, {"fit", kProfile, "--points", points, "--key", bad.key, "-o",
                                      dir.path() + "/fitted.yaml"});
    EXPECT_EQ(out.status, 2) << out.err;
    EXPECT_NE(out.err.find(bad.message), std::string::npos) << out.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/fitted.yaml"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/fitted.yaml.d"));
}

const std::string kSetup = "dma.descriptor_setup_cycles=0..8";

INSTANTIATE_TEST_SUITE_P(
    Inputs, SimFitBadInputE2E,
    testing::Values(
        BadFit{"UnknownColumn", "workload.entriez,cycles\n4,100\n", kSetup,
               "points.csv:1: column 'workload.entriez' is neither a config key nor a "
               "measurement (cycles, throughput_gbps, or a statistic of docs/statistics.md such "
               "as dma.ch0.fetch_to_read_cycles), did you mean workload.entries?"},
        BadFit{"NonNumericMeasurement", "workload.entries,cycles\n4,100\n8,fast\n", kSetup,
               "points.csv:3: column 'cycles': 'fast' is not a positive number"},
        BadFit{"RowWithoutMeasurement", "workload.entries,cycles,dma.ch0.read_to_out_cycles\n4,,\n",
               kSetup,
               "points.csv:2: no measurement in this row: give cycles or "
               "dma.ch0.read_to_out_cycles"},
        BadFit{"ZeroMeasurement", "workload.entries,throughput_gbps\n4,0\n", kSetup,
               "points.csv:2: column 'throughput_gbps': '0' is not a positive number"},
        BadFit{"NoMeasurementColumn", "workload.entries\n4\n", kSetup,
               "points.csv:1: no measurement column"},
        BadFit{"IntegrityIsNotAMeasurement", "workload.entries,integrity\n4,pass\n", kSetup,
               "points.csv:1: column 'integrity' is neither a config key nor a measurement"},
        BadFit{"ValueTheKeyRefuses", "workload.entries,cycles\n0,100\n", kSetup,
               "points.csv:2: column 'workload.entries'"},
        BadFit{"FieldCountOff", "workload.entries,cycles\n4,100,7\n", kSetup,
               "points.csv:2: 3 fields where the header has 2"},
        BadFit{"InvalidCombination", "workload.entries,workload.chain_depth,cycles\n4,8,100\n",
               kSetup, "points.csv:2: "},
        BadFit{"FittedKeyAsColumn", "dma.descriptor_setup_cycles,cycles\n4,100\n", kSetup,
               "column 'dma.descriptor_setup_cycles' is a key being fitted"},
        BadFit{"KeyNotFittable", "workload.entries,cycles\n4,100\n", "dma.descriptor_format=0..1",
               "'dma.descriptor_format' cannot be fitted"},
        BadFit{"EmptyRange", "workload.entries,cycles\n4,100\n", "dma.descriptor_setup_cycles=9..4",
               "the range 9..4 is empty"},
        BadFit{"RangeOutsideTheKeys", "workload.entries,cycles\n4,100\n",
               "dma.descriptor_setup_cycles=0..99999999", "out of range"},
        BadFit{"NotARange", "workload.entries,cycles\n4,100\n", "dma.descriptor_setup_cycles=4",
               "is not KEY=LO..HI"}),
    [](const testing::TestParamInfo<BadFit>& info) { return info.param.name; });

}  // namespace
}  // namespace dmasim::sim
