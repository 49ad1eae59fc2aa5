// sweep_identity.h - what names a sweep point on disk: a hash of its fully
// resolved config and the dmasim version, not its position in the sweep,
// so editing the value lists reruns only points whose config is new.
#pragma once

#include <dmasim/tb/run.h>

#include <set>
#include <string>
#include <vector>

#include "sweep_dir.h"

namespace dmasim::sim {

/// 16 hex digits of FNV-1a over the resolved config (every key, as the
/// report's `config`) and DMASIM_VERSION.
std::string point_id(const tb::SimConfig& config);

/// Files under points/, configs/ and logs/ of `dir` whose point id is not
/// in `ids`: left by values since removed from or changed in the sweep.
std::vector<std::string> stale_point_files(const SweepDir& dir, const std::set<std::string>& ids);

/// How many of `files` are point reports (points/ID.json).
size_t count_reports(const std::vector<std::string>& files);

}  // namespace dmasim::sim
