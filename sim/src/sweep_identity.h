// sweep_identity.h - what names a sweep point on disk: a hash of its fully
// resolved config and the dmasim build, not its position in the sweep,
// so editing the value lists reruns only points whose config is new, and a
// different build never reuses another build's reports.
#pragma once

#include <dmasim/tb/sim_config.h>

#include <set>
#include <string>
#include <vector>

#include "json_read.h"
#include "sweep_dir.h"

namespace dmasim::sim {

/// 16 hex digits of FNV-1a over the resolved config (every key, as the
/// report's `config`), the contents of the files it names (workload.trace:
/// the same path with new contents is a new point), DMASIM_VERSION and
/// build_id().
std::string point_id(const tb::SimConfig& config);

/// Throws ConfigError naming the key unless every file `config` names is a
/// regular file (or missing, which the point's own checks report): a
/// sweep's points each read it again in a process of their own, which a
/// pipe, FIFO or device cannot serve.
void check_rereadable_inputs(const tb::SimConfig& config);

/// This build of dmasim: 16 hex digits hashing the running executable's
/// bytes, so two builds differ whatever their version or commit says.
const std::string& build_id();

/// Says so on stdout if `dir` holds a sweep.json made by another build:
/// its points get new ids, so --resume reruns them rather than reuse them.
void note_other_build(const SweepDir& dir);

/// The point id at `at` (a sweep.json or shard read from disk) if it is
/// 16 lowercase hex digits, as point_id() writes; else ConfigError. Ids
/// name files, so this is what keeps "../x" from naming one outside.
std::string checked_point_id(const JsonAt& at);

/// Files under points/, configs/ and logs/ of `dir` whose point id is not
/// in `ids`: left by values since removed from or changed in the sweep.
std::vector<std::string> stale_point_files(const SweepDir& dir, const std::set<std::string>& ids);

/// How many of `files` are point reports (points/ID.json).
size_t count_reports(const std::vector<std::string>& files);

}  // namespace dmasim::sim
