// fault_interrupt_e2e_test.cc - faults outside the model, through the real
// binary: a sweep killed mid-run (SIGINT, SIGKILL) leaves no half-written
// file and --resume completes it to the CSV of an uninterrupted run; a list
// too large for simulated memory is a clear exit-2 error with no output.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_dmasim;
using test::TempDir;

/// 12 points, each long enough (a few tenths of a second under sanitizers)
/// that a kill lands mid-sweep.
std::string write_sweep(const TempDir& dir) {
    return dir.write("long.yaml",
                     "set:\n  workload.segment_bytes: 4096\n  workload.chain_depth: 2\n"
                     "sweep:\n  workload.entries: [64, 96, 128, 160, 192, 224]\n"
                     "  dma.max_outstanding_reads: [4, 16]\n");
}

/// Starts `dmasim args...` as the leader of its own process group, as a
/// shell starts a job, so a signal can reach the sweep and its children.
pid_t start_group(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {test::dmasim_exe()};
    argv.insert(argv.end(), args.begin(), args.end());
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(127);
        std::vector<char*> a;
        for (auto& s : argv) a.push_back(s.data());
        a.push_back(nullptr);
        execv(a[0], a.data());
        _exit(127);
    }
    setpgid(pid, pid);  // also here, so kill(-pid) works however the race goes
    return pid;
}

size_t finished_points(const std::string& out) {
    if (!fs::exists(out + "/points")) return 0;
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(out + "/points"))
        n += e.path().extension() == ".json";
    return n;
}

/// Runs the sweep, and once `points` reports exist sends `sig` to its
/// whole process group. Returns the sweep's wait status.
int kill_mid_sweep(const std::string& sweep, const std::string& out, int sig, size_t points) {
    pid_t pid = start_group({"sweep", sweep, "-j", "2", "--out", out, "--no-plot"});
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (finished_points(out) < points && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(-pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    // Let any child still in the group finish dying before files are read.
    while (kill(-pid, 0) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return status;
}

/// Every report left under a final name parses, and no CSV or half a CSV
/// was written for the unfinished sweep.
void expect_nothing_half_written(const std::string& out) {
    for (const auto& e : fs::directory_iterator(out + "/points")) {
        if (e.path().extension() != ".json") continue;
        const auto j = nlohmann::json::parse(read_file(e.path().string()), nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << e.path() << " is not a whole report";
        if (!j.is_discarded()) {
            EXPECT_TRUE(j.contains("result")) << e.path();
        }
    }
    EXPECT_FALSE(fs::exists(out + "/results.csv")) << "CSV of an unfinished sweep";
}

void interrupted_sweep_resumes_to_the_full_csv(int sig) {
    TempDir dir;
    const std::string sweep = write_sweep(dir), whole = dir.path() + "/whole",
                      cut = dir.path() + "/cut";
    ASSERT_EQ(run_dmasim(dir, {"sweep", sweep, "-j", "2", "--out", whole, "--no-plot"}).status, 0);

    const int status = kill_mid_sweep(sweep, cut, sig, 2);
    ASSERT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0))
        << "the sweep finished before the signal; make its points longer";
    const size_t done = finished_points(cut);
    ASSERT_LT(done, 12u) << "nothing left to resume";
    expect_nothing_half_written(cut);

    auto r = run_dmasim(dir, {"sweep", sweep, "-j", "2", "--out", cut, "--no-plot", "--resume"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(fmt::format("{} to run, {} already complete", 12 - done, done)),
              std::string::npos)
        << r.out;
    EXPECT_EQ(read_file(cut + "/results.csv"), read_file(whole + "/results.csv"));
}

TEST(SimFaultE2E, SweepInterruptedBySigintResumesToTheUninterruptedCsv) {
    interrupted_sweep_resumes_to_the_full_csv(SIGINT);
}

TEST(SimFaultE2E, SweepKilledBySigkillResumesToTheUninterruptedCsv) {
    interrupted_sweep_resumes_to_the_full_csv(SIGKILL);
}

TEST(SimFaultE2E, ListTooLargeForMemoryExits2NamingTheSizesWithNoOutput) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json", trace = dir.path() + "/t.json";
    // 4096 one-page segments copied memory to memory need 2 x 4096 x 4 KiB
    // = 32 MiB of pages, and their descriptor chunk 4096 x 32 B = 128 KiB:
    // 32.125 MiB, rounded up to 33; the memory has 1 MiB.
    auto r = run_dmasim(
        dir, {"run", "--set", "memory.size_mib=1", "--set", "workload.entries=4096", "--set",
              "workload.segment_bytes=4096", "--report", report, "--trace", trace});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("33 MiB"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("memory.size_mib is 1"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(report));
    EXPECT_FALSE(fs::exists(trace));
}

TEST(SimFaultE2E, ListsOnEveryChannelExhaustingMemoryExit2NamingTheSizes) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    // Each list alone fits (validation passes), but four of them plus
    // their descriptor chunks do not: the run itself must refuse.
    auto r = run_dmasim(
        dir, {"run", "--set", "memory.size_mib=16", "--set", "workload.scenario=multi_channel",
              "--set", "dma.channels=4", "--set", "workload.entries=2000", "--set",
              "workload.chain_depth=1", "--report", report});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("does not fit in simulated memory"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("memory.size_mib = 16"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(report));
}

}  // namespace
}  // namespace dmasim::sim
