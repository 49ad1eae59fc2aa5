// sweep_runner.cc - prepares the points, runs them as child processes and
// reports what ran, what failed and what was skipped.
#include "sweep_runner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "config_docs.h"
#include "process.h"
#include "progress.h"
#include "signals.h"
#include "sweep_dir.h"
#include "sweep_identity.h"
#include "sweep_manifest.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

struct Job {
    size_t index;
    std::vector<std::string> argv;
    std::string log;
};

struct Failure {
    size_t index;
    int status;
};

std::string describe(const SweepPoint& point) {
    std::string out;
    for (const auto& a : point.values) out += fmt::format(" {}={}", a.key, a.text);
    return out;
}

/// A point is done when its report is complete, passed, and was made from
/// the same resolved config (so editing the sweep file reruns what changed,
/// and a failed point is retried and still counts as failed).
bool already_done(const SweepDir& dir, const SweepPoint& point) {
    auto report = read_complete_report(dir.report(point.id));
    if (!report || (*report)["config"] != config_to_json(point.config)) return false;
    const std::string integrity = (*report)["result"].value("integrity", "");
    return integrity == "pass" || integrity == "not_checked";
}

std::vector<Job> prepare_jobs(const SweepOptions& o, const SweepDir& dir,
                              const std::vector<SweepPoint>& points, size_t& resumed) {
    std::vector<Job> jobs;
    std::set<std::string> ids;  // points with one resolved config share one run and report
    for (const auto& p : points) {
        if (!o.shard.contains(p.index) || !p.skipped.empty() || !ids.insert(p.id).second) continue;
        if (o.resume && already_done(dir, p)) {
            ++resumed;
            continue;
        }
        std::remove(dir.report(p.id).c_str());  // a stale report must not outlive a failure
        write_file_atomically(dir.config(p.id), resolved_yaml(p.config));
        jobs.push_back({p.index,
                        {o.dmasim_exe, "run", dir.config(p.id), "--report", dir.report(p.id),
                         "--max-sim-cycles", std::to_string(o.max_sim_cycles), "--quiet"},
                        dir.log(p.id)});
    }
    return jobs;
}

std::vector<Failure> run_jobs(const std::vector<Job>& jobs, unsigned parallel, Progress& progress) {
    std::vector<Failure> failures;
    std::map<pid_t, const Job*> running;
    size_t next = 0;
    // After SIGINT/SIGTERM (forwarded to the running points) no point
    // starts; the loop only waits for the running ones to clean up.
    while ((next < jobs.size() && !received_signal()) || !running.empty()) {
        while (running.size() < parallel && next < jobs.size() && !received_signal()) {
            const Job& job = jobs[next++];
            SignalsBlocked blocked;
            const pid_t pid = spawn(job.argv, "/dev/null", job.log);
            track_child(pid);
            running[pid] = &job;
        }
        auto [pid, status] = wait_any();
        untrack_child(pid);
        auto it = running.find(pid);
        if (it == running.end()) continue;
        if (status != 0) failures.push_back({it->second->index, status});
        progress.point_done(it->second->index, status);
        running.erase(it);
    }
    std::sort(failures.begin(), failures.end(),
              [](const Failure& a, const Failure& b) { return a.index < b.index; });
    return failures;
}

/// The gist of a point's stderr: dmasim's own messages if it printed any,
/// else the first lines (e.g. a crash report's headline).
std::string log_gist(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> all, ours;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        all.push_back(line);
        if (line.rfind("dmasim", 0) == 0) ours.push_back(line);
    }
    const auto& lines = ours.empty() ? all : ours;
    const size_t keep = std::min<size_t>(lines.size(), 3);
    return fmt::format("{}", fmt::join(lines.begin(), lines.begin() + keep, "\n      "));
}

void print_skipped(const std::vector<SweepPoint>& points, const Shard& shard) {
    bool header = false;
    for (const auto& p : points) {
        if (p.skipped.empty() || !shard.contains(p.index)) continue;
        if (!header) fmt::print("skipped points (invalid combinations):\n");
        header = true;
        fmt::print("  {:05d}{}\n      {}\n", p.index, describe(p), p.skipped);
    }
}

/// Prints the failed points and records them in DIR/failures.txt (removed
/// when a rerun has none, so the file always describes the last run).
void report_failures(const std::vector<Failure>& failures, const SweepDir& dir,
                     const std::vector<SweepPoint>& points) {
    std::string text;
    for (const auto& f : failures)
        text += fmt::format("  {:05d}{} (exit status {}, log {})\n      {}\n", f.index,
                            describe(points[f.index]), f.status, dir.log(points[f.index].id),
                            log_gist(dir.log(points[f.index].id)));
    if (text.empty()) {
        std::remove(dir.failures().c_str());
        return;
    }
    write_file_atomically(dir.failures(), text);
    fmt::print("failed points (also in {}):\n{}", dir.failures(), text);
}

/// The files a point's id names in `dir` that are regular files (what
/// dmasim wrote; a link or folder a user put at that name is left alone).
std::vector<std::string> own_files(const SweepDir& dir, const std::string& id) {
    std::vector<std::string> files;
    for (const std::string& file : {dir.report(id), dir.config(id), dir.log(id)}) {
        std::error_code ec;
        if (fs::symlink_status(file, ec).type() == fs::file_type::regular) files.push_back(file);
    }
    return files;
}

/// Points an earlier sweep in `dir` wrote files for (its manifest says
/// which) that are no longer in the sweep (values removed or changed):
/// their files are removed with --prune; else left alone, counted, and
/// kept in the new manifest's `stale_ids` so a later --prune finds them.
/// Nothing the manifest does not name is ever touched.
void handle_stale(const SweepOptions& o, const SweepDir& dir,
                  const std::vector<SweepPoint>& points, const std::optional<Json>& previous,
                  Json& manifest) {
    if (!previous) return;
    std::set<std::string> current;
    for (const auto& p : points) current.insert(p.id);
    Json kept = Json::array();
    size_t files = 0, reports = 0;
    for (const std::string& id : recorded_ids(*previous)) {
        if (current.count(id)) continue;
        const auto stale = own_files(dir, id);
        if (stale.empty()) continue;
        files += stale.size();
        reports += stale.front() == dir.report(id);
        if (o.prune)
            for (const auto& file : stale) std::remove(file.c_str());
        else
            kept.push_back(id);
    }
    if (!kept.empty()) manifest["stale_ids"] = kept;
    if (o.prune)
        fmt::print("pruned {} file(s) of points no longer in the sweep\n", files);
    else if (reports)
        fmt::print(
            "ignoring {} point report(s) in {} that are no longer in the sweep "
            "(--prune removes them)\n",
            reports, dir.root);
}

}  // namespace

int run_sweep(const SweepOptions& o) {
    SweepSpec spec = load_sweep(o.sweep_file, o.default_config, o.max_points);
    spec.cli_sets = o.sets;
    const std::vector<SweepPoint> points = expand_sweep(spec, o.check);
    std::vector<const tb::SimConfig*> to_run;
    for (const auto& p : points)
        if (o.shard.contains(p.index) && p.skipped.empty()) to_run.push_back(&p.config);
    if (std::string why = host_memory_at_once_error(o.host, to_run, o.jobs); !why.empty())
        throw ConfigError({fmt::format("-j {}", o.jobs)}, why);
    const SweepDir dir{o.out_dir};
    dir.create();
    const SweepLock lock(dir);
    forward_signals_to_children();
    if (const size_t removed = dir.remove_stale_temporaries())
        fmt::print("removed {} temporary file(s) left by a killed dmasim\n", removed);
    if (o.resume) note_other_build(dir);
    Json manifest = make_manifest(spec, points, o.shard);
    handle_stale(o, dir, points, find_manifest(dir.manifest()), manifest);
    write_file_atomically(dir.manifest(), manifest.dump(2) + "\n");
    size_t resumed = 0;
    const std::vector<Job> jobs = prepare_jobs(o, dir, points, resumed);
    const size_t skipped = std::count_if(points.begin(), points.end(),
                                         [](const SweepPoint& p) { return !p.skipped.empty(); });
    fmt::print(
        "sweep {}: {} points, {} skipped; shard {}/{}: {} to run, {} already complete; "
        "{} at a time\n",
        o.sweep_file, points.size(), skipped, o.shard.k, o.shard.n, jobs.size(), resumed, o.jobs);
    std::fflush(stdout);

    Progress progress(jobs.size(), isatty(STDOUT_FILENO));
    const auto failures = run_jobs(jobs, std::max(1u, o.jobs), progress);
    progress.finish();
    if (received_signal()) {
        fmt::print(stderr,
                   "dmasim: sweep interrupted by signal {}: the running points were stopped; "
                   "rerun with --resume to finish\n",
                   received_signal());
        return interrupt_status();
    }

    const Collected collected = write_results(dir, manifest, o.plot);
    print_skipped(points, o.shard);
    report_failures(failures, dir, points);
    fmt::print("{} rows in {}{}\n", collected.rows, dir.csv(),
               o.plot && collected.rows ? fmt::format("; plots {} and .svg", dir.plot("png")) : "");
    return failures.empty() && collected.missing.empty() ? 0 : 1;
}

}  // namespace dmasim::sim
