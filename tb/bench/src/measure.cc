// measure.cc - see measure.h.
#include "measure.h"

#include <dmasim/model/clock.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "histogram.h"

namespace dmasim::tb {
namespace {

// Each phase of a channel as a share of the measured cycles (model::kPhaseShares).
model::StatGroup phase_group(unsigned ch, const model::ChannelStats& s, uint64_t cycles) {
    model::StatGroup group{fmt::format("phase.ch{}", ch), {}};
    for (const auto& phase : model::kPhaseShares) {
        const uint64_t c = s.*phase.cycles;
        group.counters.push_back(
            {phase.def.name, cycles ? 100.0 * c / cycles : 0.0, phase.def.unit});
    }
    return group;
}

// Cycles by cause (model::kCauseDefs) as a statistic group.
model::StatGroup account_group(std::string name, const model::CycleAccount& account) {
    model::StatGroup group{std::move(name), {}};
    for (size_t c = 0; c < model::kCauses; ++c)
        group.counters.push_back(
            {model::kCauseDefs[c].name, static_cast<double>(account[c]), "cycles"});
    return group;
}

// Ratios are computed from integers, so a sound figure sits at its bound
// exactly or below; the slack only absorbs the division's last bit.
constexpr double kSlack = 1e-12;

}  // namespace

std::vector<std::string> invariant_violations(const RunResult& r, const Carried& carried,
                                              const model::PlatformParams& params,
                                              sc_core::sc_time period) {
    std::vector<std::string> out;
    // One bus channel carries at most a beat a cycle, or the memory's
    // bandwidth where that is lower (PCIe's posted writes included).
    const double width = params.bus.width_bytes;
    const double bandwidth = params.memory.bandwidth_bytes_per_cycle;
    const double peak = bandwidth > 0 ? std::min(width, bandwidth) : width;
    const std::string peak_keys =
        bandwidth > 0 && bandwidth < width ? "memory.bandwidth_bytes_per_cycle" : "bus.width_bytes";
    const double cycles = static_cast<double>(r.cycles);
    const auto over_peak = [&](uint64_t bytes) {
        return r.cycles > 0 && bytes > peak * cycles * (1 + kSlack);
    };
    for (const auto& [bytes, side] :
         {std::pair{carried.bytes_read, "read"}, std::pair{carried.bytes_written, "write"}})
        if (over_peak(bytes))
            out.push_back(fmt::format("the {} channel carried {} B/cycle, above its peak {} = {}",
                                      side, bytes / cycles, peak_keys, peak));
    // In total a run moves no more than the channels it used can carry at
    // once: a read and a write channel side by side when both moved data.
    const unsigned sides = (carried.bytes_read > 0) + (carried.bytes_written > 0);
    if (r.bytes_per_cycle > peak * std::max(1u, sides) * (1 + kSlack))
        out.push_back(fmt::format(
            "bytes_per_cycle = {} exceeds the peak of the {} bus channel{} it used ({} = {} each)",
            r.bytes_per_cycle, std::max(1u, sides), sides > 1 ? "s" : "", peak_keys, peak));
    for (size_t ch = 0; ch < carried.channels.size(); ++ch) {
        const Carried::Channel& c = carried.channels[ch];
        if (c.bytes > peak * static_cast<double>(c.data_window_cycles) * (1 + kSlack))
            out.push_back(fmt::format(
                "channel {} moved {} B in a data window of {} cycles, faster than {} = {}", ch,
                c.bytes, c.data_window_cycles, peak_keys, peak));
    }
    // Every handled interrupt reaped a descriptor of the measured window
    // (one each at most, fewer when they coalesce). Only a measured
    // transfer stopped by an error interrupts without one, and that run
    // fails integrity.
    if (r.integrity && r.interrupts > r.descriptors)
        out.push_back(fmt::format("interrupts = {} exceeds descriptors = {} in the measured window",
                                  r.interrupts, r.descriptors));
    if (r.bus_utilization > 1 + kSlack)
        out.push_back(fmt::format("bus_utilization = {} exceeds 1", r.bus_utilization));
    // cycles counts clock edges between the window's ends, so it is within
    // one period of the simulated time.
    const double period_ns = period / sc_core::sc_time(1, sc_core::SC_NS);
    const double cycles_ns = static_cast<double>(r.cycles) * period_ns;
    if (std::abs(cycles_ns - r.sim_time_ns) >= period_ns * (1 + kSlack) && r.sim_time_ns > 0)
        out.push_back(fmt::format("cycles = {} at a period of {} ns is {} ns, but sim_time_ns = {}",
                                  r.cycles, period_ns, cycles_ns, r.sim_time_ns));
    uint64_t accounted = 0;
    for (uint64_t c : r.account) accounted += c;
    if (accounted != r.cycles && r.sim_time_ns > 0)
        out.push_back(
            fmt::format("the cycle account adds up to {}, but cycles = {}", accounted, r.cycles));
    if (carried.late_bookings > 0)
        out.push_back(fmt::format(
            "{} memory or device bookings asked for cycles their channel had already settled "
            "past, so their timing depends on when the simulator settled",
            carried.late_bookings));
    return out;
}

WindowCycles window_cycles(const Window& window, const model::Clock& clock) {
    return {clock.cycle_at_or_after(window.first_start),
            clock.cycle_at_or_after(window.last_completion)};
}

void measure(const std::optional<Window>& window, const model::Platform& platform,
             const model::CycleTimeline& host, RunResult& result) {
    const auto& params = platform.params();
    result.statistics = platform.statistics();
    if (window) {
        result.bytes = window->bytes;
        result.descriptors = window->descriptors;
        result.chain_links = window->chain_links;
        result.descriptor_bytes_fetched = window->descriptor_bytes_fetched;
        // Divide the exact time in resolution units, not to_seconds() * 1e9,
        // which leaves rounding noise (2164793.0000000005) in every report.
        const sc_core::sc_time window_length = window->last_completion - window->first_start;
        result.sim_time_ns = window_length / sc_core::sc_time(1, sc_core::SC_NS);
        // Clock edges in the window, from the exact period (not the nominal
        // clock_mhz, which a rounded period would contradict).
        const WindowCycles edges = window_cycles(*window, platform.clock());
        result.cycles = edges.last - edges.first;
        result.throughput_gbps = result.sim_time_ns > 0 ? result.bytes / result.sim_time_ns : 0;
        result.bytes_per_cycle = result.cycles > 0 ? double(result.bytes) / result.cycles : 0;
        const uint64_t busiest = std::max(window->busy.read, window->busy.write);
        result.bus_utilization = result.cycles > 0 ? double(busiest) / result.cycles : 0;
        result.interrupts = window->interrupts;
        result.interrupts_per_second =
            result.sim_time_ns > 0 ? result.interrupts * 1e9 / result.sim_time_ns : 0;
        result.polls = window->polls;
        result.cpu_busy_cycles = window->cpu_busy_cycles;
        result.cpu_utilization =
            result.cycles > 0 ? double(result.cpu_busy_cycles) / result.cycles : 0;
        std::vector<const model::CycleTimeline*> timelines;
        for (unsigned ch = 0; ch < params.dma.channels; ++ch)
            timelines.push_back(&platform.channel_timeline(ch));
        timelines.push_back(&host);
        result.account = model::account_over(timelines, edges.first, edges.last);
    }
    Carried carried;
    carried.late_bookings = platform.late_bookings();
    if (window) {
        carried.bytes_read = window->bytes_read;
        carried.bytes_written = window->bytes_written;
    }
    for (unsigned ch = 0; ch < params.dma.channels; ++ch) {
        const model::ChannelStats& s = platform.channel_stats(ch);
        result.statistics.push_back(phase_group(ch, s, result.cycles));
        result.statistics.push_back(account_group(fmt::format("account.ch{}", ch), s.account));
        result.histograms.push_back(
            make_histogram(fmt::format("dma.ch{}.descriptor_latency_cycles", ch), "cycles",
                           s.descriptor_latencies));
        carried.channels.push_back({s.bytes, s.data_window_cycles});
    }
    if (window) result.statistics.push_back(account_group("account", result.account));
    const auto violations =
        invariant_violations(result, carried, params, platform.clock().period());
    if (!violations.empty())
        throw std::logic_error(fmt::format(
            "internal error: the model produced an impossible result ({}); please report it "
            "with this command line",
            fmt::join(violations, "; ")));
}

}  // namespace dmasim::tb
