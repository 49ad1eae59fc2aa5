// soak_main.cc - dmasim_soak: runs seeded random points, each as a child
// `dmasim run --report`, N at a time, and checks every report's invariants
// (docs/testing.md, "Randomized soak"). Exit 0 if every point passed,
// 1 if any failed, 2 on bad usage.
#include <fmt/format.h>
#include <process.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
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
};

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

/// Why point `r` failed, given its child's exit status; empty if it passed.
std::vector<std::string> judge(const Running& r, int status) {
    if (status != 0 && status != 1)
        return {fmt::format("dmasim exited with status {}: {}", status, slurp(r.err))};
    if (!fs::exists(r.report))
        return {fmt::format("exit status {} and no report: {}", status, slurp(r.err))};
    return dmasim::soak::check_report(nlohmann::json::parse(slurp(r.report)));
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

    /// Runs every point; returns how many failed.
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

private:
    void start(Point p) {
        const fs::path base = fs::path(o_.work) / std::to_string(p.seed);
        Running r{std::move(p), base.string() + ".json", base.string() + ".err",
                  base.string() + ".trace"};
        fs::remove(r.report);
        if (!r.point.trace.empty()) std::ofstream(r.trace) << r.point.trace;
        std::vector<std::string> argv = {o_.dmasim, "run", "--quiet", "--report", r.report};
        for (auto& a : dmasim::soak::set_args(r.point, r.trace.string()))
            argv.push_back(std::move(a));
        running_.emplace(dmasim::sim::spawn(argv, "", r.err), std::move(r));
    }

    void finish_one() {
        auto [pid, status] = dmasim::sim::wait_any();
        auto it = running_.find(pid);
        if (it == running_.end()) return;
        const Running& r = it->second;
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
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    if (o.work.empty())
        o.work = (fs::temp_directory_path() / fmt::format("dmasim-soak-{}", getpid())).string();
    fs::create_directories(o.work);

    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t failed = Soak(o).run();
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - t0;
    fmt::print("soak: {} points (seeds {}..{}), {} failed, {:.1f} s\n", o.points, o.seed,
               o.seed + o.points - 1, failed, wall.count());
    if (failed == 0) fs::remove_all(o.work);
    return failed == 0 ? 0 : 1;
}
