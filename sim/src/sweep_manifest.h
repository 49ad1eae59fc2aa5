// sweep_manifest.h - sweep.json: what a sweep directory holds, enough for
// `dmasim merge` to check shards belong together and to redo the CSV and
// plots without the sweep file.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "report.h"
#include "sweep_dir.h"
#include "sweep_spec.h"

namespace dmasim::sim {

/// Builds the manifest of `points` run as `shard`.
Json make_manifest(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                   const Shard& shard);

/// Reads a sweep.json (of this or another host's sweep, or a shard) and
/// checks every field the CLI reads and every point id, so what follows may
/// index it freely; ConfigError naming the file and field otherwise.
Json read_manifest(const std::string& path);

/// The shard a manifest was written for.
Shard manifest_shard(const Json& manifest);

/// The ids of the points whose files dmasim wrote into the manifest's
/// folder: its points and the `stale_ids` of earlier points it kept; ids
/// that are not 16 hex digits are left out (they name no file of ours).
std::set<std::string> recorded_ids(const Json& manifest);

/// Outcome of collecting a directory's point reports.
struct Collected {
    size_t rows = 0;
    std::vector<size_t> missing;  ///< runnable points of the shard without a report
};

/// Writes results.csv (point order) from the reports in `dir` for the
/// manifest's runnable points, and the plots unless `plot` is false.
Collected write_results(const SweepDir& dir, const Json& manifest, bool plot);

}  // namespace dmasim::sim
