// slurm_e2e_test.cc - `dmasim sweep --slurm` without a cluster: the batch
// scripts it writes, run here by bash as Slurm would run them, give the
// local sweep's results.csv; and what it refuses before queueing anything.
// The real Slurm run is slurm_sweep_e2e.sh.
#include <gtest/gtest.h>

#include <filesystem>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_dmasim;
using test::run_program;
using test::TempDir;

/// 2 x 2 grid of small runs: entries {4, 8} x chain depth {1, 2}.
std::string write_grid(const TempDir& dir) {
    return dir.write("grid.yaml",
                     "set:\n  workload.segment_bytes: 1024\n"
                     "sweep:\n  workload.entries: [4, 8]\n  workload.chain_depth: [1, 2]\n");
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(SimSlurmE2E, ScriptsRunAsAnArrayThenAMergeGiveTheLocalResults) {
    TempDir dir;
    const auto sweep = write_grid(dir);
    const auto out = dir.path() + "/cluster";
    auto r = run_dmasim(
        dir, {"sweep", sweep, "--out", out, "--slurm", "2", "--slurm-script-only", "--no-plot"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto shards = read_file(out + "/slurm/shards.sbatch");
    EXPECT_TRUE(contains(shards, "#SBATCH --array=1-2\n")) << shards;
    EXPECT_TRUE(contains(shards, "--shard \"$SLURM_ARRAY_TASK_ID/2\"")) << shards;
    EXPECT_TRUE(contains(r.out, "sbatch --dependency=afterany:")) << r.out;

    // What Slurm does: task 1 and task 2 of the array, then the merge.
    for (const char* task : {"1", "2"}) {
        auto t = run_program(dir, {"/usr/bin/env", std::string("SLURM_ARRAY_TASK_ID=") + task,
                                   "/bin/bash", out + "/slurm/shards.sbatch"});
        ASSERT_EQ(t.status, 0) << t.out << t.err;
        EXPECT_TRUE(contains(t.out, std::string("shard ") + task + "/2")) << t.out;
    }
    auto m = run_program(dir, {"/bin/bash", out + "/slurm/merge.sbatch"});
    ASSERT_EQ(m.status, 0) << m.out << m.err;

    const auto local = dir.path() + "/local";
    ASSERT_EQ(run_dmasim(dir, {"sweep", sweep, "--out", local, "--no-plot", "-j", "2"}).status, 0);
    EXPECT_EQ(read_file(out + "/results.csv"), read_file(local + "/results.csv"));
}

TEST(SimSlurmE2E, MoreTasksThanPointsAreCutDownToOnePerPoint) {
    TempDir dir;
    const auto out = dir.path() + "/o";
    auto r = run_dmasim(
        dir, {"sweep", write_grid(dir), "--out", out, "--slurm", "10", "--slurm-script-only"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(read_file(out + "/slurm/shards.sbatch"), "#SBATCH --array=1-4\n"));
    EXPECT_TRUE(contains(read_file(out + "/slurm/merge.sbatch"), "/shard-4'"));
}

TEST(SimSlurmE2E, SbatchMissingFromPathIsNamed) {
    TempDir dir;
    const auto sweep = write_grid(dir);
    auto r = run_program(dir, {"/usr/bin/env", "PATH=" + dir.path(), test::dmasim_exe(), "sweep",
                               sweep, "--out", dir.path() + "/o", "--slurm", "2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "sbatch (Slurm's client) is not on PATH")) << r.err;
}

TEST(SimSlurmE2E, AScriptDmasimDidNotWriteIsNeverReplaced) {
    TempDir dir;
    const auto out = dir.path() + "/o";
    fs::create_directories(out + "/slurm");
    const auto mine = dir.write("o/slurm/merge.sbatch", "#!/bin/bash\necho my own\n");
    auto r = run_dmasim(
        dir, {"sweep", write_grid(dir), "--out", out, "--slurm", "2", "--slurm-script-only"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "not written by dmasim")) << r.err;
    EXPECT_EQ(read_file(mine), "#!/bin/bash\necho my own\n");
}

TEST(SimSlurmE2E, RefusesWhatWouldBreakTheArrayBeforeWritingAnything) {
    TempDir dir;
    const auto sweep = write_grid(dir);
    const auto out = dir.path() + "/o";
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--slurm-option=--array=1-3"},
          {"--slurm-option=--dependency=afterok:1"},
          {"--slurm-option", "--comment=two words"},
          {"--slurm-option=partition=p"},
          {"--shard", "1/2"}}) {
        std::vector<std::string> args{
            "sweep", sweep, "--out", out, "--slurm", "2", "--slurm-script-only"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto r = run_dmasim(dir, args);
        EXPECT_EQ(r.status, 2) << extra.back() << ": " << r.err;
        EXPECT_FALSE(fs::exists(out + "/slurm")) << extra.back();
    }
    const auto bad = dir.write("bad.yaml", "sweep:\n  workload.entriez: [1, 2]\n");
    EXPECT_EQ(
        run_dmasim(dir, {"sweep", bad, "--out", out, "--slurm", "2", "--slurm-script-only"}).status,
        2);
    EXPECT_FALSE(fs::exists(out + "/slurm"));
    EXPECT_EQ(run_dmasim(dir, {"sweep", sweep, "--out", dir.path() + "/with space", "--slurm", "2",
                               "--slurm-script-only"})
                  .status,
              2);
}

}  // namespace
}  // namespace dmasim::sim
