// results_csv_test.cc - results.csv rows, and merging shard directories.
#include "results_csv.h"

#include <gtest/gtest.h>

#include "merge.h"
#include "support.h"
#include "sweep_dir.h"
#include "sweep_manifest.h"

namespace dmasim::sim {
namespace {

using test::TempDir;

/// A report as `dmasim run` would write it, with results that follow the
/// definitions: sim_time_ns = cycles / clock_mhz * 1000 and so on.
Json fake_report(const tb::SimConfig& config) {
    tb::RunResult r;
    r.bytes = config.workload.entries * config.workload.segment_bytes;
    r.descriptors = config.workload.entries;
    r.chain_links = config.workload.chain_depth - 1;
    r.cycles = 1000 + r.bytes / 16;
    r.sim_time_ns = r.cycles * 1000.0 / config.platform.clock_mhz;
    r.throughput_gbps = r.bytes / r.sim_time_ns;
    r.bytes_per_cycle = static_cast<double>(r.bytes) / r.cycles;
    r.integrity = true;
    return make_report(config, r, 0.5);
}

TEST(SimResultsCsv, SweptKeysComeFirstThenResultKeys) {
    tb::SimConfig c;
    c.workload.entries = 8;
    std::string csv = results_csv({"workload.entries"}, {fake_report(c)});
    std::string header = csv.substr(0, csv.find('\n'));
    EXPECT_EQ(header,
              "workload.entries,bytes,descriptors,chain_links,cycles,sim_time_ns,"
              "throughput_gbps,bytes_per_cycle,descriptor_bytes_fetched,bus_utilization,"
              "interrupts,interrupts_per_second,polls,cpu_busy_cycles,cpu_utilization,integrity");
    // bytes = 8 x 4096 = 32768; cycles = 1000 + 32768 / 16 = 3048.
    EXPECT_EQ(csv.substr(csv.find('\n') + 1).rfind("8,32768,8,0,3048,", 0), 0u) << csv;
}

TEST(SimResultsCsv, EveryStatisticIsAColumnAfterTheResultKeys) {
    tb::SimConfig c;
    tb::RunResult r;
    r.statistics = {{"dma.ch0", {{"descriptor_wait_cycles", 70, "cycles"}}},
                    {"bus.read", {{"busy_cycles", 12, "cycles"}}}};
    std::string csv = results_csv({}, {make_report(c, r, 0.5)});
    std::string header = csv.substr(0, csv.find('\n'));
    EXPECT_NE(header.find("integrity,dma.ch0.descriptor_wait_cycles,bus.read.busy_cycles"),
              std::string::npos)
        << header;
    EXPECT_NE(csv.find(",fail,70,12\n"), std::string::npos) << csv;
}

TEST(SimResultsCsv, HoldsNoWallClockFigures) {
    std::string csv = results_csv({}, {fake_report(tb::SimConfig{})});
    EXPECT_EQ(csv.find("wall"), std::string::npos);
    EXPECT_EQ(csv.find("0.5"), std::string::npos);  // the report's wall_seconds
}

TEST(SimResultsCsv, FieldsAreQuotedOnlyWhenNeeded) {
    EXPECT_EQ(csv_field(Json("plain")), "plain");
    EXPECT_EQ(csv_field(Json("a,b")), "\"a,b\"");
    EXPECT_EQ(csv_field(Json("say \"hi\"")), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csv_field(Json(0.1)), "0.1");
    EXPECT_EQ(csv_field(Json(uint64_t{42})), "42");
    EXPECT_EQ(csv_field(Json(nullptr)), "");
}

/// A 2 x 2 sweep: entries {4, 8} x chain depth {1, 2}.
SweepSpec small_sweep(const TempDir& dir) {
    dir.write("base.yaml", "");
    return load_sweep(dir.write("sweep.yaml",
                                "base: base.yaml\nsweep:\n  workload.entries: [4, 8]\n"
                                "  workload.chain_depth: [1, 2]\n"),
                      "");
}

/// Writes a sweep directory for `shard` with fake reports for its points.
void write_shard(const std::string& root, const SweepSpec& spec, const Shard& shard) {
    const SweepDir dir{root};
    dir.create();
    auto points = expand_sweep(spec);
    write_file_atomically(dir.manifest(), make_manifest(spec, points, shard).dump());
    for (const auto& p : points)
        if (shard.contains(p.index))
            write_file_atomically(dir.report(p.id), fake_report(p.config).dump());
}

TEST(SimMerge, TwoShardsMergeToTheUnshardedCsv) {
    TempDir dir;
    auto spec = small_sweep(dir);
    write_shard(dir.path() + "/whole", spec, {1, 1});
    write_shard(dir.path() + "/s1", spec, {1, 2});
    write_shard(dir.path() + "/s2", spec, {2, 2});
    write_results(SweepDir{dir.path() + "/whole"}, read_json_file(dir.path() + "/whole/sweep.json"),
                  false);

    EXPECT_EQ(merge_sweeps({dir.path() + "/s2", dir.path() + "/s1"}, dir.path() + "/merged", false),
              0);
    std::string merged = test::read_file(dir.path() + "/merged/results.csv");
    EXPECT_EQ(merged, test::read_file(dir.path() + "/whole/results.csv"));
    EXPECT_EQ(std::count(merged.begin(), merged.end(), '\n'), 1 + 4);  // header + 4 points
}

TEST(SimMerge, AMissingShardIsReported) {
    TempDir dir;
    auto spec = small_sweep(dir);
    write_shard(dir.path() + "/s1", spec, {1, 2});
    EXPECT_EQ(merge_sweeps({dir.path() + "/s1"}, dir.path() + "/merged", false), 1);
}

TEST(SimMerge, DirectoriesOfDifferentSweepsAreRejected) {
    TempDir a, b;
    write_shard(a.path() + "/out", small_sweep(a), {1, 2});
    b.write("base.yaml", "");
    auto other =
        load_sweep(b.write("sweep.yaml", "base: base.yaml\nsweep:\n  dma.channels: [1]\n"), "");
    write_shard(b.path() + "/out", other, {2, 2});
    EXPECT_THROW(merge_sweeps({a.path() + "/out", b.path() + "/out"}, a.path() + "/m", false),
                 ConfigError);
}

}  // namespace
}  // namespace dmasim::sim
