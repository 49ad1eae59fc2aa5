// soak_main.cc - dmasim_soak: runs seeded random points, each as a child
// `dmasim run --report`, N at a time, and checks every report's invariants
// (docs/testing.md, "Randomized soak"). Exit 0 if every point passed (a
// few may run past its cycle or CPU budget or be refused by the run), 1 if any
// failed or too many went unchecked, 2 on bad usage.
#include <dmasim/tb/sim_config.h>
#include <fmt/format.h>
#include <process.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "soak_check.h"
#include "soak_point.h"

namespace fs = std::filesystem;

namespace {

using dmasim::soak::Point;

struct Options {
    std::string dmasim;
    uint64_t seed = 1;
    uint64_t points = 200;
    unsigned jobs = 2;
    std::string work;
    /// Each point's --max-sim-cycles: dmasim's own default (seeds 1..50
    /// put 7 points past 100 M, idle cycles being cheap).
    uint64_t max_sim_cycles = dmasim::tb::kDefaultMaxSimCycles;
    /// CPU seconds a point may use (0: no limit). Cycles do not bound a
    /// point's cost: traffic a slow DRAM cannot drain queues up, and each
    /// burst then books past all the others (docs/testing.md).
    unsigned max_cpu_seconds = 10;
    /// Print each point's reproducer (writing its trace to --work) and run none.
    bool list = false;
};

/// Points left unchecked (past the cycle or CPU budget, or refused by the run)
/// that a soak may have without failing: one in ten. A point's duration is
/// not drawn (DRAM timings, traffic and rates multiply), and a few points
/// ask what only the run can refuse (a list that scattered pages leave no
/// room for); a change that makes many do either is news.
constexpr uint64_t kUncheckedShare = 10;

std::string slurp(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Running {
    Point point;
    fs::path report;
    fs::path err;
    fs::path trace;  ///< the point's request trace, if it has one
};

/// Which budget point `r`'s child ran past, given its exit status, or
/// nullptr: --max-sim-cycles (exit status 1, no report, the run's own
/// message) or its CPU seconds (killed by SIGXCPU). Not a verdict on the model.
const char* budget_passed(const Running& r, int status) {
    if (status == 128 + SIGXCPU) return "--max-cpu-seconds";
    if (status == 1 && !fs::exists(r.report) &&
        slurp(r.err).find("reached --max-sim-cycles") != std::string::npos)
        return "--max-sim-cycles";
    return nullptr;
}

/// The run's own reason if point `r`'s child refused its configuration
/// (exit status 2, no report: docs/cli.md), empty otherwise. The soak
/// draws only points validation accepts, so this is the scenario's or the
/// testbench's refusal at run time, not a verdict on the model.
std::string refusal(const Running& r, int status) {
    if (status != 2 || fs::exists(r.report)) return {};
    const std::string why = slurp(r.err);
    return why.empty() ? "no message" : why.substr(0, why.find('\n'));
}

/// Why point `r` failed, given its child's exit status; empty if it passed.
std::vector<std::string> judge(const Running& r, int status) {
    if (status != 0 && status != 1)
        return {fmt::format("dmasim exited with status {}: {}", status, slurp(r.err))};
    if (!fs::exists(r.report))
        return {fmt::format("exit status {} and no report: {}", status, slurp(r.err))};
    return dmasim::soak::check_report(nlohmann::json::parse(slurp(r.report)));
}

/// CPU seconds (user and system) of the runs waited for so far.
double children_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    const auto seconds = [](const timeval& t) { return double(t.tv_sec) + t.tv_usec / 1e6; };
    return seconds(u.ru_utime) + seconds(u.ru_stime);
}

void print_failure(const Options& o, const Running& r, const std::vector<std::string>& why) {
    fmt::print(stderr, "soak: FAIL seed {}\n", r.point.seed);
    for (const auto& w : why) fmt::print(stderr, "  {}\n", w);
    fmt::print(stderr, "  reproduce: {}\n  or: dmasim_soak --dmasim {} --seed {} --points 1\n",
               dmasim::soak::reproducer(r.point, r.trace.string()), o.dmasim, r.point.seed);
}

class Soak {
public:
    explicit Soak(const Options& o) : o_(o) {}

    /// Runs every point; returns how many failed (past_budget() ran long,
    /// refused() were refused by the run).
    uint64_t run() {
        uint64_t next = 0;
        while (next < o_.points || !running_.empty()) {
            if (next < o_.points && running_.size() < o_.jobs) {
                start(dmasim::soak::generate_point(o_.seed + next++));
                continue;
            }
            finish_one();
        }
        return failed_;
    }
    uint64_t past_budget() const { return past_budget_; }
    uint64_t refused() const { return refused_; }

private:
    void start(Point p) {
        const fs::path base = fs::path(o_.work) / std::to_string(p.seed);
        Running r{std::move(p), base.string() + ".json", base.string() + ".err",
                  base.string() + ".trace"};
        fs::remove(r.report);
        if (!r.point.trace.empty()) std::ofstream(r.trace) << r.point.trace;
        std::vector<std::string> argv = {o_.dmasim, "run", "--quiet", "--report", r.report};
        argv.insert(argv.end(), {"--max-sim-cycles", std::to_string(o_.max_sim_cycles)});
        for (auto& a : dmasim::soak::set_args(r.point, r.trace.string()))
            argv.push_back(std::move(a));
        running_.emplace(dmasim::sim::spawn(argv, "", r.err, o_.max_cpu_seconds), std::move(r));
    }

    void finish_one() {
        auto [pid, status] = dmasim::sim::wait_any();
        auto it = running_.find(pid);
        if (it == running_.end()) return;
        const Running& r = it->second;
        if (const char* budget = budget_passed(r, status)) {
            ++past_budget_;
            fmt::print(stderr, "soak: seed {} ran past {} = {}: not checked\n", r.point.seed,
                       budget,
                       budget == std::string("--max-cpu-seconds") ? o_.max_cpu_seconds
                                                                  : o_.max_sim_cycles);
            for (const fs::path& file : {r.report, r.err, r.trace}) fs::remove(file);
            running_.erase(it);
            return;
        }
        if (const std::string why = refusal(r, status); !why.empty()) {
            ++refused_;
            fmt::print(stderr, "soak: seed {} refused by the run: not checked: {}\n", r.point.seed,
                       why);
            for (const fs::path& file : {r.report, r.err, r.trace}) fs::remove(file);
            running_.erase(it);
            return;
        }
        auto why = judge(r, status);
        if (why.empty()) {
            for (const fs::path& file : {r.report, r.err, r.trace}) fs::remove(file);
        } else {
            ++failed_;
            print_failure(o_, r, why);
        }
        running_.erase(it);
    }

    const Options& o_;
    std::map<pid_t, Running> running_;
    uint64_t failed_ = 0;
    uint64_t past_budget_ = 0;
    uint64_t refused_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Randomized soak: seeded random configurations through dmasim run"};
    app.add_option("--dmasim", o.dmasim, "The dmasim binary")->required()->check(CLI::ExistingFile);
    app.add_option("--seed", o.seed, "Seed of the first point (point i has seed + i)")
        ->capture_default_str();
    app.add_option("--points", o.points, "Points to run")->capture_default_str();
    app.add_option("-j,--jobs", o.jobs, "Points run at a time")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--work", o.work, "Directory for reports (a failed point's report stays)");
    app.add_option("--max-sim-cycles", o.max_sim_cycles,
                   "Each point's cycle budget; a point past it is counted, not checked")
        ->capture_default_str();
    app.add_option("--max-cpu-seconds", o.max_cpu_seconds,
                   "Each point's CPU budget (0: none); a point past it is counted, not checked")
        ->capture_default_str();
    app.add_flag("--list", o.list,
                 "Print each point's `dmasim run` (its trace written to --work) and run none");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    if (o.work.empty())
        o.work = (fs::temp_directory_path() / fmt::format("dmasim-soak-{}", getpid())).string();
    fs::create_directories(o.work);
    if (o.list) {
        for (uint64_t i = 0; i < o.points; ++i) {
            const Point p = dmasim::soak::generate_point(o.seed + i);
            const fs::path trace = fs::path(o.work) / fmt::format("{}.trace", p.seed);
            if (!p.trace.empty()) std::ofstream(trace) << p.trace;
            fmt::print("seed {}: {}\n", p.seed, dmasim::soak::reproducer(p, trace.string()));
        }
        return 0;
    }

    const auto t0 = std::chrono::steady_clock::now();
    Soak soak(o);
    const uint64_t failed = soak.run();
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - t0;
    fmt::print(
        "soak: {} points (seeds {}..{}), {} failed, {} past a budget, {} refused by the "
        "run, {:.1f} s, {:.1f} s of CPU in the runs\n",
        o.points, o.seed, o.seed + o.points - 1, failed, soak.past_budget(), soak.refused(),
        wall.count(), children_cpu_seconds());
    const bool too_many_unchecked =
        (soak.past_budget() + soak.refused()) * kUncheckedShare > o.points;
    if (too_many_unchecked)
        fmt::print(stderr, "soak: more than one point in {} ran past a budget or was refused\n",
                   kUncheckedShare);
    const bool passed = failed == 0 && !too_many_unchecked;
    if (passed) fs::remove_all(o.work);
    return passed ? 0 : 1;
}
