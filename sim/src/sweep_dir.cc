// sweep_dir.cc - paths inside a sweep directory and reading its files.
#include "sweep_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "config_error.h"
#include "report_read.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

std::string named(const std::string& root, const char* sub, const std::string& id,
                  const char* ext) {
    return (fs::path(root) / sub / fmt::format("{}.{}", id, ext)).string();
}

}  // namespace

std::string SweepDir::report(const std::string& id) const {
    return named(root, "points", id, "json");
}
std::string SweepDir::config(const std::string& id) const {
    return named(root, "configs", id, "yaml");
}
std::string SweepDir::log(const std::string& id) const { return named(root, "logs", id, "log"); }
std::string SweepDir::manifest() const { return (fs::path(root) / "sweep.json").string(); }
std::string SweepDir::csv() const { return (fs::path(root) / "results.csv").string(); }
std::string SweepDir::failures() const { return (fs::path(root) / "failures.txt").string(); }
std::string SweepDir::plot(const char* extension) const {
    return (fs::path(root) / fmt::format("throughput.{}", extension)).string();
}

std::string SweepDir::heatmap(const char* extension) const {
    return (fs::path(root) / fmt::format("heatmap.{}", extension)).string();
}

void SweepDir::create() const {
    for (const char* sub : {"points", "configs", "logs"}) {
        std::error_code error;
        fs::create_directories(fs::path(root) / sub, error);
        if (error)
            throw ConfigError({root, 0},
                              fmt::format("cannot create the output folder {}: {}",
                                          (fs::path(root) / sub).string(), error.message()));
    }
    for (const std::string& file : {csv(), report("probe")})
        if (std::string why = tb::unwritable(file); !why.empty())
            throw ConfigError({root, 0}, fmt::format("cannot write in the output folder: {}", why));
}

SweepLock::SweepLock(const SweepDir& dir) {
    const std::string path = (fs::path(dir.root) / ".lock").string();
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0)
        throw ConfigError({dir.root, 0},
                          fmt::format("cannot create the lock {}: {}", path, std::strerror(errno)));
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        char holder[32] = {};
        const bool known = ::pread(fd_, holder, sizeof holder - 1, 0) > 0;
        ::close(fd_);
        throw ConfigError(
            {dir.root, 0},
            fmt::format("another dmasim (PID {}) is writing this folder; wait for it to finish "
                        "or choose another --out",
                        known ? holder : "unknown"));
    }
    const std::string pid = std::to_string(getpid());
    // The lock holds regardless; only the PID a second sweep names is lost.
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0)
        fmt::print(stderr, "dmasim: warning: cannot record this PID in {}\n", path);
}

SweepLock::~SweepLock() { ::close(fd_); }

std::optional<Json> read_complete_report(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    Json report = Json::parse(in, nullptr, false);
    if (report.is_discarded() || !report.contains("config") || !report.contains("result"))
        return std::nullopt;
    check_report(json_at(report, path));
    return report;
}

Json read_json_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ConfigError({path, 0}, "cannot read this file");
    Json json = Json::parse(in, nullptr, false);
    if (json.is_discarded()) throw ConfigError({path, 0}, "not valid JSON");
    return json;
}

}  // namespace dmasim::sim
