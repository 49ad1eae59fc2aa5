// sweep_dir.cc - paths inside a sweep directory and reading its files.
#include "sweep_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
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

namespace {

/// The name in `root` of something a sweep would write over or prune
/// there (a file at one of its names, or a non-empty points/, configs/ or
/// logs/), or "" if none is taken.
std::string taken_name(const SweepDir& dir) {
    std::error_code ec;
    for (const char* sub : {"points", "configs", "logs"}) {
        const fs::path folder = fs::path(dir.root) / sub;
        if (fs::exists(fs::symlink_status(folder, ec)) &&
            (!fs::is_directory(folder, ec) || !fs::is_empty(folder, ec)))
            return folder.string();
    }
    for (const std::string& file :
         {dir.manifest(), dir.csv(), dir.failures(), dir.plot("png"), dir.plot("svg"),
          dir.heatmap("png"), dir.heatmap("svg")})
        if (fs::exists(fs::symlink_status(file, ec))) return file;
    return "";
}

/// Names dmasim writes in `sub` ("" for the root) under a temporary name.
bool own_name(const std::string& sub, const std::string& name) {
    const auto dot = name.find('.');
    if (sub.empty()) return name == "sweep.json" || name == "results.csv" || name == "failures.txt";
    const std::string ext = sub == "points" ? ".json" : ".yaml";
    return dot != std::string::npos && is_point_id(name.substr(0, dot)) && name.substr(dot) == ext;
}

/// The PID in NAME.tmp.PID or NAME.tmp.PID.N, and NAME; 0 if not such.
pid_t temporary_of(const std::string& file, std::string& name) {
    const auto mark = file.rfind(".tmp.");
    if (mark == std::string::npos) return 0;
    std::string rest = file.substr(mark + 5);
    if (const auto dot = rest.find('.'); dot != std::string::npos) {
        if (rest.find_first_not_of("0123456789", dot + 1) != std::string::npos) return 0;
        rest.resize(dot);
    }
    if (rest.empty() || rest.size() > 9 || rest.find_first_not_of("0123456789") != std::string::npos)
        return 0;
    name = file.substr(0, mark);
    return static_cast<pid_t>(std::stol(rest));
}

}  // namespace

bool is_point_id(const std::string& id) {
    return id.size() == 16 && id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::optional<Json> find_manifest(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    Json manifest = Json::parse(in, nullptr, false);
    if (!manifest.is_object() || !manifest.contains("points") || !manifest["points"].is_array() ||
        !manifest.contains("swept_keys"))
        return std::nullopt;
    return manifest;
}

size_t SweepDir::remove_stale_temporaries() const {
    size_t removed = 0;
    for (const char* sub : {"", "points", "configs"}) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(fs::path(root) / sub, ec)) {
            std::string name;
            const pid_t pid = temporary_of(entry.path().filename().string(), name);
            if (pid <= 0 || !own_name(sub, name) || !entry.is_regular_file() || pid == getpid())
                continue;
            if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // still running (or not ours to ask)
            removed += fs::remove(entry.path(), ec) ? 1 : 0;
        }
    }
    return removed;
}

void SweepDir::create() const {
    if (!find_manifest(manifest()))
        if (const std::string taken = taken_name(*this); !taken.empty())
            throw ConfigError(
                {root, 0},
                fmt::format("not a sweep output folder (no sweep.json written by dmasim), but {} "
                            "is already there: a sweep could overwrite or prune files it did not "
                            "write; choose a new or empty folder for --out",
                            taken));
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
