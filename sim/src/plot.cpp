// plot.cpp - labels from the key table, then hand over to matplotlib.
#include "plot.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "config_keys.h"
#include "paths.h"
#include "process.h"
#include "statistics_catalog.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

/// "Throughput vs. list length - <platform>" from sweep.json beside the CSV.
std::string default_title(const PlotRequest& r) {
    std::string title = fmt::format("{} vs. {}", r.y, r.x);
    std::ifstream manifest(fs::path(r.csv).parent_path() / "sweep.json");
    if (!manifest) return title;
    auto json = nlohmann::json::parse(manifest, nullptr, false);
    if (json.is_discarded() || !json.contains("platform")) return title;
    return title + "\n" + json["platform"].get<std::string>();
}

}  // namespace

int run_plot(const PlotRequest& r) {
    std::vector<std::string> argv = {"/usr/bin/python3",
                                     plot_script_path(),
                                     r.csv,
                                     "-o",
                                     r.output,
                                     "--x",
                                     r.x,
                                     "--y",
                                     r.y,
                                     "--xlabel",
                                     axis_label(r.x),
                                     "--ylabel",
                                     axis_label(r.y),
                                     "--title",
                                     r.title.empty() ? default_title(r) : r.title};
    for (const auto& s : r.series) argv.insert(argv.end(), {"--series", s});
    if (r.logx) argv.push_back("--logx");
    if (r.logy) argv.push_back("--logy");
    return run_and_wait(argv);
}

}  // namespace dmasim::sim
