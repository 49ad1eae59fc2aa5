// sweep_dir.cpp - paths inside a sweep directory and reading its files.
#include "sweep_dir.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "config_error.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

std::string numbered(const std::string& root, const char* sub, size_t index, const char* ext) {
    return (fs::path(root) / sub / fmt::format("{:05d}.{}", index, ext)).string();
}

}  // namespace

std::string SweepDir::report(size_t index) const { return numbered(root, "points", index, "json"); }
std::string SweepDir::config(size_t index) const {
    return numbered(root, "configs", index, "yaml");
}
std::string SweepDir::log(size_t index) const { return numbered(root, "logs", index, "log"); }
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
    for (const char* sub : {"points", "configs", "logs"})
        fs::create_directories(fs::path(root) / sub);
}

std::optional<Json> read_complete_report(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    Json report = Json::parse(in, nullptr, false);
    if (report.is_discarded() || !report.contains("config") || !report.contains("result"))
        return std::nullopt;
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
