// plot.cc - axes, labels, subtitle and peak line from the definitions
// tables and sweep.json, then hand over to matplotlib.
#include "plot.h"

#include <dmasim/files/atomic_file.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "config_keys.h"
#include "paths.h"
#include "process.h"
#include "statistics_catalog.h"
#include "sweep_dir.h"
#include "sweep_manifest.h"
#include "sweep_spec.h"

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
    /// A base: sweep's configs, one per profile: a key varies if they differ.
    std::vector<Json> base_configs;
    std::vector<std::string> base_names;  ///< in file order, one per config
    std::string platform;                 ///< the sweep's platform file (its stem), or empty
    Json plot = Json::object();
    Json config = Json::object();
    Json report = Json::object();
};

SweepContext sweep_context(const std::string& csv) {
    SweepContext out;
    const SweepDir dir{fs::path(csv).parent_path().string()};
    std::error_code ec;
    if (!fs::exists(dir.manifest(), ec)) return out;
    const Json manifest = read_manifest(dir.manifest());
    out.swept = manifest.value("swept_keys", std::vector<std::string>{});
    out.plot = manifest.value("plot", Json::object());
    if (manifest.contains("platform_file") && manifest["platform_file"].is_string())
        out.platform = fs::path(manifest["platform_file"].get<std::string>()).stem().string();
    const bool bases = std::find(out.swept.begin(), out.swept.end(), kBaseAxis) != out.swept.end();
    std::vector<std::string> seen_bases;
    for (const auto& point : manifest.value("points", Json::array())) {
        if (point.contains("skipped")) continue;
        const Json values = point.value("values", Json::object());
        const std::string base = values.value(kBaseAxis, "");
        if (!out.config.empty() &&
            (!bases || std::find(seen_bases.begin(), seen_bases.end(), base) != seen_bases.end()))
            continue;
        if (auto report = read_complete_report(dir.report(point["id"].get<std::string>()))) {
            if (out.config.empty()) {
                out.config = (*report)["config"];
                out.report = *report;
            }
            if (bases) {
                seen_bases.push_back(base);
                out.base_names.push_back(base);
                out.base_configs.push_back((*report)["config"]);
            }
            if (!bases) break;
        }
    }
    return out;
}

/// Whether `key` may differ between points: a swept key, or any key when
/// the points start from different bases.
bool swept(const SweepContext& c, const std::string& key) {
    if (std::find(c.swept.begin(), c.swept.end(), key) != c.swept.end()) return true;
    if (std::find(c.swept.begin(), c.swept.end(), kBaseAxis) == c.swept.end()) return false;
    // Profiles differ in some keys and share the platform: only keys whose
    // value differs between the profiles' configs vary.
    if (c.base_configs.empty()) return true;
    for (const Json& config : c.base_configs)
        if (config.value(key, Json()) != c.base_configs.front().value(key, Json())) return true;
    return false;
}

/// A column's unit: from the definitions, else (a scenario's own result)
/// from the report that defines it.
std::string unit_of(const SweepContext& c, const std::string& column) {
    if (const auto info = find_column(column)) return info->unit;
    const Json* result = c.report.contains("result") ? &c.report["result"] : nullptr;
    if (result && result->contains("scenario_results") &&
        (*result)["scenario_results"].contains(column))
        return (*result)["scenario_results"][column].value("unit", "");
    return "";
}

/// "iotlb" reads "IOTLB": the abbreviations key names use.
std::string spelled(std::string word) {
    static const std::pair<const char*, const char*> kWords[] = {
        {"iotlb", "IOTLB"}, {"iommu", "IOMMU"}, {"irq", "IRQ"}, {"cpu", "CPU"}, {"dma", "DMA"},
        {"pcie", "PCIe"},   {"mhz", "MHz"},     {"tlb", "TLB"}, {"ns", "ns"}};
    for (const auto& [raw, text] : kWords)
        if (word == raw) return text;
    return word;
}

/// A readable name for a column, without its unit (the plot adds that):
/// "iommu.iotlb_ways" -> "IOTLB ways", "bus.width_bytes" -> "bus width",
/// "clock_mhz" -> "clock", "throughput_gbps" -> "throughput".
std::string name_of(const SweepContext& c, const std::string& column) {
    // Names the docs use rather than the key's last word.
    static const std::pair<const char*, const char*> kNames[] = {
        {kBaseAxis, "profile"}, {"workload.entries", "list length"}};
    for (const auto& [key, name] : kNames)
        if (column == key) return name;
    const auto info = find_column(column);
    if (info && !find_key(column)) return info->label;  // results and statistics
    const auto dot = column.rfind('.');
    const std::string last = column.substr(dot == std::string::npos ? 0 : dot + 1);
    std::string unit = unit_of(c, column);
    std::transform(unit.begin(), unit.end(), unit.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    std::vector<std::string> raw;
    for (size_t at = 0, next; at <= last.size(); at = next + 1) {
        next = std::min(last.find('_', at), last.size());
        raw.push_back(last.substr(at, next - at));
    }
    // The unit in the name goes, the axis shows it: "read_latency_cycles"
    // -> "read latency"; a byte count is a size unless the name says which
    // ("width"); a time in ns is a time ("iteration_ns_min" -> "iteration
    // time min").
    // Counts ("iotlb_entries", "max_burst_beats") keep their word.
    const bool measure =
        unit == "bytes" || unit == "cycles" || unit == "mhz" || unit == "ns" || unit == "us";
    std::vector<std::string> words;
    for (const std::string& word : raw) {
        if (word != unit || !measure || raw.size() == 1)
            words.push_back(spelled(word));
        else if (unit == "bytes" && words.back() != "width" && words.back() != "size")
            words.push_back("size");
        else if (unit == "ns")
            words.push_back("time");
    }
    // A lone generic word ("width", "tags") needs its section: "bus width".
    const std::string section = dot == std::string::npos ? "" : column.substr(0, column.find('.'));
    if (words.size() == 1 && !section.empty() && section != "workload" && section != "scenario")
        words.insert(words.begin(), spelled(section));
    return fmt::format("{}", fmt::join(words, " "));
}

std::string capitalised(std::string s) {
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

/// 1000.0 -> "1000", 4096 bytes -> "4 KiB", "mem_to_dev" as it is.
std::string value_text(const Json& v, const std::string& unit) {
    if (v.is_string()) return v.get<std::string>();
    if (!v.is_number()) return v.dump();
    const double x = v.get<double>();
    if (unit == "bytes" || unit == "B") {
        static const std::pair<const char*, double> kSizes[] = {
            {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}};
        for (const auto& [name, scale] : kSizes)
            if (x >= scale) return fmt::format("{:g} {}", x / scale, name);
        return fmt::format("{:g} B", x);
    }
    // A count's unit ("entries", "beats") is what the name already says.
    const bool measure = unit == "cycles" || unit == "MHz" || unit == "ns";
    return measure ? fmt::format("{:g} {}", x, unit) : fmt::format("{:g}", x);
}

/// The settings the sweep holds fixed: "clock 1000 MHz, bus width 16 B, ...";
/// for profiles that bring platforms of their own (a base: sweep), each
/// profile's: "axi-dma: clock 100 MHz, bus width 4 B; ...". A sweep with a
/// platform file names it first: "platform ddr-like: clock 1000 MHz, ...".
std::string subtitle(const SweepContext& c) {
    std::vector<std::string> parts, own;
    for (const char* key : kHeadlineKeys) {
        if (!c.config.contains(key)) continue;
        if (!swept(c, key))
            parts.push_back(
                fmt::format("{} {}", name_of(c, key), value_text(c.config[key], unit_of(c, key))));
        else if (!c.base_configs.empty() && (std::string_view(key) == "clock_mhz" ||
                                             std::string_view(key) == "bus.width_bytes" ||
                                             std::string_view(key) == "memory.read_latency_cycles"))
            own.push_back(key);
    }
    std::string text = fmt::format("{}", fmt::join(parts, ", "));
    if (!c.platform.empty()) text = fmt::format("platform {}: {}", c.platform, text);
    std::vector<std::string> profiles;
    for (size_t i = 0; i < c.base_configs.size() && !own.empty(); ++i) {
        std::vector<std::string> platform;
        for (const auto& key : own)
            platform.push_back(
                fmt::format("{} {}", name_of(c, key),
                            value_text(c.base_configs[i].value(key, Json()), unit_of(c, key))));
        profiles.push_back(fmt::format("{}: {}", c.base_names[i], fmt::join(platform, ", ")));
    }
    if (!profiles.empty())
        text += fmt::format("{}{}", text.empty() ? "" : "; ", fmt::join(profiles, "; "));
    return text;
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

    // matplotlib opens its file itself, so it draws into a private folder
    // and the image is then published as every output is: renamed onto a
    // regular file, never replacing a link (its target is written) or a
    // device; a device or FIFO would need the image in place, so a plot
    // refuses one.
    if (tb::output_target(r.output).in_place)
        throw tb::OutputError(fmt::format(
            "cannot write {}: a plot is drawn into a regular file, not a device or FIFO",
            r.output));
    tb::PrivateDir scratch(r.output);
    const std::string image = fs::path(r.output).filename().string();
    scratch.expect(image);
    std::vector<std::string> argv = {"/usr/bin/python3",
                                     plot_script_path(),
                                     r.csv,
                                     "-o",
                                     scratch.file(image),
                                     "--x",
                                     r.x,
                                     "--y",
                                     r.y,
                                     "--xname",
                                     capitalised(name_of(sweep, r.x)),
                                     "--yname",
                                     capitalised(name_of(sweep, r.y)),
                                     "--xunit",
                                     unit_of(sweep, r.x),
                                     "--yunit",
                                     unit_of(sweep, r.y),
                                     "--subtitle",
                                     subtitle(sweep)};
    if (!r.xlabel.empty()) argv.insert(argv.end(), {"--xlabel", r.xlabel});
    if (!r.ylabel.empty()) argv.insert(argv.end(), {"--ylabel", r.ylabel});
    if (!r.title.empty()) argv.insert(argv.end(), {"--title", r.title});
    for (const auto& s : series)
        argv.insert(argv.end(), {"--series", s, "--series-unit", unit_of(sweep, s), "--series-name",
                                 name_of(sweep, s)});
    if (const auto p = peak(sweep, r.y))
        argv.insert(argv.end(), {"--peak", fmt::format("{}", p->first), "--peak-label", p->second});
    if (r.logx) argv.push_back("--logx");
    if (r.logy) argv.push_back("--logy");
    if (r.heatmap) argv.push_back("--heatmap");
    for (const auto& w : r.where) argv.insert(argv.end(), {"--where", w});
    if (!r.facet.empty()) argv.insert(argv.end(), {"--facet", r.facet});
    // Names and units of the columns --where, --facet and the legend's
    // fixed settings may show.
    std::vector<std::string> described = sweep.swept;
    for (const auto& w : r.where) described.push_back(w.substr(0, w.find('=')));
    if (!r.facet.empty()) described.push_back(r.facet);
    std::sort(described.begin(), described.end());
    described.erase(std::unique(described.begin(), described.end()), described.end());
    for (const auto& column : described)
        argv.insert(argv.end(),
                    {"--column", column, name_of(sweep, column), unit_of(sweep, column)});
    if (!r.stack.empty()) {
        argv.insert(argv.end(), {"--stack", r.stack});
        // The y label was y's; a stack shows the group's shares instead
        // (the title follows the labels).
        argv.insert(argv.end(), {"--ylabel", r.ylabel.empty() ? "Share of cycles (%)" : r.ylabel});
    }
    const int status = run_and_wait(argv);
    if (status != 0) return status;
    if (const std::string why = scratch.publish(image); !why.empty()) throw tb::OutputError(why);
    return 0;
}

}  // namespace dmasim::sim
