// soak_point.cc - draws soak points. Sizes are log-uniform so small and
// large lists, and tiny and huge segments, are all common.
#include "soak_point.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "config_error.h"
#include "config_keys.h"
#include "config_loader.h"

namespace dmasim::soak {
namespace {

class Draw {
public:
    explicit Draw(uint64_t seed) : rng_(seed) {}

    uint64_t uniform(uint64_t lo, uint64_t hi) {
        return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
    }
    /// log-uniform in [lo, hi]
    uint64_t log_uniform(uint64_t lo, uint64_t hi) {
        double e = std::uniform_real_distribution<double>(std::log(double(lo)),
                                                          std::log(double(hi) + 1))(rng_);
        return std::clamp<uint64_t>(uint64_t(std::exp(e)), lo, hi);
    }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    template <class T, size_t N>
    const T& pick(const T (&options)[N]) {
        return options[uniform(0, N - 1)];
    }

private:
    std::mt19937_64 rng_;
};

/// The key table's entry for `name`: the soak draws inside what the table
/// accepts instead of restating ranges and spellings.
const sim::KeyDef& key(const std::string& name) { return *sim::find_key(name); }

/// A value anywhere in `name`'s range (power-of-two keys: a uniform exponent).
uint64_t any_value(Draw& d, const std::string& name) {
    const sim::KeyDef& k = key(name);
    if (!k.power_of_two) return d.uniform(k.int_min, k.int_max);
    return uint64_t{1} << d.uniform(__builtin_ctzll(k.int_min), __builtin_ctzll(k.int_max));
}

/// The `index`-th spelling of choice key `name`, in the table's order.
const std::string& spelling(const std::string& name, size_t index) {
    return key(name).choices.at(index);
}

struct Builder {
    Point p;
    void set(const std::string& key, const std::string& value) { p.sets.emplace_back(key, value); }
    void set(const std::string& key, uint64_t value) { set(key, std::to_string(value)); }
    /// The value set last for `key`, which must have been set.
    const std::string& get(const std::string& key) const {
        const auto it = std::find_if(p.sets.rbegin(), p.sets.rend(),
                                     [&key](const auto& kv) { return kv.first == key; });
        if (it == p.sets.rend()) throw std::logic_error("soak: " + key + " drawn before it is set");
        return it->second;
    }
};

void platform(Draw& d, Builder& b) {
    b.set("memory.size_mib", kMemoryMib);
    b.set("bus.width_bytes", uint64_t{1} << d.uniform(2, 6));
    b.set("bus.interconnect_latency_cycles", d.log_uniform(1, 64) - 1);
    b.set("memory.read_latency_cycles", d.log_uniform(1, 400) - 1);
    b.set("memory.write_latency_cycles", d.log_uniform(1, 200) - 1);
    b.set("memory.placement", d.chance(0.5) ? "scattered" : "contiguous");
    b.set("dma.channels", d.uniform(1, 4));
    b.set("dma.descriptor_format", spelling("dma.descriptor_format", d.chance(0.5) ? 0 : 1));
    b.set("dma.max_burst_beats", d.log_uniform(1, key("dma.max_burst_beats").int_max));
    b.set("dma.max_outstanding_reads", d.log_uniform(1, 32));
    b.set("dma.max_outstanding_writes", d.log_uniform(1, 32));
    b.set("dma.descriptor_prefetch", d.log_uniform(1, 32));
    const uint64_t fetch = d.uniform(0, 9);  // burst 70 %, word and speculative 15 % each
    b.set("dma.descriptor_fetch", spelling("dma.descriptor_fetch", fetch < 7   ? 0
                                                                   : fetch < 8 ? 1
                                                                               : 2));
    b.set("dma.write_policy", spelling("dma.write_policy", d.chance(0.7) ? 0 : 1));
    b.set("dma.data_overlap", d.chance(0.7) ? "true" : "false");
    b.set("dma.descriptor_queue",
          d.chance(0.7) ? key("dma.descriptor_queue").int_max : d.uniform(0, 8));
    // A port wider than the bus is refused by the rules and drawn again.
    const bool separate = d.chance(0.3);
    b.set("dma.descriptor_port", spelling("dma.descriptor_port", separate ? 1 : 0));
    if (separate) b.set("dma.descriptor_port_width_bytes", uint64_t{1} << d.uniform(2, 6));
    b.set("dma.buffer_bytes", d.log_uniform(256, 1u << 20));
    const auto& writeback = key("dma.status_writeback").choices;
    b.set("dma.status_writeback", writeback[d.uniform(0, writeback.size() - 1)]);
    const char* rates[] = {"0.5", "1", "4", "16", "64"};
    b.set("device.rate_bytes_per_cycle", d.pick(rates));
}

/// One of the first `kinds` directions of the key's table.
const std::string& any_direction(Draw& d, size_t kinds = 3) {
    const auto& directions = key("workload.direction").choices;
    return directions[d.uniform(0, std::min(kinds, directions.size()) - 1)];
}

/// A trace of 1 to 40 requests in a mix of up to `kinds` directions, 1 to
/// 8 entries of 1 B to 64 KiB each, arriving together or apart
/// (docs/request-traces.md).
std::string any_trace(Draw& d, size_t kinds) {
    std::string text;
    uint64_t at = 0;
    for (uint64_t r = d.uniform(1, 40); r > 0; --r) {
        at += d.chance(0.3) ? 0 : d.log_uniform(1, 100000);
        text += fmt::format("{} {}", at, any_direction(d, kinds));
        for (uint64_t e = d.log_uniform(1, 8); e > 0; --e) {
            text += fmt::format(" {}", d.log_uniform(1, 65536));
            if (d.chance(0.3)) text += fmt::format("@{}", d.uniform(0, 4095));
        }
        text += "\n";
    }
    return text;
}

// A stream of requests through the driver's submission ring, or the
// engine's own (tail_pointer), by interrupt or polling.
void requests(Draw& d, Builder& b) {
    const auto& arrivals = key("workload.arrival").choices;
    const std::string& arrival = arrivals[d.uniform(0, arrivals.size() - 1)];
    b.set("workload.arrival", arrival);
    // The engine's rings take a direction each, on a channel of its own.
    const bool rings = d.chance(0.5);
    b.set("dma.submission", spelling("dma.submission", rings ? 1 : 0));
    if (arrival == "trace") b.p.trace = any_trace(d, rings ? std::stoul(b.get("dma.channels")) : 3);
    b.set("workload.requests", d.log_uniform(1, 64));
    b.set("workload.in_flight", d.log_uniform(1, 16));
    b.set("workload.interarrival_cycles", d.log_uniform(1, 100000));
    b.set("workload.ring_entries", d.log_uniform(1, 200));
    b.set("workload.ring_full", spelling("workload.ring_full", d.uniform(0, 1)));
    const bool polling = d.chance(0.3);
    b.set("workload.completion", spelling("workload.completion", polling ? 1 : 0));
    if (polling) b.set("workload.poll_interval_cycles", d.log_uniform(1, 100000));
}

void workload(Draw& d, Builder& b) {
    const char* scenarios[] = {"throughput", "throughput", "multi_channel", "requests"};
    const std::string scenario = d.pick(scenarios);
    b.set("workload.scenario", scenario);
    if (scenario == "requests") requests(d, b);
    b.set("workload.direction", any_direction(d));
    // A request stream moves many lists: they stay small.
    const uint64_t entries = d.log_uniform(1, scenario == "requests" ? 64 : 4096);
    // Segments shrink with the list so a point's bytes stay bounded.
    const uint64_t largest = std::clamp<uint64_t>(kMaxListBytes / entries, 1, 1u << 20);
    b.set("workload.entries", entries);
    if (d.chance(0.7)) {
        b.set("workload.segment_distribution", spelling("workload.segment_distribution", 0));
        b.set("workload.segment_bytes", d.log_uniform(1, largest));
    } else {
        const uint64_t lo = d.log_uniform(1, largest);
        b.set("workload.segment_distribution", spelling("workload.segment_distribution", 1));
        b.set("workload.segment_bytes_min", lo);
        b.set("workload.segment_bytes_max", d.log_uniform(lo, largest));
    }
    b.set("workload.offset", d.chance(0.5) ? 0 : any_value(d, "workload.offset") | 1);  // odd
    b.set("workload.chain_depth", d.log_uniform(1, std::min<uint64_t>(entries, 64)));
    b.set("workload.seed", d.uniform(0, 1u << 30));
}

void interrupts(Draw& d, Builder& b) {
    b.set("workload.irq_per_descriptor", d.chance(0.3) ? "true" : "false");
    b.set("dma.irq_coalesce_count",
          d.chance(0.5) ? 1 : d.log_uniform(2, key("dma.irq_coalesce_count").int_max));
    b.set("dma.irq_coalesce_timeout_cycles", d.chance(0.5) ? 0 : d.log_uniform(1, 100000));
    b.set("cpu.irq_handler_cycles", d.chance(0.5) ? 0 : d.log_uniform(1, 10000));
    b.set("cpu.per_descriptor_cycles", d.chance(0.5) ? 0 : d.log_uniform(1, 1000));
}

void link(Draw& d, Builder& b) {
    const bool pcie = d.chance(0.3);
    b.set("bus.kind", spelling("bus.kind", pcie ? 1 : 0));
    if (!pcie) return;
    for (const char* k : {"pcie.gen", "pcie.lanes", "pcie.max_payload_bytes",
                          "pcie.max_read_request_bytes", "pcie.read_completion_boundary_bytes"})
        b.set(k, any_value(d, k));
    b.set("pcie.request_header_bytes", d.chance(0.5) ? 12 : 16);
    b.set("pcie.read_latency_cycles", d.log_uniform(1, 2000) - 1);
    b.set("pcie.tags", d.log_uniform(1, 256));
}

// The IOMMU translates every access; its walks are reads on the same RAM
// channel.
void iommu(Draw& d, Builder& b) {
    const bool on = d.chance(0.3);
    b.set("iommu.enabled", on ? "true" : "false");
    if (!on) return;
    b.set("iommu.iotlb_ways", uint64_t{1} << d.uniform(0, 3));
    b.set("iommu.iotlb_entries", uint64_t{1} << d.uniform(0, 9));
    b.set("iommu.page_size", d.chance(0.5) ? "4KiB" : "2MiB");
    b.set("iommu.walk_levels", d.uniform(3, 5));
    b.set("iommu.walk_cache_entries", d.chance(0.5) ? 0 : d.log_uniform(1, 64));
    b.set("iommu.iotlb_hit_cycles", d.uniform(0, 3));
}

/// Whether the model's and the testbench's rules accept the point (a
/// trace's own lines are checked by the run that replays it).
bool valid(const Point& p) {
    std::vector<std::string> sets;
    for (const auto& [key, value] : p.sets)
        if (key != "workload.arrival" || p.trace.empty()) sets.push_back(key + "=" + value);
    try {
        sim::load_config(std::vector<std::string>{}, sets);
        return true;
    } catch (const sim::ConfigError&) {
        return false;
    }
}

// The S2MM write path and the descriptor layouts.
void write_path(Draw& d, Builder& b) {
    b.set("dma.stream_write_policy", spelling("dma.stream_write_policy", d.uniform(0, 2)));
    b.set("dma.stream_write_latency_cycles", d.chance(0.5) ? 0 : d.log_uniform(1, 64));
    b.set("workload.deburst", d.chance(0.2) ? "true" : "false");
    b.set("dma.descriptor_next", spelling("dma.descriptor_next", d.chance(0.5) ? 0 : 1));
    b.set("dma.descriptor_app_words", d.chance(0.5) ? 0 : d.uniform(1, 5));
}

}  // namespace

// Values are drawn key by key within each key's range, with no rule across
// keys restated here: a draw the rules refuse (a buffer smaller than two
// bursts, a coalescing threshold without its timer, IOTLB ways that do not
// divide the entries) is drawn again from the same random stream.
Point generate_point(uint64_t seed) {
    Draw d(seed);
    for (int attempt = 0; attempt < 10000; ++attempt) {
        Builder b;
        b.p.seed = seed;
        platform(d, b);
        workload(d, b);
        interrupts(d, b);
        link(d, b);
        iommu(d, b);
        write_path(d, b);
        if (valid(b.p)) return b.p;
    }
    throw std::logic_error(fmt::format("soak seed {}: no valid point in 10000 draws", seed));
}

std::vector<std::string> set_args(const Point& p, const std::string& trace_path) {
    std::vector<std::string> args;
    for (const auto& [key, value] : p.sets) {
        args.push_back("--set");
        args.push_back(fmt::format("{}={}", key, value));
    }
    if (!p.trace.empty()) {
        args.push_back("--set");
        args.push_back("workload.trace=" + trace_path);
    }
    return args;
}

std::string reproducer(const Point& p, const std::string& trace_path) {
    return fmt::format("dmasim run {}", fmt::join(set_args(p, trace_path), " "));
}

}  // namespace dmasim::soak
