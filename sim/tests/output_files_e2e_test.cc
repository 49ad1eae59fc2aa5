// output_files_e2e_test.cc - the outputs of a run or sweep, through the real
// binary: unwritable paths are refused before simulating, a planted symlink
// is never followed, write errors (a full file system) fail the run and
// publish nothing, SIGINT/SIGTERM remove temporary files and exit 130/143,
// a second sweep into a busy --out is refused naming the holder, and a
// sweep parent forwards a signal to its points and waits for them; devices,
// FIFOs and symlinks are written in place or through, never replaced; a
// failing trace or file size limit loses neither summary nor report;
// prune and --out touch only what dmasim wrote; the VCD has a size cap.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
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
/// has the PID dmasim will have); stdout goes to `out_fd` (/dev/null if
/// -1), stderr to `err` (a file, or a pipe when writes to files are meant
/// to fail).
pid_t start(const std::vector<std::string>& args, const std::function<void()>& prepare,
            int err_fd, int out_fd = -1) {
    std::vector<std::string> argv = {test::dmasim_exe()};
    argv.insert(argv.end(), args.begin(), args.end());
    const pid_t pid = fork();
    if (pid == 0) {
        prepare();
        const int out = out_fd >= 0 ? out_fd : open("/dev/null", O_WRONLY);
        if (out < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(err_fd, STDERR_FILENO) < 0)
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

std::string drain(int fd) {
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) text.append(buf, n);
    close(fd);
    return text;
}

/// Runs dmasim after `prepare` in the child, stdout and stderr through
/// pipes (which neither a file size limit nor a full device covers).
test::Outcome run_prepared(const std::vector<std::string>& args,
                           const std::function<void()>& prepare) {
    int out[2], err[2];
    if (pipe(out) != 0 || pipe(err) != 0) return {-1, "", "pipe failed"};
    const pid_t pid = start(args, prepare, err[1], out[1]);
    close(out[1]);
    close(err[1]);
    test::Outcome r;
    r.out = drain(out[0]);
    r.err = drain(err[0]);
    r.status = exit_status(pid);
    return r;
}

/// Limits every file this process writes to `bytes` (RLIMIT_FSIZE), with
/// SIGXFSZ at its default action (killing the process) unless dmasim
/// handles it.
std::function<void()> file_size_limit(rlim_t bytes) {
    return [bytes] {
        signal(SIGXFSZ, SIG_DFL);
        const rlimit limit{bytes, bytes};
        setrlimit(RLIMIT_FSIZE, &limit);
    };
}

/// Runs dmasim with every write to a regular file failing (RLIMIT_FSIZE 0:
/// EFBIG, as ENOSPC on a full file system); returns the status and stderr.
std::pair<int, std::string> run_on_full_disk(const std::vector<std::string>& args) {
    const test::Outcome r = run_prepared(args, file_size_limit(0));
    return {r.status, r.err};
}

// Row 12: rc 0 and an empty VCD were published.
TEST(SimOutputE2E, WriteErrorsFailTheRunAndPublishNothing) {
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
    EXPECT_NE(read_file(dir.path() + "/err").find("temporary files removed"), std::string::npos)
        << read_file(dir.path() + "/err");
    EXPECT_EQ(temporaries(dir.path()), std::vector<std::string>{});
    for (const char* name : {"t.json", "v.vcd", "r.json"})
        EXPECT_FALSE(fs::exists(dir.path() + "/" + name)) << name;
}

TEST(SimOutputE2E, SigintMidRunRemovesTemporariesAndExits130) { signal_mid_run_cleans_up(SIGINT); }

TEST(SimOutputE2E, SigtermMidRunRemovesTemporariesAndExits143) {
    signal_mid_run_cleans_up(SIGTERM);
}

// Issue 28 row 14: a hang-up killed the run and left its temporaries.
TEST(SimOutputE2E, SighupMidRunRemovesTemporariesAndExits129) { signal_mid_run_cleans_up(SIGHUP); }

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

// Issue 28 rows 3 and 7: outputs that are not regular files.

/// lstat() of `path`: what sits at that name, without following a link.
struct stat node(const std::string& path) {
    struct stat st {};
    lstat(path.c_str(), &st);
    return st;
}

/// Makes a character device node like /dev/null (1, 3) or /dev/full (1, 7)
/// inside the test's folder, so a regression replaces only that copy.
bool make_char_device(const std::string& path, unsigned minor) {
    return mknod(path.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0;
}

bool is_char_device(const std::string& path, unsigned minor) {
    const struct stat st = node(path);
    return S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, minor);
}

constexpr unsigned kNullMinor = 3, kFullMinor = 7;

// Row 3: `--report n` on a device node replaced the node with a regular file.
TEST(SimOutputE2E, ReportTraceAndVcdIntoACharacterDeviceLeaveTheNodeInPlace) {
    TempDir dir;
    const std::string null = dir.path() + "/null";
    if (!make_char_device(null, kNullMinor)) GTEST_SKIP() << "mknod needs root";
    for (const char* option : {"--report", "--trace", "--vcd"}) {
        auto r = run_dmasim(dir, {"run", "-q", "--set", "workload.entries=16", option, null});
        EXPECT_EQ(r.status, 0) << option << ": " << r.err;
        EXPECT_TRUE(is_char_device(null, kNullMinor)) << option << " replaced the device node";
        EXPECT_EQ(temporaries(dir.path()), std::vector<std::string>{}) << option;
    }
}

TEST(SimOutputE2E, ReportIntoAFifoReachesItsReaderAndTheFifoStays) {
    TempDir dir;
    const std::string fifo = dir.path() + "/fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
    // The read end is open before dmasim starts, so its open() of the FIFO
    // does not wait; a report of 16 entries fits the pipe's 64 KiB buffer,
    // so it is read once dmasim has ended (and a FIFO replaced by a file
    // yields nothing instead of a reader waiting forever).
    const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    auto r = run_dmasim(dir, {"run", "-q", "--set", "workload.entries=16", "--report", fifo});
    const std::string received = drain(reader);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(S_ISFIFO(node(fifo).st_mode)) << "the FIFO was replaced";
    const auto report = nlohmann::json::parse(received, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << "the reader got no whole report: " << received;
    EXPECT_EQ(report["config"]["workload.entries"], 16);
}

// A link is followed, never replaced: its regular target gets the report.
TEST(SimOutputE2E, SymlinkToARegularFileIsWrittenThroughAndKept) {
    TempDir dir;
    const std::string target = dir.write("target.json", "old\n"), link = dir.path() + "/link";
    fs::create_symlink("target.json", link);
    auto r = run_dmasim(dir, {"run", "-q", "--set", "workload.entries=16", "--report", link});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(S_ISLNK(node(link).st_mode)) << "the link was replaced";
    EXPECT_FALSE(nlohmann::json::parse(read_file(target), nullptr, false).is_discarded());
    EXPECT_EQ(temporaries(dir.path()), std::vector<std::string>{});
}

// Row 3's third case: a link to /proc/self/fd/1 became a regular file.
TEST(SimOutputE2E, ReportThroughALinkToStandardOutputReachesIt) {
    TempDir dir;
    const std::string link = dir.path() + "/stdout";
    fs::create_symlink("/proc/self/fd/1", link);
    auto r = run_dmasim(dir, {"run", "-q", "--set", "workload.entries=16", "--report", link});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(S_ISLNK(node(link).st_mode)) << "the link was replaced";
    EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << r.out;
}

TEST(SimOutputE2E, BlockDeviceAndLinkToNothingAreRefusedBeforeSimulating) {
    TempDir dir;
    const std::string block = dir.path() + "/block", dangling = dir.path() + "/dangling";
    fs::create_symlink("missing.json", dangling);
    const bool have_block = mknod(block.c_str(), S_IFBLK | 0600, makedev(7, 0)) == 0;
    for (const std::string& path : have_block ? std::vector{dangling, block} : std::vector{dangling}) {
        auto r = run_dmasim(dir, {"run", "--report", path});
        EXPECT_EQ(r.status, 2) << path << ": " << r.err;
        EXPECT_NE(r.err.find("--report " + path), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "") << "simulated before refusing";
    }
    EXPECT_TRUE(S_ISLNK(node(dangling).st_mode));
    EXPECT_FALSE(fs::exists(dir.path() + "/missing.json"));
    if (have_block) {
        EXPECT_TRUE(S_ISBLK(node(block).st_mode));
    }
}

// Row 7: a trace on a full file system aborted the run with an uncaught
// exception ("E549"), losing the summary and the report.
TEST(SimOutputE2E, TraceAndVcdOnAFullDeviceKeepSummaryAndReport) {
    TempDir dir;
    const std::string full = dir.path() + "/full", report = dir.path() + "/r.json";
    if (!make_char_device(full, kFullMinor)) GTEST_SKIP() << "mknod needs root";
    for (const char* option : {"--trace", "--vcd"}) {
        auto r = run_dmasim(dir, {"run", option, full, "--report", report});
        EXPECT_EQ(r.status, 1) << option << ": " << r.err;
        EXPECT_NE(r.out.find("integrity"), std::string::npos) << option << ": no summary";
        EXPECT_NE(r.err.find(fmt::format("cannot write {}: {}", full, std::strerror(ENOSPC))),
                  std::string::npos)
            << option << ": " << r.err;
        EXPECT_FALSE(nlohmann::json::parse(read_file(report), nullptr, false).is_discarded())
            << option << ": no report";
        EXPECT_TRUE(is_char_device(full, kFullMinor));
        fs::remove(report);
    }
}

// Row 7 on a regular file that fills up mid-run: the default run's trace
// is several MiB, its report a few KiB, so a 64 KiB limit cuts only the
// trace, long before the run ends.
TEST(SimOutputE2E, TraceCutShortMidRunKeepsSummaryAndReport) {
    TempDir dir;
    const std::string trace = dir.path() + "/t.json", report = dir.path() + "/r.json";
    auto r = run_prepared({"run", "--trace", trace, "--report", report}, file_size_limit(64 << 10));
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.out.find("integrity"), std::string::npos) << "no summary: " << r.err;
    EXPECT_NE(r.err.find(fmt::format("cannot write {}: {}", trace, std::strerror(EFBIG))),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(nlohmann::json::parse(read_file(report), nullptr, false).is_discarded());
    EXPECT_FALSE(fs::exists(trace)) << "a cut trace was published";
    EXPECT_EQ(temporaries(dir.path()), std::vector<std::string>{});
}

// Row 14: `(ulimit -f 4; dmasim run ...)` was killed by SIGXFSZ (153),
// losing the summary and leaving every temporary behind.
TEST(SimOutputE2E, FileSizeLimitFailsTheWritesNotTheRun) {
    TempDir dir;
    std::vector<std::string> args = {"run"};
    for (const char* option : {"--report", "--trace", "--vcd"})
        args.insert(args.end(), {option, dir.path() + "/" + (option + 2)});
    auto r = run_prepared(args, file_size_limit(4 << 10));
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.out.find("integrity"), std::string::npos) << "no summary: " << r.err;
    for (const char* name : {"report", "trace", "vcd"})
        EXPECT_NE(r.err.find(fmt::format("cannot write {}/{}: {}", dir.path(), name,
                                         std::strerror(EFBIG))),
                  std::string::npos)
            << name << ": " << r.err;
    EXPECT_EQ(temporaries(dir.path()), std::vector<std::string>{});
}

// Row 14: a closed standard output (SIGPIPE) killed the run before its
// report was written.
TEST(SimOutputE2E, SummaryIntoAClosedPipeStillWritesTheReport) {
    TempDir dir;
    const std::string report = dir.path() + "/r.json";
    int out[2], err[2];
    ASSERT_EQ(pipe(out), 0);
    ASSERT_EQ(pipe(err), 0);
    close(out[0]);  // nobody will read the summary
    const pid_t pid = start({"run", "--report", report}, [] {}, err[1], out[1]);
    close(out[1]);
    close(err[1]);
    const std::string messages = drain(err[0]);
    EXPECT_EQ(exit_status(pid), 1) << messages;
    EXPECT_NE(messages.find(std::strerror(EPIPE)), std::string::npos) << messages;
    EXPECT_FALSE(nlohmann::json::parse(read_file(report), nullptr, false).is_discarded());
}

// Issue 28 row 8: `sweep --out . --prune` in a project deleted every file
// in its configs/ and logs/.

/// The names in `dir`, sorted.
std::vector<std::string> names_in(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

TEST(SimOutputE2E, SweepIntoAFolderThatIsNotASweepFolderIsRefusedAndTouchesNothing) {
    TempDir dir;
    const std::string project = dir.path() + "/project";
    fs::create_directories(project + "/configs");
    fs::create_directories(project + "/logs");
    const std::string own = dir.write("project/configs/default.yaml", "clock_mhz: 1000\n");
    dir.write("project/logs/build.log", "built\n");
    const std::string sweep = dir.write("x.yaml", "sweep:\n  workload.entries: [4, 8]\n");
    auto r = run_dmasim(dir, {"sweep", sweep, "--out", project, "--prune", "--no-plot"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("not a sweep output folder"), std::string::npos) << r.err;
    EXPECT_EQ(names_in(project), (std::vector<std::string>{"configs", "logs"}));
    EXPECT_EQ(names_in(project + "/configs"), std::vector<std::string>{"default.yaml"});
    EXPECT_EQ(names_in(project + "/logs"), std::vector<std::string>{"build.log"});
}

// Prune removes the files of points the manifest recorded, even through a
// sweep that did not prune, and nothing else in the folder.
TEST(SimOutputE2E, PruneRemovesOnlyTheFilesOfPointsTheManifestRecorded) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    const std::string both = dir.write("both.yaml", "sweep:\n  workload.entries: [4, 8]\n");
    const std::string one = dir.write("one.yaml", "sweep:\n  workload.entries: [4]\n");
    ASSERT_EQ(run_dmasim(dir, {"sweep", both, "--out", out, "--no-plot"}).status, 0);
    const auto two_points = names_in(out + "/points");
    ASSERT_EQ(two_points.size(), 2u);
    dir.write("out/configs/default.yaml", "clock_mhz: 1000\n");  // a user's, not a point's
    const std::string foreign = "0123456789abcdef.json";  // id-shaped, in no manifest
    dir.write("out/points/" + foreign, "{}\n");
    ASSERT_EQ(run_dmasim(dir, {"sweep", one, "--out", out, "--no-plot"}).status, 0);
    EXPECT_EQ(names_in(out + "/points").size(), 3u) << "removed without --prune";

    auto r = run_dmasim(dir, {"sweep", one, "--out", out, "--no-plot", "--resume", "--prune"});
    ASSERT_EQ(r.status, 0) << r.err;
    // One point left the sweep: its report, config and log.
    const size_t files_per_point = 3;
    EXPECT_NE(r.out.find(fmt::format("pruned {} files", 1 * files_per_point)), std::string::npos)
        << r.out;
    const auto points = names_in(out + "/points");
    EXPECT_EQ(points.size(), 2u);
    EXPECT_TRUE(std::count(points.begin(), points.end(), foreign)) << "pruned a foreign file";
    EXPECT_EQ(names_in(out + "/configs").size(), 2u);  // the kept point's and the user's
    EXPECT_TRUE(fs::exists(out + "/configs/default.yaml"));
    EXPECT_EQ(names_in(out + "/logs").size(), 1u);
}

// Issue 28 note: after SIGKILL, points/ID.json.tmp.PID stayed forever.
TEST(SimOutputE2E, SweepRemovesTemporariesOfDeadProcessesOnly) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    const std::string sweep = dir.write("x.yaml", "sweep:\n  workload.entries: [4]\n");
    ASSERT_EQ(run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot"}).status, 0);
    const pid_t dead = fork();
    if (dead == 0) _exit(0);
    waitpid(dead, nullptr, 0);
    const std::string id = names_in(out + "/configs").front().substr(0, 16);
    const std::string killed = fmt::format("points/{}.json.tmp.{}", id, dead);
    const std::string running = fmt::format("points/{}.json.tmp.{}", id, getpid());
    const std::string users = fmt::format("points/notes.txt.tmp.{}", dead);
    for (const auto& name : {killed, running, users}) dir.write("out/" + name, "partial");
    auto r = run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot", "--resume"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(fs::exists(out + "/" + killed)) << "a dead dmasim's temporary stayed";
    EXPECT_TRUE(fs::exists(out + "/" + running)) << "removed a live process's temporary";
    EXPECT_TRUE(fs::exists(out + "/" + users)) << "removed a file not named as dmasim's";
}

// Issue 28 item 2: a point's log was opened with O_TRUNC through any
// symlink at logs/ID.log, truncating the link's target.
TEST(SimOutputE2E, SymlinkAtAPointsLogNameIsNotFollowed) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    const std::string sweep = dir.write("x.yaml", "sweep:\n  workload.entries: [4]\n");
    ASSERT_EQ(run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot"}).status, 0);
    const std::string log = out + "/logs/" + names_in(out + "/logs").front();
    const std::string victim = dir.write("victim", "keep me\n");
    fs::remove(log);
    fs::create_symlink(victim, log);
    run_dmasim(dir, {"sweep", sweep, "--out", out, "--no-plot"});
    EXPECT_EQ(read_file(victim), "keep me\n") << "the point's log truncated the link's target";
}

// Issue 28 note: the VCD had no size cap (49 MB at 512 Ki entries). A run
// of 4096 entries writes several MiB of VCD; capped at 1 MiB, the file is
// closed at the first size check past the cap, which is at most 256 trace
// records (a few KiB) later, so it stays well under 2 MiB.
TEST(SimOutputE2E, VcdStopsAtItsSizeCapWithANote) {
    TempDir dir;
    const std::string vcd = dir.path() + "/v.vcd";
    const uint64_t cap = 1 << 20;
    auto r = run_dmasim(dir, {"run", "-q", "--set", "workload.entries=4096", "--vcd", vcd,
                              "--trace-max-mib", "1"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("the VCD reached its size cap (1 MiB"), std::string::npos) << r.err;
    ASSERT_TRUE(fs::exists(vcd));
    EXPECT_GE(fs::file_size(vcd), cap);
    EXPECT_LT(fs::file_size(vcd), 2 * cap);
    EXPECT_EQ(read_file(vcd).rfind("$date", 0), 0u) << "not a VCD";
}

// matplotlib opened `plot -o` itself, so a link there was replaced and a
// FIFO written into by whatever matplotlib does.
TEST(SimOutputE2E, PlotWritesThroughALinkAndRefusesAFifo) {
    TempDir dir;
    const std::string csv = dir.write("results.csv",
                                      "workload.entries,throughput_gbps\n4,1.5\n8,2.5\n");
    const std::string target = dir.write("target.svg", "old\n"), link = dir.path() + "/link.svg";
    fs::create_symlink("target.svg", link);
    auto drawn = run_dmasim(dir, {"plot", csv, "-o", link});
    EXPECT_EQ(drawn.status, 0) << drawn.err;
    EXPECT_TRUE(S_ISLNK(node(link).st_mode)) << "the link was replaced";
    EXPECT_NE(read_file(target).find("<svg"), std::string::npos);

    const std::string fifo = dir.path() + "/fifo.svg";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
    auto refused = run_dmasim(dir, {"plot", csv, "-o", fifo});
    EXPECT_NE(refused.status, 0);
    EXPECT_NE(refused.err.find("not a device or FIFO"), std::string::npos) << refused.err;
    EXPECT_TRUE(S_ISFIFO(node(fifo).st_mode));
    EXPECT_EQ(temporaries(dir.path()), std::vector<std::string>{});
}

}  // namespace
}  // namespace dmasim::sim
