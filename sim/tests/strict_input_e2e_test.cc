// strict_input_e2e_test.cc - the inputs of issue 14 that crashed, hung or
// ran every point before failing, through the real binary: each must now
// end at once with exit status 2 and a message naming the file or key.
// ctest runs these with a timeout (sim/tests/CMakeLists.txt).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;
using test::run_dmasim;
using test::TempDir;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Runs dmasim with `args`; expects exit 2 and returns stderr.
std::string refused(const TempDir& dir, const std::vector<std::string>& args) {
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;  // nothing ran
    return r.err;
}

TEST(SimStrictE2E, AliasCycleIsRefusedByRunResolveAndSweep) {
    // Row 1: SIGSEGV (exit 139) in all three.
    TempDir dir;
    const std::string config = dir.write("c.yaml", "a: &a {b: *a}\n");
    const std::string message = "c.yaml:1: this alias refers to the anchor that contains it";
    EXPECT_TRUE(contains(refused(dir, {"run", config}), message));
    EXPECT_TRUE(contains(refused(dir, {"config", "--resolve", config}), message));
    const std::string sweep =
        dir.write("s.yaml", "base: c.yaml\nsweep:\n  workload.entries: [1, 2]\n");
    EXPECT_TRUE(contains(refused(dir, {"sweep", sweep, "--out", dir.path() + "/o"}), message));
}

TEST(SimStrictE2E, AliasBombEndsAtOnce) {
    // Row 14: 16 s at 10^8 leaves, unbounded at 10^9.
    TempDir dir;
    std::string yaml = "a0: &a0 {}\n";
    for (int i = 1; i <= 9; ++i) {
        yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " {";
        for (int k = 0; k < 10; ++k)
            yaml += (k ? ", x" : "x") + std::to_string(k) + ": *a" + std::to_string(i - 1);
        yaml += "}\n";
    }
    EXPECT_TRUE(contains(refused(dir, {"run", dir.write("bomb.yaml", yaml)}),
                         "aliases expand to more than 10000 nodes"));
}

TEST(SimStrictE2E, DirectoryAsConfigNamesIt) {
    // Row 15: exit 1, "basic_filebuf::underflow ... Is a directory".
    TempDir dir;
    EXPECT_TRUE(contains(refused(dir, {"run", dir.path()}),
                         dir.path() + ": is a directory, not a config file"));
}

TEST(SimStrictE2E, HugeSweepIsRefusedBeforeAnyPoint) {
    // Row 10: four axes of 65,536 values overflowed to "0 points", exit 0.
    TempDir dir;
    const std::string axis = ": {range: [1, 65536, 1]}\n";
    const std::string sweep =
        dir.write("s.yaml", "sweep:\n  workload.seed" + axis + "  traffic.seed" + axis +
                                "  fault.index" + axis + "  workload.offset: [0]\n");
    EXPECT_TRUE(contains(refused(dir, {"sweep", sweep, "--out", dir.path() + "/o"}),
                         "s.yaml:3: more than 1 values"));
    // --max-points raises (or lowers) the cap.
    const std::string small =
        dir.write("t.yaml", "sweep:\n  workload.entries: [1, 2]\n  workload.seed: [1, 2]\n");
    EXPECT_TRUE(
        contains(refused(dir, {"sweep", small, "--max-points", "3", "--out", dir.path() + "/o"}),
                 "t.yaml:3: more than 1 values"));
}

TEST(SimStrictE2E, UnknownScenarioInSweepSetIsRefusedAtStart) {
    // Row 16: every point ran and failed with "integrity failed".
    TempDir dir;
    const std::string sweep = dir.write(
        "s.yaml", "set:\n  workload.scenario: no_such\nsweep:\n  workload.entries: [8, 16]\n");
    EXPECT_TRUE(contains(refused(dir, {"sweep", sweep, "--out", dir.path() + "/o"}),
                         "s.yaml:2: unknown scenario 'no_such'"));
}

TEST(SimStrictE2E, BusFaultThatCannotFireIsRefusedInASweep) {
    TempDir dir;
    const std::string sweep =
        dir.write("s.yaml",
                  "set:\n  workload.scenario: bus_fault\n  fault.kind: data\n  fault.index: 8\n"
                  "sweep:\n  workload.entries: [4, 8]\n  workload.seed: [1, 2]\n");
    // fault.index 8 is past 4 and 8 entries alike; entries is swept, so the
    // points are skipped (none can run), not refused as a whole.
    auto r = run_dmasim(dir, {"sweep", sweep, "--out", dir.path() + "/o", "--no-plot"});
    EXPECT_TRUE(contains(r.out, "4 points, 4 skipped")) << r.out;
    EXPECT_TRUE(contains(r.out, "fault.index = 8 lies past the list")) << r.out;
}

TEST(SimStrictE2E, ErrorInjectionWithHugeChainDepthBlamesThatKey) {
    // Row 17: 2^32 - 1 blamed workload.entries = 4294967297; 2^32 - 3 took
    // 30 s before exit 2.
    TempDir dir;
    for (const char* depth : {"4294967295", "4294967293"}) {
        const std::string e = refused(dir, {"run", "--set", "workload.scenario=error_injection",
                                            "--set", std::string("dma.max_chain_depth=") + depth});
        EXPECT_TRUE(contains(e, std::string("--set dma.max_chain_depth=") + depth)) << e;
        EXPECT_TRUE(contains(e, "lower dma.max_chain_depth or raise memory.size_mib")) << e;
    }
}

// Issue 35, rows 8, 10, 11 and 14: inputs read without bound, pipes read
// twice, outputs found unwritable only after the work.

/// Two requests: the smallest trace the requests scenario replays.
std::string small_trace(const TempDir& dir) {
    return dir.write("t.trace", "0 mem_to_dev 4096\n100 dev_to_mem 512\n");
}

const std::vector<std::string> kReplay = {"--set", "workload.scenario=requests", "--set",
                                          "workload.arrival=trace"};

TEST(SimStrictE2E, EndlessTraceIsRefusedAtItsNamedLimit) {
    // Row 10: /dev/zero was read until ~1 GB of memory.
    TempDir dir;
    std::vector<std::string> args = {"run", "--quiet"};
    args.insert(args.end(), kReplay.begin(), kReplay.end());
    args.insert(args.end(), {"--set", "workload.trace=/dev/zero"});
    EXPECT_TRUE(contains(refused(dir, args),
                         "/dev/zero: longer than 64 MiB, the limit for a request trace file"));
}

TEST(SimStrictE2E, EndlessFtraceIsRefusedAtItsNamedLimit) {
    TempDir dir;
    EXPECT_TRUE(contains(refused(dir, {"trace", "import", "/dev/zero", "-o", dir.path() + "/o"}),
                         "/dev/zero: longer than 256 MiB, the limit for a ftrace text file"));
    EXPECT_FALSE(fs::exists(dir.path() + "/o"));
}

TEST(SimStrictE2E, EndlessFitPointsAreRefusedAtTheirNamedLimit) {
    // Row 10: std::bad_alloc in fit.
    TempDir dir;
    EXPECT_TRUE(contains(
        refused(dir, {"fit", DMASIM_SOURCE_DIR "/configs/default.yaml", "--points", "/dev/zero",
                      "--key", "dma.descriptor_setup_cycles=0..8", "-o", dir.path() + "/f.yaml"}),
        "/dev/zero: longer than 64 MiB, the limit for a CSV file"));
}

TEST(SimStrictE2E, TraceThroughAPipeIsReadOnceAndReplayed) {
    // Row 10: the run read <(cat t.trace) once per check, and the second
    // read found it empty: "holds no request".
    TempDir dir;
    // bash expands <(...) to a /dev/fd/N pipe.
    const std::string command =
        test::dmasim_exe() + " run --quiet --set workload.scenario=requests --set " +
        "workload.arrival=trace --set workload.trace=<(cat " + small_trace(dir) + ")";
    const auto r = test::run_program(dir, {"/bin/bash", "-c", command});
    EXPECT_EQ(r.status, 0) << r.err;
}

TEST(SimStrictE2E, SweepRefusesATraceItsPointsCannotReadAgain) {
    // Each point runs in a dmasim of its own and reads the trace again: a
    // pipe is refused up front, naming the key, not found empty by the points.
    TempDir dir;
    const std::string sweep =
        dir.write("s.yaml",
                  "set:\n  workload.scenario: requests\n  workload.arrival: trace\n"
                  "sweep:\n  workload.chain_depth: [1, 2]\n");
    const std::string command = test::dmasim_exe() + " sweep " + sweep + " --out " + dir.path() +
                                "/o --no-plot --set workload.trace=<(cat " + small_trace(dir) + ")";
    const auto r = test::run_program(dir, {"/bin/bash", "-c", command});
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "workload.trace = /dev/fd/")) << r.err;
    EXPECT_TRUE(contains(r.err, "a pipe or FIFO")) << r.err;
}

TEST(SimStrictE2E, UnwritableImportOutputIsUsageErrorBeforeReading) {
    // Row 14: a folder or a dangling link as -o exited 1 after the import.
    TempDir dir;
    const std::string ftrace = dir.write(
        "f.txt", " a-1 [000] ..... 1.000000: dma_map_page: d dir=TO_DEVICE dma_addr=0 size=5\n");
    EXPECT_TRUE(contains(refused(dir, {"trace", "import", ftrace, "-o", dir.path()}),
                         "-o " + dir.path() + ": "));
    const std::string dangling = dir.path() + "/dangling";
    fs::create_symlink(dir.path() + "/nowhere/x", dangling);
    EXPECT_TRUE(contains(refused(dir, {"trace", "import", ftrace, "-o", dangling}),
                         "-o " + dangling + ": "));
    EXPECT_FALSE(fs::exists(dir.path() + "/nowhere"));
}

/// `dmasim fit` of a valid one-point CSV with `extra` arguments.
std::vector<std::string> fit_args(const TempDir& dir, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "fit",      DMASIM_SOURCE_DIR "/configs/default.yaml",
        "--points", dir.write("p.csv", "workload.entries,cycles\n4,100\n"),
        "--key",    "dma.descriptor_setup_cycles=0..8"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST(SimStrictE2E, FitOutputsAreCheckedBeforeTheSearch) {
    // Row 8: -o FOLDER ran the whole search, then exit 1; -o /dev/null made
    // the work folder /dev/null.d.
    TempDir dir;
    EXPECT_TRUE(contains(refused(dir, fit_args(dir, {"-o", dir.path()})), "-o " + dir.path()));
    EXPECT_FALSE(fs::exists(dir.path() + ".d"));
    EXPECT_TRUE(contains(refused(dir, fit_args(dir, {"-o", "/dev/null"})),
                         "-o /dev/null: is a device or FIFO, so there is no OUTPUT.d work folder "
                         "beside it: give --work DIR"));
    EXPECT_FALSE(fs::exists("/dev/null.d"));
    EXPECT_TRUE(contains(refused(dir, fit_args(dir, {"-o", dir.path() + "/f.yaml", "--work",
                                                     "/dev/shm/../fitwork"})),
                         "--work /dev/shm/../fitwork: is under /dev"));
    EXPECT_FALSE(fs::exists("/dev/fitwork"));
    const std::string file = dir.write("taken", "not a folder\n");
    EXPECT_TRUE(
        contains(refused(dir, fit_args(dir, {"-o", dir.path() + "/f.yaml", "--work", file})),
                 "--work " + file + ": exists and is not a folder"));
    EXPECT_EQ(test::read_file(file), "not a folder\n");
}

TEST(SimStrictE2E, FitRangeOfTwoTo64ValuesIsRefused) {
    // Row 11: the value count wrapped to 0; 3 values ran and "searched
    // 0..18446744073709551615" was printed.
    TempDir dir;
    auto args = fit_args(
        dir, {"--key", "workload.seed=0..18446744073709551615", "-o", dir.path() + "/f.yaml"});
    EXPECT_TRUE(contains(refused(dir, args), "holds 2^64 values"));
}

}  // namespace
}  // namespace dmasim::sim
