// diff.h - `dmasim diff A B`: what a knob did, or whether a change
// regressed. Two reports: the config keys that differ, then every result
// and statistic side by side with B/A, flagging changes beyond a threshold.
// Two sweep folders: the same per point, points matched by their swept
// values, listing only flagged statistics per point.
#pragma once

#include <string>

namespace dmasim::sim {

struct DiffRequest {
    std::string a, b;         ///< report JSON files or sweep output folders
    double threshold = 0.05;  ///< flag |B/A - 1| above this
    bool fail_on_change = false;
};

/// Prints the comparison; returns 1 if `fail_on_change` and something was
/// flagged, else 0. Throws ConfigError for unreadable inputs.
int run_diff(const DiffRequest& request);

}  // namespace dmasim::sim
