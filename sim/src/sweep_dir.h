// sweep_dir.h - the layout of a sweep's output directory:
//   sweep.json      manifest: swept keys, every point and why any was skipped
//   results.csv     one row per point that produced a report
//   points/ID.json  per-point reports;  configs/ID.yaml  resolved configs
//   logs/ID.log     each point's stderr;  failures.txt  failed points, if any
//   throughput.png/.svg  plots; heatmap.png/.svg for a 2-D grid
// where ID is the point's content hash (sweep_identity.h).
#pragma once

#include <optional>
#include <string>

#include "report.h"

namespace dmasim::sim {

struct SweepDir {
    std::string root;

    std::string report(const std::string& id) const;
    std::string config(const std::string& id) const;
    std::string log(const std::string& id) const;
    std::string manifest() const;
    std::string csv() const;
    std::string failures() const;
    std::string plot(const char* extension) const;
    std::string heatmap(const char* extension) const;
    /// Creates root and its subdirectories and checks files can be written
    /// there, before any point runs; throws ConfigError naming the folder.
    /// A folder that holds anything but dmasim's own files and no sweep
    /// manifest (a project folder) is refused: a sweep there could
    /// overwrite or prune files it did not write.
    void create() const;
    /// Removes the temporary files (NAME.tmp.PID[.N]) that a killed dmasim
    /// left beside the files it writes here, when that PID no longer runs;
    /// returns how many. Call with the SweepLock held.
    size_t remove_stale_temporaries() const;
};

/// True if `id` can name a point's files: 16 lower-case hex digits.
bool is_point_id(const std::string& id);

/// The manifest at `path` if it is one dmasim wrote (an object with
/// `points` and `swept_keys`), else nothing.
std::optional<Json> find_manifest(const std::string& path);

/// Exclusive use of a sweep directory while a sweep or merge writes it: a
/// second one is refused (ConfigError naming the holder's PID) instead of
/// mixing rows of two sweeps. An flock() on ROOT/.lock, so a killed holder
/// releases it with its last file descriptor.
class SweepLock {
public:
    explicit SweepLock(const SweepDir& dir);
    ~SweepLock();
    SweepLock(const SweepLock&) = delete;
    SweepLock& operator=(const SweepLock&) = delete;

private:
    int fd_;
};

/// The report at `path` if it is complete (parses, has config and result);
/// ConfigError if it is complete but malformed (report_read.h).
std::optional<Json> read_complete_report(const std::string& path);

/// Reads a JSON file; throws ConfigError naming it if absent or malformed.
Json read_json_file(const std::string& path);

}  // namespace dmasim::sim
