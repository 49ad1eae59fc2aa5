// report.cpp - report JSON and the human summary of one run.
#include "report.h"

#include <fmt/format.h>

#include "config_keys.h"

namespace dmasim::sim {
namespace {

Json value_to_json(const Value& value) {
    return std::visit([](const auto& v) { return Json(v); }, value);
}

std::string text_of(const tb::SimConfig& config, const char* key) {
    return format_value(find_key(key)->get(config));
}

/// Bytes with a binary unit, for humans: "1.00 MiB".
std::string human_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 4) {
        bytes /= 1024;
        ++unit;
    }
    return unit == 0 ? fmt::format("{:.0f} B", bytes)
                     : fmt::format("{:.2f} {}", bytes, units[unit]);
}

/// What each entry holds, as drawn: "4096 bytes", or the distribution and
/// the range its draws are clamped to (the bytes line gives the total).
std::string segments_text(const tb::WorkloadConfig& w) {
    switch (w.distribution) {
        case tb::SizeDistribution::fixed:
            break;
        case tb::SizeDistribution::uniform:
            return fmt::format("uniform {}..{} bytes", w.segment_bytes_min, w.segment_bytes_max);
        case tb::SizeDistribution::lognormal:
            return fmt::format("lognormal mean {} bytes (sigma {}, clamped to {}..{})",
                               w.segment_bytes, w.lognormal_sigma, w.segment_bytes_min,
                               w.segment_bytes_max);
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

std::string scenario_lines(const tb::RunResult& r) {
    std::string out;
    for (const auto& s : r.scenario_results)
        out += fmt::format("scenario     {} = {}{}  ({})\n", s.name, s.value,
                           s.unit.empty() ? "" : " " + s.unit, s.description);
    return out;
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
        "{} MHz, {}-byte bus, memory {}/{} cycles read/write latency; DMA {} channel(s), "
        "{}-beat bursts, {}/{} reads/writes in flight, prefetch {}, {}, {}",
        p.clock_mhz, p.bus.width_bytes, p.memory.read_latency_cycles, p.memory.write_latency_cycles,
        p.dma.channels, p.dma.max_burst_beats, p.dma.max_outstanding_reads,
        p.dma.max_outstanding_writes, p.dma.descriptor_prefetch,
        text_of(c, "dma.descriptor_format"), text_of(c, "dma.write_policy"));
}

namespace {
// not_checked: nothing failed, but payload none compared no bytes.
std::string integrity_text(const tb::RunResult& r) {
    if (!r.integrity) return "fail";
    return r.payload_checked ? "pass" : "not_checked";
}
}  // namespace

Json make_report(const tb::SimConfig& config, const tb::RunResult& r, double wall_seconds) {
    Json result = {{"bytes", r.bytes},
                   {"descriptors", r.descriptors},
                   {"chain_links", r.chain_links},
                   {"cycles", r.cycles},
                   {"sim_time_ns", r.sim_time_ns},
                   {"throughput_gbps", r.throughput_gbps},
                   {"bytes_per_cycle", r.bytes_per_cycle},
                   {"descriptor_bytes_fetched", r.descriptor_bytes_fetched},
                   {"bus_utilization", r.bus_utilization},
                   {"integrity", integrity_text(r)}};
    if (!r.scenario_results.empty()) result["scenario_results"] = scenario_results_json(r);
    if (!r.integrity) {
        result["failure"] = r.failure;
        if (r.first_bad_address) result["first_bad_address"] = *r.first_bad_address;
    }
    return {{"config", config_to_json(config)},
            {"result", result},
            {"statistics", statistics_to_json(r.statistics)},
            {"wall_seconds", wall_seconds}};
}

std::string summary_text(const tb::SimConfig& config, const tb::RunResult& r, double wall_seconds) {
    std::string out = fmt::format("platform     {}\n", platform_line(config));
    out += fmt::format("workload     {} {}, {} entries x {}, chain depth {}\n",
                       config.workload.scenario, text_of(config, "workload.direction"),
                       config.workload.entries, segments_text(config.workload),
                       config.workload.chain_depth);
    if (r.bytes == 0 && !r.scenario_results.empty()) {
        // Every transfer was excluded (injected errors): no throughput to show.
        out += "measured     nothing: the scenario's transfers are not measured\n";
    } else {
        out += fmt::format("bytes        {} ({})\n", r.bytes,
                           human_bytes(static_cast<double>(r.bytes)));
        out += fmt::format("sim time     {:.1f} ns ({} cycles)\n", r.sim_time_ns, r.cycles);
        out += fmt::format("throughput   {:.3f} GB/s, {:.3f} bytes/cycle\n", r.throughput_gbps,
                           r.bytes_per_cycle);
        out += fmt::format("bus util.    {:.1f} %\n", 100 * r.bus_utilization);
        out += fmt::format("descriptors  {} (+{} chain links, {} descriptor bytes fetched)\n",
                           r.descriptors, r.chain_links, r.descriptor_bytes_fetched);
    }
    out += scenario_lines(r);
    out += fmt::format("integrity    {}\n", r.integrity ? integrity_text(r) : "FAIL: " + r.failure);
    const double rate = wall_seconds > 0 ? r.bytes / wall_seconds : 0;
    out += fmt::format("wall time    {:.3f} s ({}/s simulated)\n", wall_seconds, human_bytes(rate));
    return out;
}

}  // namespace dmasim::sim
