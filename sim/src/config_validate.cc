// config_validate.cc - checks that involve more than one key. Single-key
// type and range checks live in the key table (config_value.cc).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
        case tb::SizeDistribution::lognormal:  // drawn sizes are clamped to [min, max]
            return w.segment_bytes_max;
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

/// Why clock_mhz cannot be modelled exactly, or empty: time is counted in
/// whole picoseconds (SystemC's resolution), so the period must be one (to
/// 0.0001 ps, so that 333.333333 MHz is the 3000 ps clock it means).
std::string clock_error(double mhz) {
    const double period_ps = 1e6 / mhz;
    const double whole = std::round(period_ps);
    if (whole >= 1 && std::abs(period_ps - whole) <= 1e-4) return {};
    const double below = std::max(1.0, std::floor(period_ps)), above = std::ceil(period_ps);
    return fmt::format(
        "clock_mhz = {} has a period of {:.4f} ps; the model counts time in whole picoseconds, "
        "so choose a clock whose period is whole, e.g. {:.10g} MHz ({} ps) or {:.10g} MHz ({} ps)",
        mhz, period_ps, 1e6 / below, below, 1e6 / above, above);
}

}  // namespace

void ConfigBuilder::require(bool ok, const std::vector<std::string>& keys,
                            const std::string& message) const {
    if (!ok) throw ConfigError(origin(keys), message, keys);
}

void ConfigBuilder::validate() const {
    const auto& w = config_.workload;
    const auto& p = config_.platform;
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

    // The controller's own rules come from the model (one owner per rule).
    const std::vector<model::ParamProblem> model_problems = model::validate(p.dma, p.bus, p.iommu);
    if (!model_problems.empty()) {
        const model::ParamProblem& first = model_problems.front();
        throw ConfigError(origin(first.keys), first.message, first.keys);
    }
    // Compact descriptors hold 32-bit addresses: every buffer and descriptor
    // chunk must lie below 4 GiB, so RAM may not extend past it.
    require(p.dma.descriptor_bytes != 16 || config_.memory_size_mib <= kCompactMemoryMib,
            {"dma.descriptor_bytes", "memory.size_mib"},
            fmt::format("dma.descriptor_bytes = 16 (compact, 32-bit addresses) needs every "
                        "buffer and descriptor chunk below 4 GiB, but memory.size_mib = {} "
                        "places pages above it: use memory.size_mib <= {} or "
                        "dma.descriptor_bytes = 32 or 64",
                        config_.memory_size_mib, kCompactMemoryMib));

    require(p.dma.fault.kind != model::FaultKind::translation || p.iommu.enabled,
            {"fault.kind", "iommu.enabled"},
            "fault.kind = translation revokes an IOMMU mapping, so it needs iommu.enabled = true");

    require(w.buffers != tb::Buffers::packed || w.offset == 0,
            {"workload.buffers", "workload.offset"},
            fmt::format("workload.buffers = packed lays segments back to back, so "
                        "workload.offset = {} must be 0",
                        w.offset));

    const std::string clock_why = clock_error(p.clock_mhz);
    require(clock_why.empty(), {"clock_mhz"}, clock_why);
    const double bandwidth = p.memory.bandwidth_bytes_per_cycle;
    require(bandwidth == 0 || bandwidth >= model::kMinBandwidthBytesPerCycle,
            {"memory.bandwidth_bytes_per_cycle"},
            fmt::format("memory.bandwidth_bytes_per_cycle = {} is outside the allowed range: 0 "
                        "(no cap) or {} to 4096",
                        bandwidth, model::kMinBandwidthBytesPerCycle));
    require(w.distribution != tb::SizeDistribution::lognormal ||
                (w.segment_bytes_min <= w.segment_bytes && w.segment_bytes <= w.segment_bytes_max),
            {"workload.segment_bytes", "workload.segment_bytes_min", "workload.segment_bytes_max"},
            fmt::format("lognormal sizes are clamped to [workload.segment_bytes_min, "
                        "workload.segment_bytes_max] = [{}, {}], so their mean "
                        "workload.segment_bytes = {} must lie in that range",
                        w.segment_bytes_min, w.segment_bytes_max, w.segment_bytes));

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
