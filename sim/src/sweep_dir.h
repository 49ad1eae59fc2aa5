// sweep_dir.h - the layout of a sweep's output directory:
//   sweep.json      manifest: swept keys, every point and why any was skipped
//   results.csv     one row per point that produced a report
//   points/NNNNN.json  per-point reports;  configs/NNNNN.yaml  resolved configs
//   logs/NNNNN.log  each point's stderr;  failures.txt  failed points, if any
//   throughput.png/.svg  plots; heatmap.png/.svg for a 2-D grid
#pragma once

#include <optional>
#include <string>

#include "report.h"

namespace dmasim::sim {

struct SweepDir {
    std::string root;

    std::string report(size_t index) const;
    std::string config(size_t index) const;
    std::string log(size_t index) const;
    std::string manifest() const;
    std::string csv() const;
    std::string failures() const;
    std::string plot(const char* extension) const;
    std::string heatmap(const char* extension) const;
    /// Creates root and its subdirectories; throws std::runtime_error.
    void create() const;
};

/// The report at `path` if it is complete (parses, has config and result).
std::optional<Json> read_complete_report(const std::string& path);

/// Reads a JSON file; throws ConfigError naming it if absent or malformed.
Json read_json_file(const std::string& path);

}  // namespace dmasim::sim
