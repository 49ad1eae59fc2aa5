// fit.h - `dmasim fit`: the values of a profile's whole-number keys that
// make dmasim's figures best match measured points.
//
// Each row of POINTS.csv is a configuration (its columns override config
// keys of the profile) with its measurements: `cycles`, `throughput_gbps`
// or any statistic of docs/statistics.md (a datasheet window such as
// `dma.ch0.fetch_to_read_cycles`). Candidate values are scored by the mean
// absolute relative error over the training rows' measured values (every
// fifth row, from the fifth, is held out when there are five or more) and
// searched one key at a time
// on shrinking grids. Every evaluation is a `dmasim sweep` child run with
// --resume in one work folder, so a configuration is simulated only once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dmasim::sim {

struct FitRequest {
    std::string profile;            ///< YAML config the fit starts from
    std::string points;             ///< POINTS.csv
    std::vector<std::string> keys;  ///< "KEY=LO..HI", one per fitted key
    std::string output;             ///< FITTED.yaml
    std::string work_dir;           ///< sweep folder (default: OUTPUT.d)
    std::string dmasim_exe;         ///< the binary the sweeps run
    unsigned jobs = 1;
    uint64_t max_sim_cycles = 0;
};

/// Runs the fit, prints per-point residuals and writes the fitted profile.
/// Returns 0; throws ConfigError for bad input (exit 2) and
/// std::runtime_error when a point cannot be simulated (exit 1).
int run_fit(const FitRequest& request);

}  // namespace dmasim::sim
