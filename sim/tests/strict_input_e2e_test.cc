// strict_input_e2e_test.cc - the inputs of issue 14 that crashed, hung or
// ran every point before failing, through the real binary: each must now
// end at once with exit status 2 and a message naming the file or key.
// ctest runs these with a timeout (sim/tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

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

}  // namespace
}  // namespace dmasim::sim
