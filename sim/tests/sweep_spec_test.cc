// sweep_spec_test.cc - sweep files: value lists, ranges, pow2, zip, point
// numbering, skipped points and shards.
#include "sweep_spec.h"

#include <gtest/gtest.h>

#include <set>

#include "config_keys.h"
#include "support.h"
#include "sweep_memory.h"

namespace dmasim::sim {
namespace {

using test::TempDir;

/// Loads a sweep whose base is an empty config (all defaults).
SweepSpec load_text(const TempDir& dir, const std::string& yaml) {
    dir.write("base.yaml", "");
    return load_sweep(dir.write("sweep.yaml", "base: base.yaml\n" + yaml), "");
}

std::string error_of(const std::string& yaml) {
    TempDir dir;
    try {
        load_text(dir, yaml);
    } catch (const ConfigError& e) {
        std::string message = e.what();
        return message.substr(message.find("sweep.yaml"));
    }
    return "";
}

/// The text values of one key across all points, in point order.
std::vector<std::string> column(const SweepSpec& spec, const std::string& key) {
    std::vector<std::string> out;
    for (size_t i = 0; i < spec.point_count(); ++i)
        for (const auto& a : spec.point_values(i))
            if (a.key == key) out.push_back(a.text);
    return out;
}

using Texts = std::vector<std::string>;

TEST(SimSweepSpec, CrossProductVariesTheLastKeyFastest) {
    TempDir dir;
    auto spec = load_text(dir,
                          "sweep:\n  workload.entries: [8, 16]\n"
                          "  workload.chain_depth: [1, 2, 4]\n");
    ASSERT_EQ(spec.point_count(), 2u * 3u);
    // Point i has entries index i / 3 and chain depth index i % 3.
    EXPECT_EQ(column(spec, "workload.entries"), (Texts{"8", "8", "8", "16", "16", "16"}));
    EXPECT_EQ(column(spec, "workload.chain_depth"), (Texts{"1", "2", "4", "1", "2", "4"}));
    EXPECT_EQ(spec.swept_keys(), (Texts{"workload.entries", "workload.chain_depth"}));
}

TEST(SimSweepSpec, ZipVariesKeysTogetherAndIsCrossedInFileOrder) {
    TempDir dir;
    auto spec = load_text(dir,
                          "zip:\n  workload.entries: [1, 2, 4]\n"
                          "  workload.segment_bytes: [4096, 2048, 1024]\n"
                          "sweep:\n  dma.descriptor_format: [chained_pages, linked_list]\n");
    ASSERT_EQ(spec.point_count(), 3u * 2u);
    EXPECT_EQ(column(spec, "workload.entries"), (Texts{"1", "1", "2", "2", "4", "4"}));
    EXPECT_EQ(column(spec, "workload.segment_bytes"),
              (Texts{"4096", "4096", "2048", "2048", "1024", "1024"}));
    EXPECT_EQ(column(spec, "dma.descriptor_format"),
              (Texts{"chained_pages", "linked_list", "chained_pages", "linked_list",
                     "chained_pages", "linked_list"}));
}

TEST(SimSweepSpec, RangeIncludesBothEnds) {
    TempDir dir;
    auto spec = load_text(dir, "sweep:\n  workload.entries: {range: [1, 10, 3]}\n");
    EXPECT_EQ(column(spec, "workload.entries"), (Texts{"1", "4", "7", "10"}));
}

TEST(SimSweepSpec, RealRangeCountsStepsWithoutDrift) {
    TempDir dir;
    auto spec = load_text(dir, "sweep:\n  traffic.read_fraction: {range: [0, 1, 0.1]}\n");
    auto values = column(spec, "traffic.read_fraction");
    ASSERT_EQ(values.size(), 11u);  // 0, 0.1, ..., 1.0
    EXPECT_EQ(values.back(), "1");
}

TEST(SimSweepSpec, Pow2ListsEveryPowerBetweenTheBounds) {
    TempDir dir;
    auto spec = load_text(dir, "sweep:\n  workload.entries: {pow2: [4, 64]}\n");
    EXPECT_EQ(column(spec, "workload.entries"), (Texts{"4", "8", "16", "32", "64"}));
}

TEST(SimSweepSpec, Pow2BoundsMustBePowersOfTwo) {
    EXPECT_NE(error_of("sweep:\n  workload.entries: {pow2: [3, 64]}\n").find("powers of two"),
              std::string::npos);
}

TEST(SimSweepSpec, ZipListsMustBeEquallyLong) {
    std::string e = error_of("zip:\n  workload.entries: [1, 2]\n  workload.segment_bytes: [1]\n");
    EXPECT_NE(e.find("sweep.yaml:4:"), std::string::npos) << e;
    EXPECT_NE(e.find("equally long"), std::string::npos) << e;
}

TEST(SimSweepSpec, UnknownKeySuggestsTheClosest) {
    std::string e = error_of("sweep:\n  workload.entires: [1, 2]\n");
    EXPECT_NE(e.find("sweep.yaml:3:"), std::string::npos) << e;
    EXPECT_NE(e.find("did you mean workload.entries?"), std::string::npos) << e;
}

TEST(SimSweepSpec, OutOfRangeValueIsAnErrorAtItsLine) {
    std::string e = error_of("sweep:\n  dma.max_burst_beats:\n    - 16\n    - 512\n");
    EXPECT_NE(e.find("sweep.yaml:5:"), std::string::npos) << e;
    EXPECT_NE(e.find("1 .. 256"), std::string::npos) << e;
}

TEST(SimSweepSpec, UnknownSectionAndDoubleKeysAreErrors) {
    EXPECT_NE(error_of("swep:\n  workload.entries: [1]\n").find("did you mean sweep?"),
              std::string::npos);
    EXPECT_NE(error_of("set:\n  workload.entries: 4\nsweep:\n  workload.entries: [1]\n")
                  .find("set or swept twice"),
              std::string::npos);
    EXPECT_NE(error_of("set:\n  dma:\n    channels: 2\nsweep:\n  dma.channels: [1]\n")
                  .find("set or swept twice"),
              std::string::npos);
    EXPECT_NE(error_of("set:\n  workload.entries: 4\n").find("nothing to sweep"),
              std::string::npos);
}

TEST(SimSweepExpand, BaseAndSetApplyToEveryPoint) {
    TempDir dir;
    dir.write("configs/base.yaml", "workload:\n  segment_bytes: 512\n");
    auto spec = load_sweep(dir.write("sweeps/s.yaml",
                                     "base: ../configs/base.yaml\nset:\n  dma.channels: 2\n"
                                     "sweep:\n  workload.entries: [4, 8]\n"),
                           "");
    auto points = expand_sweep(spec);
    ASSERT_EQ(points.size(), 2u);
    for (const auto& p : points) {
        EXPECT_EQ(p.config.workload.segment_bytes, 512u);
        EXPECT_EQ(p.config.platform.dma.channels, 2u);
    }
    EXPECT_EQ(points[1].config.workload.entries, 8u);
}

// base: listing configs is an axis (in file order) named by file stem;
// each point starts from its own base, and set: still overrides it.
TEST(SimSweepExpand, ListedBasesAreAnAxisEachUnderSet) {
    TempDir dir;
    dir.write("engines/slow.yaml", "bus:\n  width_bytes: 4\nworkload:\n  segment_bytes: 512\n");
    dir.write("engines/fast.yaml", "bus:\n  width_bytes: 32\n");
    auto spec = load_sweep(dir.write("sweeps/s.yaml",
                                     "sweep:\n  workload.entries: [4, 8]\n"
                                     "base: [../engines/slow.yaml, ../engines/fast.yaml]\n"
                                     "set:\n  workload.segment_bytes: 2048\n"),
                           "");
    EXPECT_EQ(spec.swept_keys(), (Texts{"workload.entries", "base"}));
    EXPECT_EQ(column(spec, "base"), (Texts{"slow", "fast", "slow", "fast"}));
    auto points = expand_sweep(spec);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].config.platform.bus.width_bytes, 4u);
    EXPECT_EQ(points[1].config.platform.bus.width_bytes, 32u);
    EXPECT_EQ(points[3].config.workload.entries, 8u);
    for (const auto& p : points) EXPECT_EQ(p.config.workload.segment_bytes, 2048u);
}

// platform: puts every base on one platform file (relative to the sweep
// file); set: and the swept keys still override it, and a non-platform key
// in it is refused at its line.
TEST(SimSweepExpand, PlatformOverridesEveryBaseUnderSetAndSweep) {
    TempDir dir;
    dir.write("engines/slow.yaml", "clock_mhz: 100\nbus.width_bytes: 4\ndma.max_burst_beats: 8\n");
    dir.write("engines/fast.yaml", "clock_mhz: 500\nbus.width_bytes: 32\n");
    dir.write("platforms/p.yaml",
              "clock_mhz: 1000\nbus.width_bytes: 8\nmemory.read_latency_cycles: 7\n");
    auto spec = load_sweep(dir.write("sweeps/s.yaml",
                                     "base: [../engines/slow.yaml, ../engines/fast.yaml]\n"
                                     "platform: ../platforms/p.yaml\n"
                                     "set:\n  memory.read_latency_cycles: 9\n"
                                     "sweep:\n  memory.write_latency_cycles: [3, 4]\n"),
                           "");
    EXPECT_EQ(spec.platform, dir.path() + "/platforms/p.yaml");
    auto points = expand_sweep(spec);
    ASSERT_EQ(points.size(), 4u);
    for (const auto& p : points) {
        EXPECT_EQ(p.config.platform.clock_mhz, 1000.0);
        EXPECT_EQ(p.config.platform.bus.width_bytes, 8u);
        EXPECT_EQ(p.config.platform.memory.read_latency_cycles, 9u);  // set: over platform
    }
    EXPECT_EQ(points[0].config.platform.dma.max_burst_beats, 8u);  // the engine's own key
    EXPECT_EQ(points[1].config.platform.memory.write_latency_cycles, 4u);
    EXPECT_EQ(common_config(spec).platform.bus.width_bytes, 8u);

    dir.write("platforms/bad.yaml", "clock_mhz: 1000\nworkload.entries: 4\n");
    auto bad = load_sweep(dir.write("sweeps/b.yaml",
                                    "base: ../engines/fast.yaml\nplatform: ../platforms/bad.yaml\n"
                                    "sweep:\n  workload.chain_depth: [1, 2]\n"),
                          "");
    try {
        expand_sweep(bad);
        ADD_FAILURE() << "a platform file setting workload.entries was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("bad.yaml:2: workload.entries is not a platform key"),
                  std::string::npos)
            << e.what();
    }
}

TEST(SimSweepSpec, PlatformMustNameOneExistingFile) {
    EXPECT_NE(error_of("platform: nowhere.yaml\nsweep:\n  workload.entries: [1]\n")
                  .find("sweep.yaml:2: platform config"),
              std::string::npos);
    EXPECT_NE(error_of("platform: [a.yaml]\nsweep:\n  workload.entries: [1]\n")
                  .find("sweep.yaml:2: platform: expects a config path"),
              std::string::npos);
}

// As in a config: a point's resolved config lives in another folder.
TEST(SimSweepSpec, SweptFilesAreRelativeToTheSweepFile) {
    TempDir dir;
    auto spec = load_sweep(
        dir.write("sweeps/s.yaml", "sweep:\n  workload.trace: [../traces/a.trace, /abs.trace]\n"),
        "");
    EXPECT_EQ(column(spec, "workload.trace"),
              (Texts{dir.path() + "/traces/a.trace", "/abs.trace"}));
}

TEST(SimSweepSpec, ListedBasesMustExistAndBeToldApart) {
    TempDir dir;
    dir.write("a/x.yaml", "");
    dir.write("b/x.yaml", "");
    auto error = [&](const std::string& yaml) -> std::string {
        try {
            load_sweep(dir.write("s.yaml", yaml), "");
        } catch (const ConfigError& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_NE(error("base: [a/x.yaml, nowhere.yaml]\n").find("nowhere.yaml not found"),
              std::string::npos);
    EXPECT_NE(
        error("base: [a/x.yaml, b/x.yaml]\n").find("s.yaml:1: base: lists two configs named x"),
        std::string::npos)
        << error("base: [a/x.yaml, b/x.yaml]\n");
    EXPECT_NE(error("base: []\n").find("base: lists no config"), std::string::npos);
}

// A base may make a check fail on its own points only; one that fails on
// every point stops the sweep as before.
TEST(SimSweepExpand, ACheckFailingUnderOneBaseSkipsOnlyItsPoints) {
    TempDir dir;
    dir.write("deep.yaml", "workload:\n  chain_depth: 8\n");
    dir.write("flat.yaml", "");
    auto points = expand_sweep(load_sweep(
        dir.write("s.yaml", "base: [deep.yaml, flat.yaml]\nset:\n  workload.entries: 4\n"), ""));
    ASSERT_EQ(points.size(), 2u);
    EXPECT_NE(points[0].skipped.find("must be at most workload.entries = 4"), std::string::npos);
    EXPECT_EQ(points[1].skipped, "");
    EXPECT_THROW(
        expand_sweep(load_sweep(
            dir.write("all.yaml", "base: [deep.yaml]\nset:\n  workload.entries: 4\n"), "")),
        ConfigError);
}

TEST(SimSweepExpand, InvalidCombinationsAreSkippedWithTheReason) {
    TempDir dir;
    auto points = expand_sweep(load_text(dir,
                                         "sweep:\n  workload.entries: [2, 8]\n"
                                         "  workload.chain_depth: [1, 4]\n"));
    ASSERT_EQ(points.size(), 4u);
    // Only entries = 2 with chain_depth = 4 (point 1) breaks depth <= entries.
    EXPECT_EQ(points[0].skipped, "");
    EXPECT_NE(points[1].skipped.find("must be at most workload.entries = 2"), std::string::npos);
    EXPECT_EQ(points[2].skipped, "");
    EXPECT_EQ(points[3].skipped, "");
}

TEST(SimSweepExpand, TimeNotWholeAtASweptClockSkipsOnlyThatPoint) {
    // Issue 28, row 16: one such point refused the whole sweep.
    TempDir dir;
    const std::vector<double> clocks = {500, 1000, 333.333333};
    auto points = expand_sweep(load_text(dir,
                                         "set:\n  memory.read_latency_cycles: 100ns\n"
                                         "sweep:\n  clock_mhz: [500, 1000, 333.333333]\n"));
    ASSERT_EQ(points.size(), clocks.size());
    // 100 ns is 100 * f / 1000 cycles at f MHz: 50 and 100, then 33.33 (not whole).
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(points[i].skipped, "");
        EXPECT_EQ(points[i].config.platform.memory.read_latency_cycles, 100 * clocks[i] / 1000);
    }
    EXPECT_NE(points[2].skipped.find("sweep.yaml:3: memory.read_latency_cycles = '100ns at "
                                     "333.333333 MHz'"),
              std::string::npos)
        << points[2].skipped;
    EXPECT_NE(points[2].skipped.find("not a whole number of cycles"), std::string::npos);
}

TEST(SimSweepExpand, TimeNotWholeAtAnUnsweptClockFailsTheSweep) {
    // Every point would fail alike: an error in the sweep file, not a skip.
    TempDir dir;
    const auto spec = load_text(dir,
                                "set:\n  clock_mhz: 333.333333\n"
                                "  memory.read_latency_cycles: 100ns\n"
                                "sweep:\n  workload.seed: [1, 2]\n");
    EXPECT_THROW(expand_sweep(spec), ConfigError);
}

TEST(SimSweepMemory, PointsRunAtOnceMustFitTogether) {
    // Issue 28: each point was checked alone against the host, so -j N
    // points that each fit could together exhaust it. A point here needs
    // `entries` GiB and the host has 10 GiB; the points need 2, 3, 4, 5.
    std::vector<tb::SimConfig> configs(4);
    for (size_t i = 0; i < configs.size(); ++i) configs[i].workload.entries = 2 + i;
    std::vector<const tb::SimConfig*> points;
    for (const auto& c : configs) points.push_back(&c);
    const HostMemory host{[](const tb::SimConfig& c) { return c.workload.entries << 30; },
                          [] { return std::optional<uint64_t>(10ull << 30); }};
    // -j 2: the two largest, 5 + 4 = 9 GiB, fit.
    EXPECT_EQ(host_memory_at_once_error(host, points, 2), "");
    // -j 3: 5 + 4 + 3 = 12 GiB do not.
    EXPECT_EQ(host_memory_at_once_error(host, points, 3),
              "3 points at once need about 12.0 GiB of host memory (3 x up to 5.0 GiB per "
              "point, the largest points of the sweep) but 10.0 GiB is available: lower -j or "
              "shrink the points");
    // -j past the point count runs them all: 14 GiB.
    EXPECT_NE(host_memory_at_once_error(host, points, 64)
                  .find("4 points at once need about "
                        "14.0 GiB"),
              std::string::npos);
}

TEST(SimShard, ParsesOneBasedKOverN) {
    Shard s = parse_shard("2/3");
    EXPECT_EQ(s.k, 2u);
    EXPECT_EQ(s.n, 3u);
    for (const char* bad : {"0/2", "3/2", "1/0", "a/b", "2", "1/2x"})
        EXPECT_THROW(parse_shard(bad), ConfigError) << bad;
}

TEST(SimShard, ShardsPartitionThePoints) {
    const size_t points = 10, shards = 3;
    std::multiset<size_t> seen;
    for (size_t k = 1; k <= shards; ++k)
        for (size_t i = 0; i < points; ++i)
            if (Shard{k, shards}.contains(i)) {
                EXPECT_EQ(i % shards, k - 1);
                seen.insert(i);
            }
    EXPECT_EQ(seen.size(), points);
    for (size_t i = 0; i < points; ++i) EXPECT_EQ(seen.count(i), 1u);
}

}  // namespace
}  // namespace dmasim::sim
