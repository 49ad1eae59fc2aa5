// output_files_e2e_test.cc - the outputs of a run or sweep, through the real
// binary: unwritable paths are refused before simulating, a planted symlink
// is never followed, write errors (a full file system) fail the run and
// publish nothing, SIGINT/SIGTERM remove temporary files and exit 130/143,
// a second sweep into a busy --out is refused naming the holder, and a
// sweep parent forwards a signal to its points and waits for them.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_dmasim;
using test::TempDir;

constexpr auto kGiveUp = std::chrono::seconds(60);

/// Starts dmasim with `args` after running `prepare` in the child (which
/// has the PID dmasim will have); stdout goes to /dev/null, stderr to
/// `err` (a file, or a pipe when writes to files are meant to fail).
pid_t start(const std::vector<std::string>& args, const std::function<void()>& prepare,
            int err_fd) {
    std::vector<std::string> argv = {test::dmasim_exe()};
    argv.insert(argv.end(), args.begin(), args.end());
    const pid_t pid = fork();
    if (pid == 0) {
        prepare();
        const int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(err_fd, STDERR_FILENO) < 0)
            _exit(127);
        std::vector<char*> a;
        for (auto& s : argv) a.push_back(s.data());
        a.push_back(nullptr);
        execv(a[0], a.data());
        _exit(127);
    }
    return pid;
}

int exit_status(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Names in `dir` that look like temporary outputs.
std::vector<std::string> temporaries(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find(".tmp.") != std::string::npos)
            out.push_back(e.path().filename().string());
    return out;
}

bool wait_until(const std::function<bool()>& ready) {
    const auto give_up = std::chrono::steady_clock::now() + kGiveUp;
    while (!ready()) {
        if (std::chrono::steady_clock::now() > give_up) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

// Row 2 of issue 14: this crashed with SIGFPE after the whole simulation.
TEST(SimOutputE2E, VcdIntoAMissingFolderExits2BeforeSimulating) {
    TempDir dir;
    auto r = run_dmasim(dir, {"run", "--vcd", dir.path() + "/missing/x.vcd"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("--vcd " + dir.path() + "/missing/x.vcd"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << "simulated before refusing";
}

TEST(SimOutputE2E, ReportOntoAFolderExits2BeforeSimulating) {
    TempDir dir;
    fs::create_directory(dir.path() + "/r.json");
    auto r = run_dmasim(dir, {"run", "--report", dir.path() + "/r.json"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
}

// Row 8: the temporary file was opened without O_EXCL|O_NOFOLLOW, so a
// symlink planted at its predictable name overwrote the link's target.
TEST(SimOutputE2E, SymlinkPlantedAtTheTemporaryNameIsNotFollowed) {
    TempDir dir;
    const std::string victim = dir.write("victim", "keep me\n");
    for (const char* option : {"--report", "--trace"}) {
        const std::string out = dir.path() + "/out.json";
        const int err = open((dir.path() + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const pid_t pid = start(
            {"run", "-q", "--set", "workload.entries=16", option, out},
            [&] { fs::create_symlink(victim, fmt::format("{}.tmp.{}", out, getpid())); }, err);
        close(err);
        EXPECT_EQ(exit_status(pid), 0) << option << ": " << read_file(dir.path() + "/err");
        EXPECT_EQ(read_file(victim), "keep me\n") << option << " wrote through the symlink";
        EXPECT_FALSE(nlohmann::json::parse(read_file(out), nullptr, false).is_discarded())
            << option << " wrote no whole JSON file";
        fs::remove(out);
    }
}

/// Runs dmasim with every write to a regular file failing (RLIMIT_FSIZE 0
/// and SIGXFSZ ignored: EFBIG, as ENOSPC on a full file system); returns
/// the status and stderr (through a pipe, which the limit does not cover).
std::pair<int, std::string> run_on_full_disk(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0) return {-1, "pipe failed"};
    const pid_t pid = start(
        args,
        [] {
            signal(SIGXFSZ, SIG_IGN);
            const rlimit none{0, 0};
            setrlimit(RLIMIT_FSIZE, &none);
        },
        fds[1]);
    close(fds[1]);
    std::string err;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) err.append(buf, n);
    close(fds[0]);
    return {exit_status(pid), err};
}

// Row 12: rc 0 and an empty VCD were published.
TEST(SimOutputE2E, WriteErrorsFailTheRunAndPublishNothing) {
#if defined(__SANITIZE_ADDRESS__)
    // Known gap (tb/src/run.cc): a write error is found after sc_start(),
    // and an exception there is misreported by AddressSanitizer.
    GTEST_SKIP() << "write errors surface after elaboration";
#endif
    TempDir dir;
    for (const char* option : {"--vcd", "--report", "--trace"}) {
        const std::string out = dir.path() + "/out";
        auto [status, err] = run_on_full_disk({"run", "-q", option, out});
        EXPECT_EQ(status, 1) << option << ": " << err;
        EXPECT_NE(err.find("cannot write"), std::string::npos) << option << ": " << err;
        EXPECT_FALSE(fs::exists(out)) << option << " published an incomplete file";
        EXPECT_EQ(temporaries(dir.path()), std::vector<std::string>{}) << option;
    }
}

// Row 19: a killed run left *.tmp.PID trace and VCD files behind.
void signal_mid_run_cleans_up(int sig) {
    TempDir dir;
    const int err = open((dir.path() + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const pid_t pid = start(
        {"run", "-q", "--set", "workload.entries=65536", "--set", "memory.size_mib=1024", "--trace",
         dir.path() + "/t.json", "--vcd", dir.path() + "/v.vcd", "--report",
         dir.path() + "/r.json"},
        [] {}, err);
    close(err);
    // The trace's temporary exists once the simulation is under way.
    ASSERT_TRUE(wait_until([&] { return temporaries(dir.path()).size() >= 2; }));
    kill(pid, sig);
    EXPECT_EQ(exit_status(pid), 128 + sig) << read_file(dir.path() + "/err");
    EXPECT_EQ(temporaries(dir.path()), std::vector<std::string>{});
    for (const char* name : {"t.json", "v.vcd", "r.json"})
        EXPECT_FALSE(fs::exists(dir.path() + "/" + name)) << name;
}

TEST(SimOutputE2E, SigintMidRunRemovesTemporariesAndExits130) { signal_mid_run_cleans_up(SIGINT); }

TEST(SimOutputE2E, SigtermMidRunRemovesTemporariesAndExits143) {
    signal_mid_run_cleans_up(SIGTERM);
}

/// Eight points long enough that a second command lands mid-sweep.
std::string long_sweep(const TempDir& dir) {
    return dir.write("long.yaml",
                     "set:\n  workload.segment_bytes: 4096\n  memory.size_mib: 512\n"
                     "sweep:\n  workload.entries: [16384, 16385, 16386, 16387, 16388, 16389, "
                     "16390, 16391]\n");
}

size_t logs_started(const std::string& out) {
    if (!fs::exists(out + "/logs")) return 0;
    return std::distance(fs::directory_iterator(out + "/logs"), fs::directory_iterator());
}

// Row 9: two sweeps into one --out mixed their rows and both exited 0.
TEST(SimOutputE2E, SecondSweepIntoABusyFolderIsRefusedNamingTheHolder) {
    TempDir dir;
    const std::string sweep = long_sweep(dir), out = dir.path() + "/out";
    const int err = open((dir.path() + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const pid_t first = start(
        {"sweep", sweep, "-j", "1", "--no-plot", "--out", out}, [] {}, err);
    close(err);
    ASSERT_TRUE(wait_until([&] { return logs_started(out) > 0; }));
    auto second = run_dmasim(dir, {"sweep", sweep, "-j", "1", "--no-plot", "--out", out});
    EXPECT_EQ(second.status, 2) << second.err;
    EXPECT_NE(second.err.find(fmt::format("PID {}", first)), std::string::npos) << second.err;
    kill(first, SIGTERM);
    exit_status(first);
}

// Row 19: killing only a sweep's parent left its children writing.
TEST(SimOutputE2E, SweepParentForwardsASignalToItsPointsAndWaitsForThem) {
    TempDir dir;
    const std::string sweep = long_sweep(dir), out = dir.path() + "/out";
    const int err = open((dir.path() + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const pid_t parent = start(
        {"sweep", sweep, "-j", "2", "--no-plot", "--out", out}, [] { setpgid(0, 0); }, err);
    close(err);
    setpgid(parent, parent);
    ASSERT_TRUE(wait_until([&] { return logs_started(out) >= 2; }));
    kill(parent, SIGTERM);  // the parent alone, not its process group
    EXPECT_EQ(exit_status(parent), 143) << read_file(dir.path() + "/err");
    // The parent waited for its points: none is left in its group.
    EXPECT_NE(kill(-parent, 0), 0) << "a point outlived the sweep";
    EXPECT_NE(read_file(dir.path() + "/err").find("interrupted"), std::string::npos);
    EXPECT_EQ(temporaries(out + "/points"), std::vector<std::string>{});
    EXPECT_FALSE(fs::exists(out + "/results.csv"));
}

}  // namespace
}  // namespace dmasim::sim
