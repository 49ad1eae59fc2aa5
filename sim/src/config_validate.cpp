// config_validate.cpp - checks that involve more than one key. Single-key
// type and range checks live in the key table (config_value.cpp).
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include <algorithm>

#include "config_loader.h"

namespace dmasim::sim {
namespace {

constexpr uint64_t kPageBytes = 4096;
constexpr uint64_t kCompactMemoryMib = 4096;  // 4 GiB: what 32-bit addresses reach

uint64_t pages_for(uint64_t offset, uint64_t bytes) {
    return (offset + bytes + kPageBytes - 1) / kPageBytes;
}

/// Largest segment the workload can draw, or 0 if unbounded (lognormal).
uint64_t largest_segment(const tb::WorkloadConfig& w) {
    switch (w.distribution) {
        case tb::SizeDistribution::fixed:
            return w.segment_bytes;
        case tb::SizeDistribution::uniform:
            return w.segment_bytes_max;
        case tb::SizeDistribution::lognormal:
            break;
    }
    return 0;
}

// A fragment block of the page-fragment allocator (sglist's
// PAGE_FRAG_CACHE_MAX_SIZE): packed segments up to this size share blocks.
constexpr uint64_t kFragmentBlockBytes = 8 * kPageBytes;

/// Page frames one list of `entries` segments of at most `segment` bytes takes.
uint64_t list_pages(const tb::WorkloadConfig& w, uint64_t segment) {
    if (w.buffers == tb::Buffers::packed && segment <= kFragmentBlockBytes) {
        const uint64_t per_block = kFragmentBlockBytes / segment;
        return (w.entries + per_block - 1) / per_block * (kFragmentBlockBytes / kPageBytes);
    }
    const uint64_t offset = w.buffers == tb::Buffers::packed ? 0 : w.offset;
    return w.entries * pages_for(offset, segment);
}

unsigned scenario_traits(const std::string& name) {
    const tb::ScenarioInfo* s = tb::ScenarioRegistry::instance().find(name);
    return s ? s->traits : 0;
}

}  // namespace

void ConfigBuilder::validate() const {
    const auto& w = config_.workload;
    const auto& p = config_.platform;
    auto require = [this](bool ok, const std::vector<std::string>& keys,
                          const std::string& message) {
        if (!ok) throw ConfigError(origin(keys), message, keys);
    };

    require(w.chain_depth <= w.entries, {"workload.chain_depth", "workload.entries"},
            fmt::format("workload.chain_depth = {} must be at most workload.entries = {} "
                        "(each descriptor chunk holds at least one entry)",
                        w.chain_depth, w.entries));
    require(w.distribution != tb::SizeDistribution::uniform ||
                w.segment_bytes_min <= w.segment_bytes_max,
            {"workload.segment_bytes_min", "workload.segment_bytes_max"},
            fmt::format("workload.segment_bytes_min = {} must be at most "
                        "workload.segment_bytes_max = {}",
                        w.segment_bytes_min, w.segment_bytes_max));

    const uint64_t largest_burst =
        std::min<uint64_t>(uint64_t{p.dma.max_burst_beats} * p.bus.width_bytes, kPageBytes);
    // Two, so one burst can fill while the previous one drains (the model
    // refuses less).
    require(p.dma.buffer_bytes >= 2 * largest_burst,
            {"dma.buffer_bytes", "dma.max_burst_beats", "bus.width_bytes"},
            fmt::format("dma.buffer_bytes = {} must hold two bursts of {} bytes "
                        "(dma.max_burst_beats x bus.width_bytes, at most 4096)",
                        p.dma.buffer_bytes, largest_burst));
    require(p.dma.read_refill_bytes <= p.dma.buffer_bytes,
            {"dma.read_refill_bytes", "dma.buffer_bytes"},
            fmt::format("dma.read_refill_bytes = {} must be at most dma.buffer_bytes = {} "
                        "(0 = one burst)",
                        p.dma.read_refill_bytes, p.dma.buffer_bytes));
    // Compact descriptors hold 32-bit addresses: every buffer and descriptor
    // chunk must lie below 4 GiB, so RAM may not extend past it.
    require(p.dma.descriptor_bytes != 16 || config_.memory_size_mib <= kCompactMemoryMib,
            {"dma.descriptor_bytes", "memory.size_mib"},
            fmt::format("dma.descriptor_bytes = 16 (compact, 32-bit addresses) needs every "
                        "buffer and descriptor chunk below 4 GiB, but memory.size_mib = {} "
                        "places pages above it: use memory.size_mib <= {} or "
                        "dma.descriptor_bytes = 32 or 64",
                        config_.memory_size_mib, kCompactMemoryMib));
    require(p.dma.fault.kind == model::FaultKind::none || p.dma.fault.channel < p.dma.channels,
            {"fault.channel", "dma.channels"},
            fmt::format("fault.channel = {} names no channel: dma.channels = {}",
                        p.dma.fault.channel, p.dma.channels));

    require(w.buffers != tb::Buffers::packed || w.offset == 0,
            {"workload.buffers", "workload.offset"},
            fmt::format("workload.buffers = packed lays segments back to back, so "
                        "workload.offset = {} must be 0",
                        w.offset));
    const unsigned traits = scenario_traits(w.scenario);
    require(w.payload == tb::Payload::checked || !(traits & tb::kChecksMemory),
            {"workload.payload", "workload.scenario"},
            fmt::format("workload.payload = none leaves scenario {} nothing to check (it checks "
                        "memory contents): use workload.payload = checked",
                        w.scenario));
    // The engine stops a list beyond its limits with CHAIN_LOOP; refuse it
    // now rather than after simulating, unless the scenario means to.
    if (!(traits & tb::kInjectsErrors)) {
        require(w.chain_depth - 1 <= p.dma.max_chain_depth,
                {"workload.chain_depth", "dma.max_chain_depth"},
                fmt::format("workload.chain_depth = {} makes {} chain links, more than "
                            "dma.max_chain_depth = {}: the engine would stop with CHAIN_LOOP; "
                            "raise dma.max_chain_depth or lower workload.chain_depth",
                            w.chain_depth, w.chain_depth - 1, p.dma.max_chain_depth));
        require(w.entries <= p.dma.max_descriptors, {"workload.entries", "dma.max_descriptors"},
                fmt::format("workload.entries = {} descriptors are more than "
                            "dma.max_descriptors = {}: the engine would stop with CHAIN_LOOP; "
                            "raise dma.max_descriptors or shorten the list",
                            w.entries, p.dma.max_descriptors));
    }

    if (uint64_t segment = largest_segment(w)) {
        const uint64_t buffers = w.direction == tb::Direction::mem_to_mem ? 2 : 1;
        const uint64_t pages = list_pages(w, segment) * buffers;
        const uint64_t available = config_.memory_size_mib * (1024 * 1024 / kPageBytes);
        require(pages <= available,
                {"workload.entries", "workload.segment_bytes", "memory.size_mib"},
                fmt::format("the workload's buffers need {} MiB of pages but memory.size_mib "
                            "is {}: raise memory.size_mib or shrink the list",
                            (pages * kPageBytes + (1 << 20) - 1) >> 20, config_.memory_size_mib));
    }
}

}  // namespace dmasim::sim
