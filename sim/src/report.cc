// report.cc - report JSON and the human summary of one run.
#include "report.h"

#include <dmasim/model/cycle_account.h>
#include <dmasim/tb/figure_format.h>
#include <dmasim/tb/results.h>
#include <fmt/format.h>

#include <map>

#include <algorithm>
#include <string>
#include <vector>

#include "config_keys.h"

namespace dmasim::sim {
namespace {

namespace figures = tb::figures;

Json value_to_json(const Value& value) {
    return std::visit([](const auto& v) { return Json(v); }, value);
}

std::string text_of(const tb::SimConfig& config, const char* key) {
    return format_value(find_key(key)->get(config));
}

/// What each entry holds, as drawn: "4096 bytes", or the distribution and
/// the range its draws are clamped to (the bytes line gives the total).
std::string segments_text(const tb::WorkloadConfig& w) {
    switch (w.distribution) {
        case DMASIM_SEG_FIXED:
            break;
        case DMASIM_SEG_LIST:
            return fmt::format("listed lengths up to {} bytes", w.segment_bytes_max);
        case DMASIM_SEG_UNIFORM:
            return fmt::format("uniform {}..{} bytes", w.segment_bytes_min, w.segment_bytes_max);
        case DMASIM_SEG_LOGNORMAL:
            return fmt::format("lognormal mean {} bytes (sigma {}, clamped to {}..{})",
                               w.segment_bytes, figures::significant(w.lognormal_sigma),
                               w.segment_bytes_min, w.segment_bytes_max);
    }
    return fmt::format("{} bytes", w.segment_bytes);
}

Json statistics_to_json(const std::vector<model::StatGroup>& groups) {
    Json out = Json::object();
    for (const auto& group : groups) {
        Json counters = Json::object();
        for (const auto& c : group.counters)
            counters[c.name] = {{"value", c.value}, {"unit", c.unit}};
        out[group.name] = counters;
    }
    return out;
}

/// {name: {value, unit, description}}, in the order the scenario added them.
Json scenario_results_json(const tb::RunResult& r) {
    Json out = Json::object();
    for (const auto& s : r.scenario_results)
        out[s.name] = {{"value", s.value}, {"unit", s.unit}, {"description", s.description}};
    return out;
}

Json histograms_to_json(const std::vector<tb::Histogram>& histograms) {
    Json out = Json::object();
    for (const auto& h : histograms) {
        Json buckets = Json::array();
        for (const auto& b : h.buckets)
            buckets.push_back({{"from", b.from}, {"to", b.to}, {"count", b.count}});
        out[h.name] = {{"unit", h.unit}, {"count", h.count}, {"p50", h.p50},      {"p90", h.p90},
                       {"p99", h.p99},   {"max", h.max},     {"buckets", buckets}};
    }
    return out;
}

Json result_value_json(const tb::RunResult& r, const tb::ResultDef& def) {
    return std::visit([&r](auto member) { return Json(r.*member); }, def.field);
}

/// A figure in its own unit (a scenario's result, whose name may carry
/// the unit: latency_p99_us), shares as percentages.
std::string in_unit(double v, const std::string& unit) {
    if (unit == "fraction") return figures::percent(v);
    const std::string text = figures::significant(v);
    return unit.empty() ? text : fmt::format("{} {}", text, figures::unit_for(v, unit));
}

/// A result's value for the summary: counts whole, sizes with their binary
/// reading, times and rates scaled, the rest in their unit.
std::string summary_value(const tb::RunResult& r, const tb::ResultDef& def) {
    const double v = tb::result_value(r, def);
    const std::string unit = def.unit;
    if (unit == "B")
        return v >= 1024 ? fmt::format("{} B ({})", figures::significant(v), figures::bytes(v))
                         : figures::bytes(v);
    const std::string label = def.label;  // "chain links" needs no unit "links"
    if (label.size() >= unit.size() &&
        label.compare(label.size() - unit.size(), unit.size(), unit) == 0)
        return figures::significant(v);
    if (unit == "ns") return figures::time_ns(v);
    if (unit == "GB/s") return figures::rate(1e9 * v);
    return in_unit(v, unit);
}

/// A channel's descriptor latencies, the sample they come from when it is
/// too small for its p99 to differ from its maximum.
std::string descriptor_latency_text(const tb::Histogram& h) {
    const std::string caveat = figures::percentile_caveat(h.count, "descriptor", "descriptors");
    return fmt::format(
        "p50 {} / p90 {} / p99 {} {}, a descriptor's fetch issued to its status "
        "written back{}",
        h.p50, h.p90, h.p99, h.unit, caveat.empty() ? "" : " (" + caveat + ")");
}

}  // namespace

Json config_to_json(const tb::SimConfig& config) {
    Json out = Json::object();
    for (const auto& key : config_keys()) out[key.name] = value_to_json(key.get(config));
    return out;
}

std::string platform_line(const tb::SimConfig& c) {
    const auto& p = c.platform;
    return fmt::format(
        "{} MHz, {}-byte bus, memory {}/{} cycles read/write latency; DMA {}, "
        "{}-beat bursts, {}/{} reads/writes in flight, prefetch {}, {}, {}",
        figures::significant(p.clock_mhz, 6), p.bus.width_bytes, p.memory.read_latency_cycles,
        p.memory.write_latency_cycles, figures::count(p.dma.channels, "channel", "channels"),
        p.dma.max_burst_beats, p.dma.max_outstanding_reads, p.dma.max_outstanding_writes,
        p.dma.descriptor_prefetch, text_of(c, "dma.descriptor_format"),
        text_of(c, "dma.write_policy"));
}

namespace {
// The run's cycle account as a short table: each cause that took any
// cycles, largest first, with its share of the cycles.
std::vector<std::string> account_lines(const tb::RunResult& r) {
    std::vector<size_t> order;
    for (size_t c = 0; c < model::kCauses; ++c)
        if (r.account[c] > 0) order.push_back(c);
    std::stable_sort(order.begin(), order.end(),
                     [&r](size_t a, size_t b) { return r.account[a] > r.account[b]; });
    std::vector<std::string> lines;
    for (size_t c : order)
        lines.push_back(fmt::format("{:<17}{:>12} cycles {:5.1f} %", model::kCauseDefs[c].name,
                                    r.account[c], 100.0 * r.account[c] / r.cycles));
    return lines;
}

// Each channel's datasheet windows (stats.h): START to first descriptor
// read to first data read to first beat out, and the data window with the
// throughput a datasheet quotes over it (PG021: first arvalid to tlast),
// in the unit of the run's throughput line.
std::vector<std::string> window_lines(const tb::SimConfig& config, const tb::RunResult& r) {
    const figures::RateScale rate(1e9 * r.throughput_gbps);
    std::vector<std::string> lines;
    for (const model::StatGroup& g : r.statistics) {
        if (g.name.rfind("dma.ch", 0) != 0) continue;
        std::map<std::string, double> c;
        for (const model::Counter& counter : g.counters) c[counter.name] = counter.value;
        const double window = c["data_window_cycles"];
        if (window <= 0) continue;
        lines.push_back(fmt::format(
            "{}: START->fetch {}, fetch->read {}, read->out {} cycles; data window {} cycles, {}",
            g.name.substr(4), c["start_to_fetch_cycles"], c["fetch_to_read_cycles"],
            c["read_to_out_cycles"], window,
            rate(1e6 * c["bytes"] * config.platform.clock_mhz / window)));
    }
    return lines;
}

// not_checked: nothing failed, but payload none compared no bytes.
std::string integrity_text(const tb::RunResult& r) {
    if (!r.integrity) return "fail";
    return r.payload_checked ? "pass" : "not_checked";
}
}  // namespace

Json make_report(const tb::SimConfig& config, const tb::RunResult& r, double wall_seconds) {
    Json result = Json::object();
    for (const tb::ResultDef& def : tb::kResultDefs) result[def.name] = result_value_json(r, def);
    result["integrity"] = integrity_text(r);
    if (!r.scenario_results.empty()) result["scenario_results"] = scenario_results_json(r);
    if (!r.integrity) {
        result["failure"] = r.failure;
        if (r.first_bad_address) result["first_bad_address"] = *r.first_bad_address;
    }
    return {{"config", config_to_json(config)},
            {"result", result},
            {"statistics", statistics_to_json(r.statistics)},
            {"histograms", histograms_to_json(r.histograms)},
            {"wall_seconds", wall_seconds}};
}

std::string summary_text(const tb::SimConfig& config, const tb::RunResult& r, double wall_seconds) {
    static constexpr int kWidth = 26;  // the longest label, "descriptor bytes fetched", and a gap
    auto line = [](const std::string& label, const std::string& value) {
        return fmt::format("{:<{}}{}\n", label, kWidth, value);
    };
    std::string out = line("platform", platform_line(config));
    const tb::WorkloadConfig& w = config.workload;
    out += line("workload", w.arrival == tb::Arrival::trace && !w.trace.empty()
                                ? fmt::format("{}, the lists of {}, chain depth up to {}",
                                              w.scenario, w.trace, w.chain_depth)
                                : fmt::format("{} {}, {} x {}, chain depth {}", w.scenario,
                                              text_of(config, "workload.direction"),
                                              figures::count(w.entries, "entry", "entries"),
                                              segments_text(w), w.chain_depth));
    if (r.bytes == 0 && !r.scenario_results.empty()) {
        // Every transfer was excluded (injected errors): no throughput to show.
        out += line("measured", "nothing: the scenario's transfers are not measured");
    } else {
        for (const tb::ResultDef& def : tb::kResultDefs)
            out += line(def.label, summary_value(r, def));
        for (const auto& h : r.histograms)
            if (h.count > 0)
                out += line(
                    fmt::format("descriptor latency {}", h.name.substr(4, h.name.find('.', 4) - 4)),
                    descriptor_latency_text(h));
        const char* windows = "windows";
        for (const std::string& row : window_lines(config, r)) {
            out += line(windows, row);
            windows = "";
        }
        const char* label = "cycles by cause";
        for (const std::string& row : account_lines(r)) {
            out += line(label, row);
            label = "";
        }
    }
    for (const auto& s : r.scenario_results)
        out += line("scenario",
                    fmt::format("{} = {}  ({})", s.name, in_unit(s.value, s.unit), s.description));
    out += line("integrity", r.integrity ? integrity_text(r) : "FAIL: " + r.failure);
    const double rate = wall_seconds > 0 ? r.bytes / wall_seconds : 0;
    out +=
        line("wall time", fmt::format("{} ({} simulated)", figures::time_ns(1e9 * wall_seconds, 3),
                                      figures::rate(rate, 3)));
    return out;
}

}  // namespace dmasim::sim
