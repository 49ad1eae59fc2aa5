// sweep_e2e_test.cc - `dmasim sweep`, `merge` and `plot` through the real
// binary: a 2 x 2 grid run 2 at a time, resume, shards via GNU parallel,
// failing points and bad sweep files.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_dmasim;
using test::TempDir;

/// 2 x 2 grid of small runs: entries {4, 8} x chain depth {1, 2}.
std::string write_grid(const TempDir& dir) {
    return dir.write("grid.yaml",
                     "set:\n  workload.segment_bytes: 1024\n"
                     "sweep:\n  workload.entries: [4, 8]\n  workload.chain_depth: [1, 2]\n");
}

size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

/// The content id of each point of the sweep in `out`, in point order.
std::vector<std::string> point_ids(const std::string& out) {
    const auto manifest = nlohmann::json::parse(read_file(out + "/sweep.json"));
    std::vector<std::string> ids;
    for (const auto& point : manifest["points"]) ids.push_back(point["id"]);
    return ids;
}

/// File name -> contents of every point report in `dir`/points.
std::map<std::string, std::string> reports(const std::string& dir) {
    std::map<std::string, std::string> out;
    for (const auto& entry : fs::directory_iterator(dir + "/points"))
        out[entry.path().filename().string()] = read_file(entry.path().string());
    return out;
}

TEST(SimSweepE2E, GridRunsEveryPointAndDrawsPlots) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    auto r = run_dmasim(dir, {"sweep", write_grid(dir), "-j", "2", "--out", out});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const std::string csv = read_file(out + "/results.csv");
    EXPECT_EQ(lines(csv), 1u + 2 * 2) << csv;  // header + 4 points
    EXPECT_EQ(csv.rfind("workload.entries,workload.chain_depth,bytes,", 0), 0u) << csv;
    // Point order, last key fastest; bytes = entries x 1024.
    EXPECT_NE(csv.find("\n4,1,4096,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\n8,2,8192,"), std::string::npos) << csv;
    EXPECT_LT(csv.find("\n4,2,"), csv.find("\n8,1,"));
    const std::string png = read_file(out + "/throughput.png");
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    EXPECT_NE(read_file(out + "/throughput.svg").find("<svg"), std::string::npos);
}

// The base axis reaches the CSV (its column holds each config's name) and
// the manifest (each base's file).
TEST(SimSweepE2E, ListedBasesAreAColumnOfTheCsv) {
    TempDir dir;
    dir.write("narrow.yaml", "bus:\n  width_bytes: 4\n");
    dir.write("wide.yaml", "bus:\n  width_bytes: 32\n");
    const std::string out = dir.path() + "/out";
    const std::string sweep =
        dir.write("bases.yaml", "base: [narrow.yaml, wide.yaml]\nset:\n  workload.entries: 4\n");
    auto r = run_dmasim(dir, {"sweep", sweep, "-j", "2", "--out", out});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const std::string csv = read_file(out + "/results.csv");
    EXPECT_EQ(lines(csv), 1u + 2) << csv;
    EXPECT_EQ(csv.rfind("base,bytes,", 0), 0u) << csv;
    EXPECT_NE(csv.find("\nnarrow,16384,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nwide,16384,"), std::string::npos) << csv;
    const auto manifest = nlohmann::json::parse(read_file(out + "/sweep.json"));
    EXPECT_EQ(manifest["base"]["wide"], dir.path() + "/wide.yaml");
    EXPECT_EQ(manifest["points"][0]["values"]["base"], "narrow");
}

TEST(SimSweepE2E, ResumeRerunsExactlyTheMissingPoint) {
    TempDir dir;
    const std::string out = dir.path() + "/out", grid = write_grid(dir);
    ASSERT_EQ(run_dmasim(dir, {"sweep", grid, "-j", "2", "--out", out, "--no-plot"}).status, 0);
    const auto before = reports(out);
    const std::string csv_before = read_file(out + "/results.csv");
    const auto ids = point_ids(out);
    fs::remove(out + "/points/" + ids[2] + ".json");

    auto r = run_dmasim(dir, {"sweep", grid, "-j", "2", "--out", out, "--no-plot", "--resume"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("1 to run, 3 already complete"), std::string::npos) << r.out;
    const auto after = reports(out);
    ASSERT_EQ(after.size(), 4u);
    // Untouched reports are byte-identical (a rerun would change wall_seconds).
    for (size_t kept : {0, 1, 3})
        EXPECT_EQ(after.at(ids[kept] + ".json"), before.at(ids[kept] + ".json")) << kept;
    EXPECT_EQ(read_file(out + "/results.csv"), csv_before);  // no wall-clock figures
}

TEST(SimSweepE2E, ShardsRunThroughGnuParallelMergeToTheUnshardedCsv) {
    TempDir dir;
    const std::string grid = write_grid(dir);
    ASSERT_EQ(
        run_dmasim(dir, {"sweep", grid, "-j", "2", "--out", dir.path() + "/whole", "--no-plot"})
            .status,
        0);
    auto p =
        test::run_program(dir, {"/usr/bin/parallel", "--will-cite", "-j", "2", test::dmasim_exe(),
                                "sweep", grid, "--out", dir.path() + "/shard{}", "--shard", "{}/2",
                                "-j", "1", "--no-plot", ":::", "1", "2"});
    ASSERT_EQ(p.status, 0) << p.out << p.err;
    EXPECT_EQ(lines(read_file(dir.path() + "/shard1/results.csv")), 1u + 2);  // points 0, 2

    auto m = run_dmasim(dir, {"merge", dir.path() + "/shard1", dir.path() + "/shard2", "--out",
                              dir.path() + "/merged", "--no-plot"});
    ASSERT_EQ(m.status, 0) << m.err;
    EXPECT_EQ(read_file(dir.path() + "/merged/results.csv"),
              read_file(dir.path() + "/whole/results.csv"));
}

TEST(SimSweepE2E, FailedPointsAreListedAndTheSweepGoesOn) {
    TempDir dir;
    // A data fault in a throughput run is valid config but fails the
    // scoreboard (exit 1) once it runs.
    const std::string sweep = dir.write("s.yaml",
                                        "set:\n  workload.entries: 4\n  fault.index: 1\n"
                                        "sweep:\n  fault.kind: [none, data]\n"
                                        "  workload.chain_depth: [1, 8]\n");
    auto r = run_dmasim(dir, {"sweep", sweep, "-j", "2", "--out", dir.path() + "/o", "--no-plot"});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    // chain_depth 8 > entries 4: points 1 and 3 are skipped, not failed.
    EXPECT_NE(r.out.find("skipped points"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("00002 fault.kind=data"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("integrity check failed"), std::string::npos) << r.out;
    // Points 0 and 2 ran; a failed run still writes its report, so a row.
    EXPECT_EQ(lines(read_file(dir.path() + "/o/results.csv")), 1u + 2);
    EXPECT_NE(read_file(dir.path() + "/o/failures.txt").find("integrity check failed"),
              std::string::npos);
}

TEST(SimSweepE2E, MaxSimCyclesReachesEveryPoint) {
    TempDir dir;
    const std::string out = dir.path() + "/o", grid = write_grid(dir);
    // The smallest point (4 x 1 KiB through a 16-byte bus) needs at least
    // 4096 / 16 = 256 cycles, so a limit of 100 stops all four.
    auto r = run_dmasim(
        dir, {"sweep", grid, "-j", "2", "--out", out, "--no-plot", "--max-sim-cycles", "100"});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    const std::string failures = read_file(out + "/failures.txt");
    size_t stopped = 0;
    for (size_t at = 0; (at = failures.find("--max-sim-cycles = 100 ", at)) != std::string::npos;
         ++at)
        ++stopped;
    EXPECT_EQ(stopped, 4u) << failures;
    // The default limit lets the same points finish.
    EXPECT_EQ(run_dmasim(dir, {"sweep", grid, "-j", "2", "--out", out, "--no-plot"}).status, 0);
}

TEST(SimSweepE2E, BadSweepFileExits2) {
    TempDir dir;
    const std::string sweep = dir.write("s.yaml", "sweep:\n  workload.entires: [1, 2]\n");
    auto r = run_dmasim(dir, {"sweep", sweep, "--out", dir.path() + "/o"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("s.yaml:2:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("did you mean workload.entries?"), std::string::npos) << r.err;
}

TEST(SimPlotE2E, AnyStatisticIsAnAxisAndTheSweepChoosesTheDefaults) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    ASSERT_EQ(run_dmasim(dir, {"sweep", write_grid(dir), "-j", "2", "--out", out}).status, 0);
    // A 2-D grid also gets a heatmap.
    EXPECT_EQ(read_file(out + "/heatmap.png").substr(1, 3), "PNG");
    const std::string csv = out + "/results.csv";
    EXPECT_NE(read_file(csv).find(",dma.ch0.descriptor_wait_cycles,"), std::string::npos);
    // No --x/--series: the sweep's own choice (entries, one line per chain
    // depth); PDF by extension; labels and title as given.
    auto stall =
        run_dmasim(dir, {"plot", csv, "--y", "dma.ch0.descriptor_wait_cycles", "--title", "Stalls",
                         "--xlabel", "List length", "-o", dir.path() + "/stall.pdf"});
    ASSERT_EQ(stall.status, 0) << stall.err;
    EXPECT_EQ(read_file(dir.path() + "/stall.pdf").substr(0, 5), "%PDF-");
    auto svg = run_dmasim(dir, {"plot", csv, "--y", "dma.ch0.descriptor_wait_cycles", "-o",
                                dir.path() + "/stall.svg"});
    ASSERT_EQ(svg.status, 0) << svg.err;
    const std::string text = read_file(dir.path() + "/stall.svg");
    // Human labels from the definitions (workload.entries is the list
    // length, as the docs call it); the legend names the chain depths.
    // Counts ("segments") carry no unit; the title has names without units.
    for (const char* part :
         {"Descriptor wait cycles, channel 0 (cycles)", "<!-- List length -->", "<!-- Chain depth -->",
          "Descriptor wait cycles, channel 0 vs. list length"})
        EXPECT_NE(text.find(part), std::string::npos) << part;
    // Swept keys stay out of the subtitle; fixed ones are in it, by name
    // and with units, without spurious decimals.
    for (const char* part :
         {"segment size 1 KiB", "clock 1000 MHz", "bus width 16 B", "read latency 50 cycles"})
        EXPECT_NE(text.find(part), std::string::npos) << part;
    EXPECT_EQ(text.find("1000.0"), std::string::npos);
    auto bad = run_dmasim(dir, {"plot", csv, "-o", dir.path() + "/p.gif"});
    EXPECT_EQ(bad.status, 2);
}

TEST(SimPlotE2E, ThroughputPlotsShowTheBusPeak) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    ASSERT_EQ(
        run_dmasim(dir, {"sweep", write_grid(dir), "-j", "2", "--out", out, "--no-plot"}).status,
        0);
    auto r = run_dmasim(dir, {"plot", out + "/results.csv", "-o", dir.path() + "/t.svg"});
    ASSERT_EQ(r.status, 0) << r.err;
    // default.yaml: 16-byte bus at 1000 MHz peaks at 16 x 1000 / 1000 = 16 GB/s.
    EXPECT_NE(read_file(dir.path() + "/t.svg").find("peak: 16 B x 1000 MHz = 16 GB/s"),
              std::string::npos);
}

TEST(SimPlotE2E, KeyNamesReadAsWordsWithoutTheirUnitTwice) {
    TempDir dir;
    const std::string csv =
        dir.write("r.csv",
                  "iommu.iotlb_ways,memory.read_latency_cycles,throughput_gbps\n"
                  "1,50,2.5\n4,50,3.5\n1,100,2\n4,100,3\n");
    auto r = run_dmasim(dir, {"plot", csv, "--x", "iommu.iotlb_ways", "--series",
                              "memory.read_latency_cycles", "-o", dir.path() + "/p.svg"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string text = read_file(dir.path() + "/p.svg");
    for (const char* part : {"<!-- IOTLB ways -->", "<!-- Read latency -->", "<!-- 50 cycles -->",
                             "<!-- Throughput vs. IOTLB ways -->"})
        EXPECT_NE(text.find(part), std::string::npos) << part;
    for (const char* part : {"Iotlb", "(entries)", "latency cycles"})
        EXPECT_EQ(text.find(part), std::string::npos) << part;
}

TEST(SimPlotE2E, UnknownColumnIsAClearError) {
    TempDir dir;
    const std::string csv = dir.write("r.csv", "workload.entries,throughput_gbps\n1,2.5\n2,3.5\n");
    auto bad = run_dmasim(dir, {"plot", csv, "--y", "nope", "-o", dir.path() + "/p.svg"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("no column 'nope'"), std::string::npos) << bad.err;
    auto good = run_dmasim(dir, {"plot", csv, "-o", dir.path() + "/p.svg"});
    EXPECT_EQ(good.status, 0) << good.err;
    EXPECT_NE(read_file(dir.path() + "/p.svg").find("<svg"), std::string::npos);
}

TEST(SimPlotE2E, MissingMatplotlibNamesTheDebianPackage) {
    // python3 -S skips site-packages, where Debian's matplotlib lives.
    TempDir dir;
    const std::string csv = dir.write("r.csv", "workload.entries,throughput_gbps\n1,2.5\n");
    auto r = test::run_program(
        dir, {"/usr/bin/python3", "-S", DMASIM_SOURCE_DIR "/sim/plot/dmasim_plot.py", csv, "-o",
              dir.path() + "/p.png"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("install the Debian package python3-matplotlib"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir.path() + "/p.png"));
}

/// Sweeps entries (a YAML list) x chain depth {1, 2} at 1 KiB segments
/// into `out`, with extra `flags`; the sweep file is DIR/grid.yaml.
test::Outcome sweep_entries(const TempDir& dir, const std::string& entries, const std::string& out,
                            const std::vector<std::string>& flags = {}) {
    const std::string grid = dir.write("grid.yaml",
                                       "set:\n  workload.segment_bytes: 1024\nsweep:\n"
                                       "  workload.entries: " +
                                           entries + "\n  workload.chain_depth: [1, 2]\n");
    std::vector<std::string> args = {"sweep", grid, "--out", out, "--no-plot"};
    args.insert(args.end(), flags.begin(), flags.end());
    return run_dmasim(dir, args);
}

TEST(SimSweepIdentityE2E, ValueInsertedInTheMiddleRerunsOnlyItsPoints) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    ASSERT_EQ(sweep_entries(dir, "[4, 8]", out).status, 0);
    const auto before = reports(out);
    // 6 between 4 and 8: 3 x 2 points, of which the 2 with 6 entries are new.
    auto r = sweep_entries(dir, "[4, 6, 8]", out, {"--resume"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 to run, 4 already complete"), std::string::npos) << r.out;
    const auto after = reports(out);
    for (const auto& [name, text] : before) EXPECT_EQ(after.at(name), text) << name;
    // The CSV equals that of a fresh run of the edited sweep.
    const std::string fresh = dir.path() + "/fresh";
    ASSERT_EQ(sweep_entries(dir, "[4, 6, 8]", fresh).status, 0);
    EXPECT_EQ(read_file(out + "/results.csv"), read_file(fresh + "/results.csv"));
}

// Issue 35 row 4: a point is its config and the trace it replays; the
// path alone kept a point's id when the trace changed, and --resume reused
// reports of the old trace.
TEST(SimSweepIdentityE2E, EditedTraceRerunsThePointsThatReplayIt) {
    TempDir dir;
    const std::string trace = dir.write("t.trace", "0 mem_to_dev 4096\n100 dev_to_mem 512\n");
    const std::string sweep =
        dir.write("s.yaml",
                  "set:\n  workload.scenario: requests\n  workload.arrival: trace\n"
                  "  workload.trace: t.trace\nsweep:\n  workload.chain_depth: [1, 2]\n");
    const std::string out = dir.path() + "/out";
    ASSERT_EQ(run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot"}).status, 0);
    const auto before = point_ids(out);

    dir.write("t.trace", "0 mem_to_dev 4096\n100 dev_to_mem 512\n200 mem_to_dev 1024\n");
    const auto r = run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot", "--resume"});

    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 to run, 0 already complete"), std::string::npos) << r.out;
    EXPECT_NE(point_ids(out), before);
    // The CSV equals that of a fresh run over the edited trace.
    const std::string fresh = dir.path() + "/fresh";
    ASSERT_EQ(run_dmasim(dir, {"sweep", sweep, "--out", fresh, "--no-plot"}).status, 0);
    EXPECT_EQ(read_file(out + "/results.csv"), read_file(fresh + "/results.csv"));
}

TEST(SimSweepIdentityE2E, RemovedValuesAreIgnoredOnResumeAndPruned) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    ASSERT_EQ(sweep_entries(dir, "[4, 6, 8]", out).status, 0);
    // Dropping 8 leaves its 2 reports behind: ignored and said so.
    auto r = sweep_entries(dir, "[4, 6]", out, {"--resume"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("0 to run, 4 already complete"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ignoring 2 point reports"), std::string::npos) << r.out;
    EXPECT_EQ(lines(read_file(out + "/results.csv")), 1u + 4);
    EXPECT_EQ(reports(out).size(), 6u);
    // The merge of this folder ignores them too.
    auto m = run_dmasim(dir, {"merge", out, "--out", dir.path() + "/m", "--no-plot"});
    ASSERT_EQ(m.status, 0) << m.err;
    EXPECT_NE(m.err.find("ignoring 2 point reports"), std::string::npos) << m.err;
    EXPECT_EQ(read_file(dir.path() + "/m/results.csv"), read_file(out + "/results.csv"));
    // --prune removes their report, config and log: 2 x 3 files.
    auto p = sweep_entries(dir, "[4, 6]", out, {"--resume", "--prune"});
    ASSERT_EQ(p.status, 0) << p.out << p.err;
    EXPECT_NE(p.out.find("pruned 6 files"), std::string::npos) << p.out;
    EXPECT_EQ(reports(out).size(), 4u);
}

TEST(SimSweepIdentityE2E, ReorderedValuesRerunNothingAndKeepPointOrder) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    ASSERT_EQ(sweep_entries(dir, "[4, 8]", out).status, 0);
    auto r = sweep_entries(dir, "[8, 4]", out, {"--resume"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("0 to run, 4 already complete"), std::string::npos) << r.out;
    const std::string csv = read_file(out + "/results.csv");
    EXPECT_LT(csv.find("\n8,1,"), csv.find("\n4,1,")) << csv;  // the new point order
}

// Sweep folders and shards are input too (copied between hosts, edited):
// what merge and --resume read is checked before it names a file or is used.

/// A finished one-point sweep in `name` under `dir`; returns its path.
std::string one_point_sweep(const TempDir& dir, const std::string& name) {
    const std::string out = dir.path() + "/" + name;
    const std::string sweep =
        dir.write("one.yaml", "set:\n  workload.chain_depth: 1\nsweep:\n  workload.entries: [4]\n");
    EXPECT_EQ(run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot"}).status, 0);
    return out;
}

/// Rewrites `path` (JSON) with `edit` applied.
template <typename Edit>
void edit_json(const TempDir& dir, const std::string& path, Edit edit) {
    auto json = nlohmann::ordered_json::parse(read_file(path));
    edit(json);
    fs::remove(path);
    dir.write(fs::relative(path, dir.path()).string(), json.dump());
}

TEST(SimSweepUntrustedE2E, MergeRefusesAPointIdThatWouldNameAFileOutsideOut) {
    TempDir dir;
    const std::string shard = one_point_sweep(dir, "shard");
    const std::string id = point_ids(shard)[0];
    // The report where the hostile id points: shard/points/../../x.json.
    fs::rename(shard + "/points/" + id + ".json", dir.path() + "/x.json");
    edit_json(dir, shard + "/sweep.json", [](auto& m) { m["points"][0]["id"] = "../../x"; });
    fs::create_directories(dir.path() + "/m");
    auto r = run_dmasim(dir, {"merge", shard, "--out", dir.path() + "/m/out", "--no-plot"});
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("sweep.json: /points/0/id: \"../../x\" is not a point id"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir.path() + "/m/x.json"));
    EXPECT_FALSE(fs::exists(dir.path() + "/m/out")) << "nothing is written before the check";
}

TEST(SimSweepUntrustedE2E, MalformedManifestsAreNamedErrorsNotCrashes) {
    TempDir dir;
    const std::string good = R"({"swept_keys": ["workload.entries"], "shard": {"k": 1, "n": 1},
        "plot": {"x": "workload.entries", "y": "throughput_gbps", "series": [], "logx": false},
        "points": [{"index": 0, "id": "0123456789abcdef", "values": {}}]})";
    // Each manifest and the problem its error must name.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{}", "top level: missing \"swept_keys\""},
        {"[]", "top level: expected an object, found an array"},
        {"null", "top level: expected an object, found null"},
        {"not json", "not valid JSON"},
        {std::string(good).replace(good.find("\"k\": 1"), 6, "\"k\": 2"),
         "/shard: expected 1 <= k <= n"},
        {std::string(good).replace(good.find("\"index\": 0"), 10, "\"index\": -1"),
         "/points/0/index: expected a non-negative integer, found -1"},
        {std::string(good).replace(good.find("0123456789abcdef"), 16, "0123456789ABCDEF"),
         "/points/0/id: \"0123456789ABCDEF\" is not a point id"},
        {std::string(good).replace(good.find("\"values\": {}"), 12, "\"values\": 3"),
         "/points/0/values: expected an object, found 3"},
        {std::string(good).replace(good.find("[\"workload"), 1, "[1, "),
         "/swept_keys/0: expected a string, found 1"},
    };
    for (const auto& [manifest, problem] : cases) {
        fs::remove_all(dir.path() + "/d");
        dir.write("d/sweep.json", manifest);
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"merge", dir.path() + "/d", "--out", dir.path() + "/o"},
              std::vector<std::string>{"diff", dir.path() + "/d", dir.path() + "/d"}}) {
            auto r = run_dmasim(dir, args);
            EXPECT_EQ(r.status, 2) << args[0] << " " << manifest << r.err;
            EXPECT_NE(r.err.find("d/sweep.json: " + problem), std::string::npos)
                << args[0] << " " << manifest << "\n"
                << r.err;
        }
    }
}

TEST(SimSweepUntrustedE2E, ResumeNamesAMalformedReportInsteadOfReusingIt) {
    TempDir dir;
    const std::string out = one_point_sweep(dir, "out");
    const std::string report = out + "/points/" + point_ids(out)[0] + ".json";
    edit_json(dir, report, [](auto& r) { r["result"]["bytes"] = "abc"; });
    auto r =
        run_dmasim(dir, {"sweep", dir.path() + "/one.yaml", "--out", out, "--no-plot", "--resume"});
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(report + ": /result/bytes: expected a number, found \"abc\""),
              std::string::npos)
        << r.err;
}

TEST(SimSweepIdentityE2E, PointsWithOneResolvedConfigShareOneRun) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    const std::string sweep = dir.write(
        "same.yaml",
        "set:\n  workload.chain_depth: 1\nsweep:\n  workload.segment_bytes: [4KiB, 4096]\n");
    auto r = run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot", "-j", "2"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto ids = point_ids(out);
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_EQ(ids[0], ids[1]);
    EXPECT_NE(r.out.find("1 to run"), std::string::npos) << r.out;
    EXPECT_EQ(std::distance(fs::directory_iterator(out + "/logs"), fs::directory_iterator()), 1);
    EXPECT_EQ(lines(read_file(out + "/results.csv")), 1u + 2) << "both rows are kept";
}

TEST(SimSweepIdentityE2E, AnotherBuildNeitherResumesNorMergesThisBuildsReports) {
    TempDir dir;
    const std::string out = one_point_sweep(dir, "out");
    // The same program with one byte more: another build of the same version.
    const std::string other = dir.path() + "/dmasim-other";
    fs::copy_file(test::dmasim_exe(), other);
    fs::permissions(other, fs::perms::owner_exec, fs::perm_options::add);
    { std::ofstream(other, std::ios::app | std::ios::binary) << '\n'; }
    auto r = test::run_program(
        dir, {other, "sweep", dir.path() + "/one.yaml", "--out", out, "--no-plot", "--resume"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("1 to run, 0 already complete"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("was made by another dmasim build"), std::string::npos) << r.out;

    const std::string mine = one_point_sweep(dir, "mine");
    auto m = run_dmasim(dir, {"merge", mine, out, "--out", dir.path() + "/merged", "--no-plot"});
    EXPECT_EQ(m.status, 2) << m.err;
    EXPECT_NE(m.err.find("made by another dmasim build"), std::string::npos) << m.err;
}

}  // namespace
}  // namespace dmasim::sim
