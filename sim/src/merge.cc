// merge.cc - checks that shard directories belong to one sweep, gathers
// their point reports and rewrites the manifest, CSV and plots.
#include "merge.h"

#include <dmasim/tb/figure_format.h>
#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "config_error.h"
#include "json_read.h"
#include "sweep_dir.h"
#include "sweep_identity.h"
#include "sweep_manifest.h"

namespace dmasim::sim {

namespace figures = tb::figures;
namespace {

namespace fs = std::filesystem;

std::set<std::string> point_ids(const Json& manifest) {
    std::set<std::string> ids;
    for (const auto& point : manifest["points"]) ids.insert(point["id"].get<std::string>());
    return ids;
}

/// Copies point reports of `from` into `to` (same names), unless same dir,
/// and says how many of its reports belong to no point of the sweep.
void gather_reports(const SweepDir& from, const SweepDir& to, const Json& manifest) {
    if (size_t stale = count_reports(stale_point_files(from, point_ids(manifest))))
        fmt::print(stderr,
                   "dmasim merge: {}: ignoring {} that are not in this sweep "
                   "(`dmasim sweep --prune` removes them)\n",
                   from.root, figures::count(stale, "point report", "point reports"));
    std::error_code ec;
    if (fs::equivalent(from.root, to.root, ec)) return;
    // Written as every output is (atomically, never replacing a link or a
    // device at the name), not copied onto whatever stands there.
    for (const std::string& id : point_ids(manifest))
        if (const auto report = read_complete_report(from.report(id)))
            write_file_atomically(to.report(id), report->dump(2) + "\n");
}

/// What makes two manifests shards of one sweep: the swept keys and every
/// point's identity, i.e. its resolved config and the dmasim build (not
/// paths or skip messages, which differ between hosts).
Json fingerprint(const Json& manifest) {
    Json points = Json::array();
    for (const auto& point : manifest["points"]) points.push_back(point["id"]);
    return {manifest["swept_keys"], points};
}

}  // namespace

int merge_sweeps(const std::vector<std::string>& dirs, const std::string& out, bool plot) {
    const SweepDir target{out};
    Json merged;
    std::vector<Json> manifests;
    for (const auto& d : dirs) {
        const std::string path = SweepDir{d}.manifest();
        Json manifest = read_manifest(path);
        const std::string build = json_at(manifest, path)["build"].string();
        if (merged.is_null()) merged = manifest;
        if (build != merged["build"])
            throw ConfigError({path, 0},
                              fmt::format("made by another dmasim build ({}) than {} ({}); run "
                                          "every shard with one build",
                                          build, dirs.front(), merged["build"].get<std::string>()));
        if (fingerprint(manifest) != fingerprint(merged))
            throw ConfigError({SweepDir{d}.manifest(), 0},
                              fmt::format("not a shard of the same sweep as {}", dirs.front()));
        manifests.push_back(std::move(manifest));
    }
    target.create();
    const SweepLock lock(target);
    for (size_t i = 0; i < dirs.size(); ++i)
        gather_reports(SweepDir{dirs[i]}, target, manifests[i]);

    merged["shard"] = {{"k", 1}, {"n", 1}};
    write_file_atomically(target.manifest(), merged.dump(2) + "\n");
    const Collected collected = write_results(target, merged, plot);
    for (size_t index : collected.missing)
        fmt::print(stderr, "dmasim merge: point {:05d} has no report in any directory\n", index);
    fmt::print("{} in {}\n", figures::count(collected.rows, "row", "rows"), target.csv());
    return collected.missing.empty() ? 0 : 1;
}

}  // namespace dmasim::sim
