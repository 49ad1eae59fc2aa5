// soak_point.cc - draws soak points. Sizes are log-uniform so small and
// large lists, and tiny and huge segments, are all common.
#include "soak_point.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

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

struct Builder {
    Point p;
    void set(const std::string& key, const std::string& value) { p.sets.emplace_back(key, value); }
    void set(const std::string& key, uint64_t value) { set(key, std::to_string(value)); }
};

void platform(Draw& d, Builder& b) {
    b.set("memory.size_mib", kMemoryMib);
    b.set("bus.width_bytes", uint64_t{1} << d.uniform(2, 6));
    b.set("bus.interconnect_latency_cycles", d.log_uniform(1, 64) - 1);
    b.set("memory.read_latency_cycles", d.log_uniform(1, 400) - 1);
    b.set("memory.write_latency_cycles", d.log_uniform(1, 200) - 1);
    b.set("memory.placement", d.chance(0.5) ? "scattered" : "contiguous");
    b.set("dma.channels", d.uniform(1, 4));
    b.set("dma.descriptor_format", d.chance(0.5) ? "chained_pages" : "linked_list");
    b.set("dma.max_burst_beats", d.log_uniform(1, 64));
    b.set("dma.max_outstanding_reads", d.log_uniform(1, 32));
    b.set("dma.max_outstanding_writes", d.log_uniform(1, 32));
    b.set("dma.descriptor_prefetch", d.log_uniform(1, 32));
    b.set("dma.descriptor_fetch", d.chance(0.8) ? "burst" : "word");
    b.set("dma.write_policy", d.chance(0.7) ? "cut_through" : "store_and_forward");
    b.set("dma.descriptor_overlap", d.chance(0.7) ? "true" : "false");
    // 8 KiB holds two of the largest bursts (4 KiB), which the model
    // requires (dmasim's own check asks for only one).
    b.set("dma.buffer_bytes", d.log_uniform(8192, 65536));
    const char* rates[] = {"0.5", "1", "4", "16", "64"};
    b.set("device.rate_bytes_per_cycle", d.pick(rates));
}

void workload(Draw& d, Builder& b) {
    const char* scenarios[] = {"throughput", "throughput", "multi_channel"};
    const char* directions[] = {"mem_to_mem", "dev_to_mem", "mem_to_dev"};
    b.set("workload.scenario", d.pick(scenarios));
    b.set("workload.direction", d.pick(directions));
    const uint64_t entries = d.log_uniform(1, 4096);
    // Segments shrink with the list so a point's bytes stay bounded.
    const uint64_t largest = std::clamp<uint64_t>(kMaxListBytes / entries, 1, 1u << 20);
    b.set("workload.entries", entries);
    if (d.chance(0.7)) {
        b.set("workload.segment_distribution", "fixed");
        b.set("workload.segment_bytes", d.log_uniform(1, largest));
    } else {
        const uint64_t lo = d.log_uniform(1, largest);
        b.set("workload.segment_distribution", "uniform");
        b.set("workload.segment_bytes_min", lo);
        b.set("workload.segment_bytes_max", d.log_uniform(lo, largest));
    }
    b.set("workload.offset", d.chance(0.5) ? 0 : d.uniform(0, 4095) | 1);  // odd offsets
    b.set("workload.chain_depth", d.log_uniform(1, std::min<uint64_t>(entries, 64)));
    b.set("workload.seed", d.uniform(0, 1u << 30));
}

// Drawn last, so the keys above keep the values earlier soaks drew.
void interrupts(Draw& d, Builder& b) {
    b.set("workload.irq_per_descriptor", d.chance(0.3) ? "true" : "false");
    const uint64_t count = d.chance(0.5) ? 1 : d.log_uniform(2, 255);
    b.set("dma.irq_coalesce_count", count);
    // A threshold needs the delay timer (validation refuses 0).
    b.set("dma.irq_coalesce_timeout_cycles", count == 1 ? 0 : d.log_uniform(1, 100000));
    b.set("cpu.irq_handler_cycles", d.chance(0.5) ? 0 : d.log_uniform(1, 10000));
    b.set("cpu.per_descriptor_cycles", d.chance(0.5) ? 0 : d.log_uniform(1, 1000));
}

// Drawn after interrupts(), for the same reason.
void link(Draw& d, Builder& b) {
    const bool pcie = d.chance(0.3);
    b.set("bus.kind", pcie ? "pcie" : "axi");
    if (!pcie) return;
    b.set("pcie.gen", d.uniform(1, 5));
    b.set("pcie.lanes", uint64_t{1} << d.uniform(0, 5));
    b.set("pcie.max_payload_bytes", uint64_t{128} << d.uniform(0, 5));
    b.set("pcie.max_read_request_bytes", uint64_t{128} << d.uniform(0, 5));
    b.set("pcie.read_completion_boundary_bytes", d.chance(0.5) ? 64 : 128);
    b.set("pcie.request_header_bytes", d.chance(0.5) ? 12 : 16);
    b.set("pcie.read_latency_cycles", d.log_uniform(1, 2000) - 1);
    b.set("pcie.tags", d.log_uniform(1, 256));
}

// Drawn after link(), for the same reason. The IOMMU translates every
// access; its walks are reads on the same RAM channel.
void iommu(Draw& d, Builder& b) {
    const bool on = d.chance(0.3);
    b.set("iommu.enabled", on ? "true" : "false");
    if (!on) return;
    const uint64_t ways = uint64_t{1} << d.uniform(0, 3);
    b.set("iommu.iotlb_ways", ways);
    b.set("iommu.iotlb_entries", ways * (uint64_t{1} << d.uniform(0, 6)));
    b.set("iommu.page_size", d.chance(0.5) ? "4KiB" : "2MiB");
    b.set("iommu.walk_levels", d.uniform(3, 5));
    b.set("iommu.walk_cache_entries", d.chance(0.5) ? 0 : d.log_uniform(1, 64));
    b.set("iommu.iotlb_hit_cycles", d.uniform(0, 3));
}

}  // namespace

Point generate_point(uint64_t seed) {
    Draw d(seed);
    Builder b;
    b.p.seed = seed;
    platform(d, b);
    workload(d, b);
    interrupts(d, b);
    link(d, b);
    iommu(d, b);
    return b.p;
}

std::vector<std::string> set_args(const Point& p) {
    std::vector<std::string> args;
    for (const auto& [key, value] : p.sets) {
        args.push_back("--set");
        args.push_back(fmt::format("{}={}", key, value));
    }
    return args;
}

std::string reproducer(const Point& p) {
    return fmt::format("dmasim run {}", fmt::join(set_args(p), " "));
}

}  // namespace dmasim::soak
