// cli_e2e_test.cc - the command line as a whole through the real binary:
// --version, exit statuses 0/1/2 of every subcommand (docs/cli.md),
// layered configs in `run`, `sweep --set`, and a result that survives an
// output that cannot be written.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using test::read_file;
using test::run_dmasim;
using test::TempDir;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// A small run: 8 entries of 1 KiB.
const std::vector<std::string> kSmall = {"--set", "workload.entries=8", "--set",
                                         "workload.segment_bytes=1KiB", "--quiet"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

TEST(SimCliE2E, VersionComesFromTheProjectVersion) {
    TempDir dir;
    auto r = run_dmasim(dir, {"--version"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "dmasim " DMASIM_VERSION "\n");
}

TEST(SimCliE2E, NoSubcommandIsUsageError) {
    TempDir dir;
    EXPECT_EQ(run_dmasim(dir, {}).status, 2);
    EXPECT_EQ(run_dmasim(dir, {"frobnicate"}).status, 2);
}

TEST(SimCliE2E, RunExitsZeroOneAndTwo) {
    TempDir dir;
    EXPECT_EQ(run_dmasim(dir, with({"run"}, kSmall)).status, 0);
    // A data bus error on descriptor 2 stops the transfer: integrity fails.
    EXPECT_EQ(
        run_dmasim(dir, with({"run", "--set", "fault.kind=data", "--set", "fault.index=2"}, kSmall))
            .status,
        1);
    EXPECT_EQ(run_dmasim(dir, with({"run", "--set", "dma.chanels=2"}, kSmall)).status, 2);
}

TEST(SimCliE2E, SweepExitsZeroOneAndTwo) {
    TempDir dir;
    const auto good = dir.write("good.yaml",
                                "set:\n  workload.entries: 4\n"
                                "sweep:\n  workload.chain_depth: [1, 2]\n");
    EXPECT_EQ(run_dmasim(dir, {"sweep", good, "--out", dir.path() + "/g", "--no-plot"}).status, 0);
    const auto failing = dir.write("bad.yaml",
                                   "set:\n  workload.entries: 4\n"
                                   "sweep:\n  fault.kind: [none, data]\n");
    EXPECT_EQ(run_dmasim(dir, {"sweep", failing, "--out", dir.path() + "/f", "--no-plot"}).status,
              1);
    const auto broken = dir.write("broken.yaml", "sweep:\n  workload.entires: [1]\n");
    EXPECT_EQ(run_dmasim(dir, {"sweep", broken, "--out", dir.path() + "/b"}).status, 2);
}

TEST(SimCliE2E, MergeExitsZeroOneAndTwo) {
    TempDir dir;
    const auto sweep = dir.write("s.yaml",
                                 "set:\n  workload.entries: 4\n"
                                 "sweep:\n  workload.chain_depth: [1, 2]\n");
    const auto half = dir.path() + "/half";
    ASSERT_EQ(
        run_dmasim(dir, {"sweep", sweep, "--shard", "1/2", "--out", half, "--no-plot"}).status, 0);
    const auto full = dir.path() + "/full";
    ASSERT_EQ(run_dmasim(dir, {"sweep", sweep, "--out", full, "--no-plot"}).status, 0);
    EXPECT_EQ(run_dmasim(dir, {"merge", full, "--out", dir.path() + "/m0", "--no-plot"}).status, 0);
    // Shard 1 of 2 alone lacks point 1.
    EXPECT_EQ(run_dmasim(dir, {"merge", half, "--out", dir.path() + "/m1", "--no-plot"}).status, 1);
    EXPECT_EQ(run_dmasim(dir, {"merge", dir.path() + "/none", "--out", dir.path() + "/m2"}).status,
              2);
}

TEST(SimCliE2E, PlotExitsZeroOneAndTwo) {
    TempDir dir;
    const auto csv = dir.write("r.csv", "workload.entries,throughput_gbps\n1,2.5\n2,3.5\n");
    EXPECT_EQ(run_dmasim(dir, {"plot", csv, "-o", dir.path() + "/p.svg"}).status, 0);
    EXPECT_EQ(run_dmasim(dir, {"plot", csv, "-o", dir.path() + "/no/such/dir/p.svg"}).status, 1);
    EXPECT_EQ(run_dmasim(dir, {"plot", csv, "-o", dir.path() + "/p.svg", "--y", "nope"}).status, 2);
}

TEST(SimCliE2E, ConfigExitsZeroAndTwo) {
    // `config` simulates nothing, so it has no status 1.
    TempDir dir;
    EXPECT_EQ(run_dmasim(dir, {"config", "--explain", "dma"}).status, 0);
    EXPECT_EQ(run_dmasim(dir, {"config", "--schema"}).status, 0);
    EXPECT_EQ(run_dmasim(dir, {"config", "--explain", "dma.chanels"}).status, 2);
    EXPECT_EQ(run_dmasim(dir, {"config", "--resolve", dir.path() + "/none.yaml"}).status, 2);
}

TEST(SimCliE2E, CompletionExitsZeroAndTwo) {
    TempDir dir;
    auto r = run_dmasim(dir, {"completion", "bash"});
    EXPECT_EQ(r.status, 0);
    EXPECT_TRUE(contains(r.out, "complete -o filenames -F _dmasim dmasim"));
    EXPECT_EQ(run_dmasim(dir, {"completion", "tcsh"}).status, 2);
}

TEST(SimCliE2E, CompletionScriptIsValidBash) {
    TempDir dir;
    const auto script = dir.write("c.bash", run_dmasim(dir, {"completion", "bash"}).out);
    auto r = test::run_program(dir, {"/bin/bash", "-n", script});
    EXPECT_EQ(r.status, 0) << r.err;
}

/// The long options `dmasim SUB --help` names (its option list, and
/// descriptions that mention one, as "--explain: keys ...").
std::set<std::string> help_options(const TempDir& dir, const std::string& sub) {
    std::set<std::string> out;
    const std::string help = run_dmasim(dir, {sub, "--help"}).out;
    const std::regex option("(^|[\\s,])(--[a-z][a-z0-9-]*)");
    for (std::sregex_iterator it(help.begin(), help.end(), option), end; it != end; ++it)
        out.insert((*it)[2]);
    return out;
}

/// What the completion script offers after `dmasim SUB --`.
std::set<std::string> completed_options(const TempDir& dir, const std::string& script,
                                        const std::string& sub) {
    auto r = test::run_program(
        dir, {"/bin/bash", "-c",
              "source " + script + "; COMP_WORDS=(dmasim " + sub +
                  " --); COMP_CWORD=2; _dmasim; printf '%s\\n' \"${COMPREPLY[@]}\""});
    std::set<std::string> out;
    std::istringstream words(r.out);
    for (std::string word; words >> word;) out.insert(word);
    return out;
}

TEST(SimCliE2E, CompletionOffersEveryOptionOfEverySubcommand) {
    TempDir dir;
    const auto script = dir.write("c.bash", run_dmasim(dir, {"completion", "bash"}).out);
    for (const std::string sub :
         {"run", "sweep", "advise", "merge", "plot", "diff", "fit", "stats", "config"}) {
        const auto offered = completed_options(dir, script, sub);
        for (const auto& option : help_options(dir, sub))
            EXPECT_TRUE(offered.count(option)) << "dmasim " << sub << " " << option;
    }
}

TEST(SimCliE2E, RunLayersConfigsLeftToRight) {
    TempDir dir;
    const auto a = dir.write("a.yaml", "workload.entries: 4\nworkload.segment_bytes: 2KiB\n");
    const auto b = dir.write("b.yaml", "base: a.yaml\nworkload.entries: 6\n");
    const auto report = dir.path() + "/r.json";
    auto r = run_dmasim(dir, {"run", b, dir.write("c.yaml", "workload.chain_depth: 2\n"),
                              "--report", report, "--quiet"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(read_file(report));
    EXPECT_EQ(j["config"]["workload.segment_bytes"], 2048);  // canonical number
    EXPECT_EQ(j["result"]["bytes"], 6 * 2048);               // b's entries, a's size
    EXPECT_EQ(j["result"]["chain_links"], 2 - 1);            // c's depth
}

TEST(SimCliE2E, SweepSetFixesAKeyForEveryPoint) {
    TempDir dir;
    const auto sweep = dir.write("s.yaml", "sweep:\n  workload.chain_depth: [1, 2]\n");
    const auto out = dir.path() + "/o";
    auto r = run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot", "--set",
                              "workload.entries=4", "--set", "workload.segment_bytes=1KiB"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto csv = read_file(out + "/results.csv");
    // Every row moved 4 x 1024 bytes.
    EXPECT_TRUE(contains(csv, "\n1,4096,")) << csv;
    EXPECT_TRUE(contains(csv, "\n2,4096,")) << csv;
}

TEST(SimCliE2E, SweepSetOfASweptKeyIsUsageError) {
    TempDir dir;
    const auto sweep = dir.write("s.yaml", "sweep:\n  workload.chain_depth: [1, 2]\n");
    auto r = run_dmasim(
        dir, {"sweep", sweep, "--out", dir.path() + "/o", "--set", "workload.chain_depth=4"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "workload.chain_depth is swept")) << r.err;
}

/// Runs with output `option` pointing at a directory: the path is checked
/// before anything is simulated, so no result can be lost to it (exit 2).
void expect_refused_before_simulating(const char* option) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() + "/taken/x");
    auto r = run_dmasim(dir, {"run", "--set", "workload.entries=8", option, dir.path() + "/taken"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_FALSE(contains(r.out, "integrity")) << r.out;
    EXPECT_TRUE(contains(r.err, std::string(option) + " " + dir.path() + "/taken: is a directory"))
        << r.err;
}

TEST(SimCliE2E, UnwritableReportIsRefusedBeforeSimulating) {
    expect_refused_before_simulating("--report");
}

TEST(SimCliE2E, UnwritableTraceIsRefusedBeforeSimulating) {
    expect_refused_before_simulating("--trace");
}

TEST(SimCliE2E, UnwritableVcdIsRefusedBeforeSimulating) {
    expect_refused_before_simulating("--vcd");
}

}  // namespace
}  // namespace dmasim::sim
