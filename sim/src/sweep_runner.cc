// sweep_runner.cc - prepares the points, runs them as child processes and
// reports what ran, what failed and what was skipped.
#include "sweep_runner.h"

#include <dmasim/tb/figure_format.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "child_jobs.h"
#include "config_docs.h"
#include "progress.h"
#include "signals.h"
#include "sweep_dir.h"
#include "sweep_identity.h"
#include "sweep_manifest.h"

namespace dmasim::sim {

namespace figures = tb::figures;
namespace {

namespace fs = std::filesystem;

/// The children to run and the point each one runs.
struct Jobs {
    std::vector<ChildJob> children;
    std::vector<size_t> points;
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

Jobs prepare_jobs(const SweepOptions& o, const SweepDir& dir, const std::vector<SweepPoint>& points,
                  size_t& resumed) {
    Jobs jobs;
    std::set<std::string> ids;  // points with one resolved config share one run and report
    for (const auto& p : points) {
        if (!o.shard.contains(p.index) || !p.skipped.empty() || !ids.insert(p.id).second) continue;
        if (o.resume && already_done(dir, p)) {
            ++resumed;
            continue;
        }
        std::remove(dir.report(p.id).c_str());  // a stale report must not outlive a failure
        write_file_atomically(dir.config(p.id), resolved_yaml(p.config));
        jobs.children.push_back(
            {{o.dmasim_exe, "run", dir.config(p.id), "--report", dir.report(p.id),
              "--max-sim-cycles", std::to_string(o.max_sim_cycles), "--quiet"},
             dir.log(p.id)});
        jobs.points.push_back(p.index);
    }
    return jobs;
}

/// Runs the jobs; returns the failed ones, in point order.
std::vector<Failure> run_jobs(const Jobs& jobs, unsigned parallel, Progress& progress) {
    const std::vector<int> statuses = run_children(
        jobs.children, parallel,
        [&](size_t job, int status) { progress.point_done(jobs.points[job], status); });
    std::vector<Failure> failures;
    for (size_t job = 0; job < statuses.size(); ++job)
        if (statuses[job] > 0) failures.push_back({jobs.points[job], statuses[job]});
    return failures;
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
        fmt::print("pruned {} of points no longer in the sweep\n",
                   figures::count(files, "file", "files"));
    else if (reports)
        fmt::print("ignoring {} in {} that are no longer in the sweep (--prune removes them)\n",
                   figures::count(reports, "point report", "point reports"), dir.root);
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
        fmt::print("removed {} left by a killed dmasim\n",
                   figures::count(removed, "temporary file", "temporary files"));
    if (o.resume) note_other_build(dir);
    Json manifest = make_manifest(spec, points, o.shard);
    handle_stale(o, dir, points, find_manifest(dir.manifest()), manifest);
    write_file_atomically(dir.manifest(), manifest.dump(2) + "\n");
    size_t resumed = 0;
    const Jobs jobs = prepare_jobs(o, dir, points, resumed);
    const size_t skipped = std::count_if(points.begin(), points.end(),
                                         [](const SweepPoint& p) { return !p.skipped.empty(); });
    fmt::print(
        "sweep {}: {}, {} skipped; shard {}/{}: {} to run, {} already complete; "
        "{} at a time\n",
        o.sweep_file, figures::count(points.size(), "point", "points"), skipped, o.shard.k,
        o.shard.n, jobs.children.size(), resumed, o.jobs);
    std::fflush(stdout);

    Progress progress(jobs.children.size(), isatty(STDOUT_FILENO));
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
    fmt::print("{} in {}{}\n", figures::count(collected.rows, "row", "rows"), dir.csv(),
               o.plot && collected.rows ? fmt::format("; plots {} and .svg", dir.plot("png")) : "");
    return failures.empty() && collected.missing.empty() ? 0 : 1;
}

}  // namespace dmasim::sim
