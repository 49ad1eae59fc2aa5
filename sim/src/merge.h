// merge.h - `dmasim merge DIR... --out DIR`: joins the outputs of sharded
// runs of one sweep into one directory and one results.csv in point order.
#pragma once

#include <string>
#include <vector>

namespace dmasim::sim {

/// Returns 0 if every runnable point has a report, 1 if some are missing.
/// Throws ConfigError (exit 2) if the directories are not shards of one sweep.
int merge_sweeps(const std::vector<std::string>& dirs, const std::string& out, bool plot);

}  // namespace dmasim::sim
