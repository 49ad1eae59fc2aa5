// plot.cc - axes, labels, subtitle and peak line from the definitions
// tables and sweep.json, then hand over to matplotlib.
#include "plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "config_keys.h"
#include "paths.h"
#include "process.h"
#include "statistics_catalog.h"
#include "sweep_dir.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

/// Keys a reader needs to know a plot's setting by; the subtitle shows
/// those the sweep does not vary.
const char* const kHeadlineKeys[] = {"clock_mhz",
                                     "bus.width_bytes",
                                     "memory.read_latency_cycles",
                                     "dma.channels",
                                     "dma.max_burst_beats",
                                     "dma.max_outstanding_reads",
                                     "dma.descriptor_prefetch",
                                     "dma.descriptor_format",
                                     "workload.direction",
                                     "workload.entries",
                                     "workload.segment_bytes",
                                     "workload.chain_depth"};

/// What sweep.json beside the CSV tells: the swept keys, its plot choice and
/// the config of its first point (for values the sweep holds fixed).
struct SweepContext {
    std::vector<std::string> swept;
    Json plot = Json::object();
    Json config = Json::object();
};

SweepContext sweep_context(const std::string& csv) {
    SweepContext out;
    const SweepDir dir{fs::path(csv).parent_path().string()};
    if (!fs::exists(dir.manifest())) return out;
    const Json manifest = read_json_file(dir.manifest());
    out.swept = manifest.value("swept_keys", std::vector<std::string>{});
    out.plot = manifest.value("plot", Json::object());
    for (const auto& point : manifest.value("points", Json::array())) {
        if (point.contains("skipped")) continue;
        if (auto report = read_complete_report(dir.report(point["id"].get<std::string>()))) {
            out.config = (*report)["config"];
            break;
        }
    }
    return out;
}

bool swept(const SweepContext& c, const std::string& key) {
    return std::find(c.swept.begin(), c.swept.end(), key) != c.swept.end();
}

std::string short_label(const std::string& column) {
    const auto info = find_column(column);
    return info ? info->label : column;
}

std::string subtitle(const SweepContext& c) {
    std::vector<std::string> parts;
    for (const char* key : kHeadlineKeys) {
        if (swept(c, key) || !c.config.contains(key)) continue;
        const Json& v = c.config[key];
        parts.push_back(fmt::format("{}={}", key, v.is_string() ? v.get<std::string>() : v.dump()));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
}

/// The bus peak (width x clock) in the y column's unit, if the sweep holds
/// both fixed and y is a throughput.
std::optional<std::pair<double, std::string>> peak(const SweepContext& c, const std::string& y) {
    if (swept(c, "bus.width_bytes") || swept(c, "clock_mhz") ||
        !c.config.contains("bus.width_bytes") || !c.config.contains("clock_mhz"))
        return std::nullopt;
    const double width = c.config["bus.width_bytes"], mhz = c.config["clock_mhz"];
    if (y == "throughput_gbps")
        return std::pair{width * mhz / 1000, fmt::format("peak: {:g} B x {:g} MHz = {:g} GB/s",
                                                         width, mhz, width * mhz / 1000)};
    if (y == "bytes_per_cycle")
        return std::pair{width, fmt::format("peak: {:g} B per cycle", width)};
    return std::nullopt;
}

std::string unit_of(const std::string& column) {
    const auto info = find_column(column);
    return info ? info->unit : "";
}

}  // namespace

int run_plot(const PlotRequest& request) {
    const SweepContext sweep = sweep_context(request.csv);
    PlotRequest r = request;
    if (r.x.empty()) {
        r.x = sweep.plot.value("x", "workload.entries");
        r.logx = r.logx || sweep.plot.value("logx", false);
    }
    if (r.y.empty()) r.y = sweep.plot.value("y", "throughput_gbps");
    const std::vector<std::string> series =
        r.series ? *r.series
                 : sweep.plot.value("series", std::vector<std::string>{"workload.chain_depth"});

    std::vector<std::string> series_labels;
    for (const auto& s : series) series_labels.push_back(axis_label(s));
    std::vector<std::string> argv = {
        "/usr/bin/python3",
        plot_script_path(),
        r.csv,
        "-o",
        r.output,
        "--x",
        r.x,
        "--y",
        r.y,
        "--xlabel",
        r.xlabel.empty() ? axis_label(r.x) : r.xlabel,
        "--ylabel",
        r.ylabel.empty() ? axis_label(r.y) : r.ylabel,
        "--xunit",
        unit_of(r.x),
        "--yunit",
        unit_of(r.y),
        "--title",
        r.title.empty() ? fmt::format("{} vs. {}", axis_label(r.y), short_label(r.x)) : r.title,
        "--subtitle",
        subtitle(sweep),
        "--series-title",
        fmt::format("{}", fmt::join(series_labels, ", "))};
    for (const auto& s : series)
        argv.insert(argv.end(), {"--series", s, "--series-unit", unit_of(s)});
    if (const auto p = peak(sweep, r.y))
        argv.insert(argv.end(), {"--peak", fmt::format("{}", p->first), "--peak-label", p->second});
    if (r.logx) argv.push_back("--logx");
    if (r.logy) argv.push_back("--logy");
    if (r.heatmap) argv.push_back("--heatmap");
    if (!r.stack.empty()) {
        argv.insert(argv.end(), {"--stack", r.stack});
        // The title and y label were y's; a stack shows the group instead.
        const std::string title = r.title.empty() ? fmt::format("Cycles by cause ({}) vs. {}",
                                                                r.stack, short_label(r.x))
                                                  : r.title;
        argv.insert(argv.end(), {"--title", title, "--ylabel",
                                 r.ylabel.empty() ? "Share of cycles (%)" : r.ylabel});
    }
    return run_and_wait(argv);
}

}  // namespace dmasim::sim
