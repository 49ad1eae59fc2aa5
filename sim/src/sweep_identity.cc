// sweep_identity.cc - content-keyed point ids and the files of points that
// no longer belong to a sweep.
#include "sweep_identity.h"

#include <dmasim/tb/request_trace.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string_view>

#include "config_error.h"
#include "config_keys.h"
#include "report.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

uint64_t fnv1a(const std::string& text) {
    uint64_t hash = 14695981039346656037ull;
    for (unsigned char ch : text) {
        hash ^= ch;
        hash *= 1099511628211ull;
    }
    return hash;
}

/// The executable's bytes, hashed a block at a time (std::hash is the
/// fast part; blocks are chained with FNV-1a so their order counts).
uint64_t executable_hash() {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    std::string block(1 << 20, '\0');
    uint64_t hash = fnv1a("");
    while (in.read(block.data(), block.size()) || in.gcount() > 0) {
        const size_t part = std::hash<std::string_view>{}(
            std::string_view(block.data(), static_cast<size_t>(in.gcount())));
        hash = (hash ^ part) * 1099511628211ull;
    }
    return hash;
}

/// The files `config` names (its path keys, such as workload.trace) that
/// are set, each with its key.
std::vector<std::pair<const KeyDef*, std::string>> input_files(const tb::SimConfig& config) {
    std::vector<std::pair<const KeyDef*, std::string>> files;
    for (const KeyDef& key : config_keys())
        if (key.path)
            if (std::string path = format_value(key.get(config)); !path.empty())
                files.emplace_back(&key, std::move(path));
    return files;
}

/// Each input file's key and content hash, one line each: a point is its
/// config *and* what the files it names hold, so editing a trace reruns
/// the points that replay it. A file that cannot be read hashes as such
/// (its point fails or is skipped, and is retried once it can be read).
std::string input_contents(const tb::SimConfig& config) {
    std::string out;
    for (const auto& [key, path] : input_files(config)) {
        std::error_code ec;
        std::string hash = "unreadable";
        if (fs::is_regular_file(path, ec)) try {
                hash = fmt::format("{:016x}", fnv1a(tb::request_trace_bytes(path)));
            } catch (const tb::ConfigError&) {
            }
        out += fmt::format("{} {}\n", key->name, hash);
    }
    return out;
}

}  // namespace

std::string point_id(const tb::SimConfig& config) {
    return fmt::format("{:016x}", fnv1a(config_to_json(config).dump() + "\n" +
                                        input_contents(config) + DMASIM_VERSION "\n" + build_id()));
}

void check_rereadable_inputs(const tb::SimConfig& config) {
    for (const auto& [key, path] : input_files(config)) {
        std::error_code ec;
        const fs::file_status status = fs::status(path, ec);
        if (!fs::exists(status) || fs::is_regular_file(status)) continue;
        throw ConfigError(
            {fmt::format("{} = {}", key->name, excerpt(path)), 0},
            fmt::format("not a regular file ({}): every point of a sweep is run by a dmasim "
                        "process of its own that reads the file again, and a pipe, FIFO or "
                        "device cannot be read twice alike; save it to a file first",
                        fs::is_fifo(status) ? "a pipe or FIFO" : "a device or other special file"),
            {key->name});
    }
}

const std::string& build_id() {
    static const std::string id = fmt::format("{:016x}", executable_hash());
    return id;
}

void note_other_build(const SweepDir& dir) {
    std::ifstream in(dir.manifest());
    const Json old = Json::parse(in, nullptr, false);
    const auto build = old.is_object() ? old.find("build") : old.end();
    if (build == old.end() || *build == build_id()) return;
    fmt::print("{} was made by another dmasim build ({}, this is {}): its points are run again\n",
               dir.root, build->dump(), build_id());
}

std::string checked_point_id(const JsonAt& at) {
    const std::string id = at.string();
    if (!is_point_id(id))
        at.fail(fmt::format("\"{}\" is not a point id (16 hex digits)", id.substr(0, 40)));
    return id;
}

std::vector<std::string> stale_point_files(const SweepDir& dir, const std::set<std::string>& ids) {
    std::vector<std::string> stale;
    for (const char* sub : {"points", "configs", "logs"}) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(fs::path(dir.root) / sub, ec))
            if (entry.is_regular_file() && !ids.count(entry.path().stem().string()))
                stale.push_back(entry.path().string());
    }
    std::sort(stale.begin(), stale.end());
    return stale;
}

size_t count_reports(const std::vector<std::string>& files) {
    return std::count_if(files.begin(), files.end(), [](const std::string& f) {
        const fs::path p(f);
        return p.extension() == ".json" && p.parent_path().filename() == "points";
    });
}

}  // namespace dmasim::sim
