// params.cc - the model's own rules on its parameters, stated once: the
// controller enforces them and sim/ reports them (docs/configuration.md).
#include <dmasim/hw/dma_hw.h>
#include <dmasim/hw/iommu_hw.h>
#include <dmasim/model/params.h>
#include <fmt/format.h>

#include <algorithm>

namespace dmasim::model {
namespace {
bool power_of_two_in(uint64_t v, uint64_t lo, uint64_t hi) {
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}
}  // namespace

std::vector<ParamProblem> validate(const DmaParams& p, const BusParams& bus,
                                   const IommuParams& iommu) {
    std::vector<ParamProblem> problems;
    auto require = [&problems](bool ok, std::vector<std::string> keys, std::string message) {
        if (!ok) problems.push_back({std::move(keys), std::move(message)});
    };
    require(p.channels >= 1 && p.channels <= DMA_MAX_CHANNELS, {"dma.channels"},
            fmt::format("dma.channels = {} is outside 1 .. {}", p.channels, DMA_MAX_CHANNELS));
    const unsigned w = bus.width_bytes;
    require(w >= 1 && w <= 128 && (w & (w - 1)) == 0, {"bus.width_bytes"},
            fmt::format("bus.width_bytes = {} must be a power of two 1 .. 128", w));
    require(p.max_burst_beats >= 1, {"dma.max_burst_beats"}, "dma.max_burst_beats must be >= 1");
    require(p.max_outstanding_reads >= 1, {"dma.max_outstanding_reads"},
            "dma.max_outstanding_reads must be >= 1");
    require(p.max_outstanding_writes >= 1, {"dma.max_outstanding_writes"},
            "dma.max_outstanding_writes must be >= 1");
    require(p.descriptor_prefetch >= 1, {"dma.descriptor_prefetch"},
            "dma.descriptor_prefetch must be >= 1");
    require(p.descriptor_bytes == 16 || p.descriptor_bytes == 32 || p.descriptor_bytes == 64,
            {"dma.descriptor_bytes"},
            fmt::format("dma.descriptor_bytes = {} must be 16, 32 or 64", p.descriptor_bytes));

    // Two bursts, so one can fill while the previous one drains.
    const uint64_t largest_burst = std::min<uint64_t>(uint64_t{p.max_burst_beats} * w, 4096);
    require(p.buffer_bytes >= 2 * largest_burst,
            {"dma.buffer_bytes", "dma.max_burst_beats", "bus.width_bytes"},
            fmt::format("dma.buffer_bytes = {} must hold two bursts of {} bytes "
                        "(dma.max_burst_beats x bus.width_bytes, at most 4096)",
                        p.buffer_bytes, largest_burst));
    require(p.read_refill_bytes <= p.buffer_bytes, {"dma.read_refill_bytes", "dma.buffer_bytes"},
            fmt::format("dma.read_refill_bytes = {} must be at most dma.buffer_bytes = {} "
                        "(0 = one burst)",
                        p.read_refill_bytes, p.buffer_bytes));
    require(p.fault.kind == FaultKind::none || p.fault.channel < p.channels,
            {"fault.channel", "dma.channels"},
            fmt::format("fault.channel = {} names no channel: dma.channels = {}", p.fault.channel,
                        p.channels));
    // Completions below the threshold need the delay timer to be reported
    // before the channel stops (PG021 pairs IRQThreshold with IRQDelay).
    require(p.irq_coalesce_count >= 1, {"dma.irq_coalesce_count"},
            "dma.irq_coalesce_count must be >= 1 (1 = an interrupt per completion)");
    require(p.irq_coalesce_count <= 1 || p.irq_coalesce_timeout_cycles > 0,
            {"dma.irq_coalesce_count", "dma.irq_coalesce_timeout_cycles"},
            fmt::format("dma.irq_coalesce_count = {} coalesces interrupts, so "
                        "dma.irq_coalesce_timeout_cycles = 0 is not allowed: give the delay "
                        "timer at least 1 cycle, or set dma.irq_coalesce_count = 1",
                        p.irq_coalesce_count));

    // The PCIe link (docs/pcie.md).
    const PcieParams& e = bus.pcie;
    require(e.gen >= 1 && e.gen <= 5, {"pcie.gen"},
            fmt::format("pcie.gen = {} must be 1 to 5", e.gen));
    require(power_of_two_in(e.lanes, 1, 32), {"pcie.lanes"},
            fmt::format("pcie.lanes = {} must be 1, 2, 4, 8, 16 or 32", e.lanes));
    require(power_of_two_in(e.max_payload_bytes, 128, 4096), {"pcie.max_payload_bytes"},
            fmt::format("pcie.max_payload_bytes = {} must be a power of two from 128 to 4096",
                        e.max_payload_bytes));
    require(power_of_two_in(e.max_read_request_bytes, 128, 4096), {"pcie.max_read_request_bytes"},
            fmt::format("pcie.max_read_request_bytes = {} must be a power of two from 128 to 4096",
                        e.max_read_request_bytes));
    require(e.read_completion_boundary_bytes == 64 || e.read_completion_boundary_bytes == 128,
            {"pcie.read_completion_boundary_bytes"},
            fmt::format("pcie.read_completion_boundary_bytes = {} must be 64 or 128",
                        e.read_completion_boundary_bytes));
    require(e.request_header_bytes == 12 || e.request_header_bytes == 16,
            {"pcie.request_header_bytes"},
            fmt::format("pcie.request_header_bytes = {} must be 12 (32-bit addresses) or 16 "
                        "(64-bit addresses)",
                        e.request_header_bytes));
    require(e.tags >= 1, {"pcie.tags"}, "pcie.tags must be at least 1");
    require(e.dllp_overhead >= 0 && e.dllp_overhead <= 0.5, {"pcie.dllp_overhead"},
            fmt::format("pcie.dllp_overhead = {} must be 0 to 0.5", e.dllp_overhead));
    std::vector<ParamProblem> iommu_problems = validate_iommu(iommu);
    problems.insert(problems.end(), iommu_problems.begin(), iommu_problems.end());
    return problems;
}

// Checked whether or not the IOMMU is enabled, so a config that turns it
// on later cannot carry a bad value unnoticed.
std::vector<ParamProblem> validate_iommu(const IommuParams& m) {
    std::vector<ParamProblem> problems;
    auto require = [&problems](bool ok, std::vector<std::string> keys, std::string message) {
        if (!ok) problems.push_back({std::move(keys), std::move(message)});
    };
    constexpr unsigned kMaxEntries = 65536, kMaxWalkCache = 4096, kMaxHitCycles = 1000;
    require(
        m.iotlb_entries >= 1 && m.iotlb_entries <= kMaxEntries, {"iommu.iotlb_entries"},
        fmt::format("iommu.iotlb_entries = {} is outside 1 .. {}", m.iotlb_entries, kMaxEntries));
    const bool ways_ok =
        m.iotlb_ways >= 1 && m.iotlb_ways <= m.iotlb_entries && m.iotlb_entries % m.iotlb_ways == 0;
    require(ways_ok, {"iommu.iotlb_ways", "iommu.iotlb_entries"},
            fmt::format("iommu.iotlb_ways = {} must be at least 1 and divide "
                        "iommu.iotlb_entries = {}",
                        m.iotlb_ways, m.iotlb_entries));
    if (ways_ok && m.iotlb_entries >= 1) {
        const unsigned sets = m.iotlb_entries / m.iotlb_ways;
        require((sets & (sets - 1)) == 0, {"iommu.iotlb_entries", "iommu.iotlb_ways"},
                fmt::format("iommu.iotlb_entries / iommu.iotlb_ways = {} / {} = {} sets must be "
                            "a power of two (the set index is IOVA bits)",
                            m.iotlb_entries, m.iotlb_ways, sets));
    }
    require(m.page_bytes == 4096 || m.page_bytes == 2097152, {"iommu.page_size"},
            fmt::format("iommu.page_size = {} must be 4096 or 2097152: the sglist IOMMU layer "
                        "maps 4 KiB and 2 MiB pages",
                        m.page_bytes));
    require(m.walk_levels >= IOMMU_MIN_LEVELS && m.walk_levels <= IOMMU_MAX_LEVELS,
            {"iommu.walk_levels"},
            fmt::format("iommu.walk_levels = {} is outside {} .. {}", m.walk_levels,
                        IOMMU_MIN_LEVELS, IOMMU_MAX_LEVELS));
    require(m.walk_cache_entries <= kMaxWalkCache, {"iommu.walk_cache_entries"},
            fmt::format("iommu.walk_cache_entries = {} is outside 0 .. {}", m.walk_cache_entries,
                        kMaxWalkCache));
    require(m.iotlb_hit_cycles <= kMaxHitCycles, {"iommu.iotlb_hit_cycles"},
            fmt::format("iommu.iotlb_hit_cycles = {} is outside 0 .. {}", m.iotlb_hit_cycles,
                        kMaxHitCycles));
    return problems;
}

}  // namespace dmasim::model
