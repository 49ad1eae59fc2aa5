// measure.cc - see measure.h.
#include "measure.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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

}  // namespace

void measure(const std::optional<Window>& window, const model::Platform& platform,
             RunResult& result) {
    const auto& params = platform.params();
    result.statistics = platform.statistics();
    if (window) {
        result.bytes = window->bytes;
        // Divide the exact time in resolution units, not to_seconds() * 1e9,
        // which leaves rounding noise (2164793.0000000005) in every report.
        const sc_core::sc_time window_length = window->last_completion - window->first_start;
        result.sim_time_ns = window_length / sc_core::sc_time(1, sc_core::SC_NS);
        result.cycles =
            static_cast<uint64_t>(std::llround(result.sim_time_ns * params.clock_mhz / 1000.0));
        result.throughput_gbps = result.sim_time_ns > 0 ? result.bytes / result.sim_time_ns : 0;
        result.bytes_per_cycle = result.cycles > 0 ? double(result.bytes) / result.cycles : 0;
        const uint64_t busiest = std::max(platform.read_channel_stats().busy_cycles,
                                          platform.write_channel_stats().busy_cycles);
        result.bus_utilization = result.cycles > 0 ? double(busiest) / result.cycles : 0;
    }
    for (unsigned ch = 0; ch < params.dma.channels; ++ch) {
        const model::ChannelStats s = platform.channel_stats(ch);
        if (window) {
            result.descriptors += s.descriptors;
            result.chain_links += s.chain_links;
            result.descriptor_bytes_fetched += s.descriptor_bytes_fetched;
        }
        result.statistics.push_back(phase_group(ch, s, result.cycles));
        result.histograms.push_back(
            make_histogram(fmt::format("dma.ch{}.descriptor_latency_cycles", ch), "cycles",
                           s.descriptor_latencies));
    }
}

}  // namespace dmasim::tb
