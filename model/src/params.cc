// params.cc - the model's own rules on its parameters, stated once: the
// controller enforces them, sim/ reports them and docs/configuration.md
// lists them.
#include <dmasim/model/params.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "burst.h"
#include "dram_timing.h"

namespace dmasim::model {
namespace {

/// The table's row of `key`, which exists.
const ParamDef<PlatformParams>& row(std::string_view key) {
    for (const ParamDef<PlatformParams>& r : param_table())
        if (r.key == key) return r;
    throw std::logic_error(fmt::format("no parameter {}", key));
}

/// Largest data burst in bytes: bursts never cross kBurstBoundary.
uint64_t largest_burst(const PlatformParams& p) {
    return std::min<uint64_t>(uint64_t{p.dma.max_burst_beats} * p.bus.width_bytes, kBurstBoundary);
}

const std::vector<CheckedRule<PlatformParams>>& checked_rules() {
    static const std::vector<CheckedRule<PlatformParams>> table = {
        // Two bursts, so one can fill while the previous one drains.
        {{{"dma.buffer_bytes", "dma.max_burst_beats", "bus.width_bytes"},
          fmt::format("`dma.buffer_bytes` must hold two bursts: 2 x min(`dma.max_burst_beats` x "
                      "`bus.width_bytes`, {}) bytes",
                      kBurstBoundary)},
         [](const PlatformParams& p) -> std::string {
             if (p.dma.buffer_bytes >= 2 * largest_burst(p)) return {};
             return fmt::format(
                 "dma.buffer_bytes = {} must hold two bursts of {} bytes "
                 "(dma.max_burst_beats x bus.width_bytes, at most {})",
                 p.dma.buffer_bytes, largest_burst(p), kBurstBoundary);
         }},
        {{{"dma.read_refill_bytes", "dma.buffer_bytes"},
          "`dma.read_refill_bytes` must be at most `dma.buffer_bytes`"},
         [](const PlatformParams& p) -> std::string {
             if (p.dma.read_refill_bytes <= p.dma.buffer_bytes) return {};
             return fmt::format(
                 "dma.read_refill_bytes = {} must be at most dma.buffer_bytes = "
                 "{} (0 = one burst)",
                 p.dma.read_refill_bytes, p.dma.buffer_bytes);
         }},
        // A 16-byte slot has no room for a 64-bit next pointer.
        {{{"dma.descriptor_next", "dma.descriptor_bytes"},
          "`dma.descriptor_next: in_slot` needs `dma.descriptor_bytes` 32 or 64"},
         [](const PlatformParams& p) -> std::string {
             if (p.dma.descriptor_next == DescriptorNext::appended ||
                 p.dma.descriptor_bytes != DMA_HW_DESC16_SIZE)
                 return {};
             return fmt::format(
                 "dma.descriptor_next = in_slot puts a 64-bit next pointer inside the slot, "
                 "which dma.descriptor_bytes = {} has no room for: use 32 or 64, or "
                 "dma.descriptor_next = appended (24-byte linked descriptors)",
                 p.dma.descriptor_bytes);
         }},
        // A port wider than the bus it reaches memory through could not be fed.
        {{{"dma.descriptor_port_width_bytes", "bus.width_bytes"},
          "with `dma.descriptor_port: separate`, `dma.descriptor_port_width_bytes` must be at "
          "most `bus.width_bytes`"},
         [](const PlatformParams& p) -> std::string {
             if (p.dma.descriptor_port == DescriptorPort::shared ||
                 p.dma.descriptor_port_width_bytes <= p.bus.width_bytes)
                 return {};
             return fmt::format(
                 "dma.descriptor_port_width_bytes = {} is wider than bus.width_bytes = {}: a "
                 "separate descriptor port reaches memory through the bus, so at most {}",
                 p.dma.descriptor_port_width_bytes, p.bus.width_bytes, p.bus.width_bytes);
         }},
        // An overlapping mover starts the next descriptor while this one
        // drains: it has no launch between them to pay.
        {{{"dma.descriptor_launch_cycles", "dma.data_overlap"},
          "`dma.descriptor_launch_cycles` above 0 needs `dma.data_overlap: false`"},
         [](const PlatformParams& p) -> std::string {
             if (p.dma.descriptor_launch_cycles == 0 || !p.dma.data_overlap) return {};
             return fmt::format(
                 "dma.descriptor_launch_cycles = {} is the launch of a serial data mover, so it "
                 "needs dma.data_overlap = false",
                 p.dma.descriptor_launch_cycles);
         }},
        {{{"fault.channel", "dma.channels"},
          "with `fault.kind` other than `none`, `fault.channel` must be below `dma.channels`"},
         [](const PlatformParams& p) -> std::string {
             const FaultParams& f = p.dma.fault;
             if (f.kind == FaultKind::none || f.channel < p.dma.channels) return {};
             return fmt::format("fault.channel = {} names no channel: dma.channels = {}", f.channel,
                                p.dma.channels);
         }},
        // Completions below the threshold need the delay timer to be
        // reported before the channel stops (PG021 pairs IRQThreshold with
        // IRQDelay).
        {{{"dma.irq_coalesce_count", "dma.irq_coalesce_timeout_cycles"},
          "`dma.irq_coalesce_count` above 1 needs `dma.irq_coalesce_timeout_cycles` of at "
          "least 1"},
         [](const PlatformParams& p) -> std::string {
             if (p.dma.irq_coalesce_count <= 1 || p.dma.irq_coalesce_timeout_cycles > 0) return {};
             return fmt::format(
                 "dma.irq_coalesce_count = {} coalesces interrupts, so "
                 "dma.irq_coalesce_timeout_cycles = 0 is not allowed: give the "
                 "delay timer at least 1 cycle, or set dma.irq_coalesce_count = 1",
                 p.dma.irq_coalesce_count);
         }},
        // The IOTLB's set index is IOVA bits (checked whether or not the
        // IOMMU is on, so a config that turns it on later carries no bad value).
        {{{"iommu.iotlb_ways", "iommu.iotlb_entries"},
          "`iommu.iotlb_ways` must divide `iommu.iotlb_entries` into a power-of-two number of "
          "sets"},
         [](const PlatformParams& p) -> std::string {
             const IommuParams& m = p.iommu;
             if (m.iotlb_ways == 0 || m.iotlb_entries == 0) return {};  // ranges report these
             const unsigned sets = m.iotlb_entries / m.iotlb_ways;
             if (m.iotlb_entries % m.iotlb_ways == 0 && (sets & (sets - 1)) == 0) return {};
             return fmt::format(
                 "iommu.iotlb_ways = {} must divide iommu.iotlb_entries = {} into a power-of-two "
                 "number of sets (the set index is IOVA bits)",
                 m.iotlb_ways, m.iotlb_entries);
         }},
        // Time is counted in whole picoseconds (SystemC's resolution), so
        // the period must be one (to 0.0001 ps, so that 333.333333 MHz is
        // the 3000 ps clock it means).
        {{{"clock_mhz"}, "the period of `clock_mhz` must be a whole number of picoseconds"},
         [](const PlatformParams& p) -> std::string {
             const double period_ps = 1e6 / p.clock_mhz;
             const double whole = std::round(period_ps);
             if (whole >= 1 && std::abs(period_ps - whole) <= 1e-4) return {};
             const double below = std::max(1.0, std::floor(period_ps));
             const double above = std::ceil(period_ps);
             return fmt::format(
                 "clock_mhz = {} has a period of {:.4f} ps; the model counts time in whole "
                 "picoseconds, so choose a clock whose period is whole, e.g. {:.10g} MHz ({} "
                 "ps) or {:.10g} MHz ({} ps)",
                 p.clock_mhz, period_ps, 1e6 / below, below, 1e6 / above, above);
         }},
        // A drain must start below a full queue and leave writes behind it.
        {{{"memory.write_low_watermark", "memory.write_high_watermark", "memory.write_queue"},
          "`memory.write_low_watermark` must be below `memory.write_high_watermark`, which must "
          "be at most `memory.write_queue`"},
         [](const PlatformParams& p) -> std::string {
             const MemoryParams& m = p.memory;
             if (m.write_low_watermark < m.write_high_watermark &&
                 m.write_high_watermark <= m.write_queue)
                 return {};
             return fmt::format(
                 "memory.write_low_watermark = {} must be below memory.write_high_watermark = "
                 "{}, which must be at most memory.write_queue = {}",
                 m.write_low_watermark, m.write_high_watermark, m.write_queue);
         }},
        {{{"memory.t_rc_ns", "memory.t_ras_ns"},
          "`memory.t_rc_ns` must be at least `memory.t_ras_ns`"},
         [](const PlatformParams& p) -> std::string {
             if (p.memory.t_rc_ns >= p.memory.t_ras_ns) return {};
             return fmt::format(
                 "memory.t_rc_ns = {} must be at least memory.t_ras_ns = {} (a row "
                 "is open tRAS of its tRC)",
                 p.memory.t_rc_ns, p.memory.t_ras_ns);
         }},
        {{{"memory.t_rfc_ns", "memory.t_refi_ns"},
          "`memory.t_rfc_ns` must be below `memory.t_refi_ns` (unless that is 0: no refresh)"},
         [](const PlatformParams& p) -> std::string {
             if (p.memory.t_refi_ns == 0 || p.memory.t_rfc_ns < p.memory.t_refi_ns) return {};
             return fmt::format(
                 "memory.t_rfc_ns = {} must be below memory.t_refi_ns = {}: a "
                 "refresh would never end",
                 p.memory.t_rfc_ns, p.memory.t_refi_ns);
         }},
        // A DRAM run crossing a refresh is taken again after it, so one
        // burst from a closed row must fit between two refreshes.
        {{{"memory.t_refi_ns", "memory.t_rfc_ns", "memory.t_rcd_ns", "memory.t_cl_clocks",
           "memory.t_cwl_clocks", "memory.burst_length", "memory.data_rate_mts"},
          "one DRAM burst from a closed row (`memory.t_rcd_ns`, then `memory.t_cl_clocks` or "
          "`memory.t_cwl_clocks`, then `memory.burst_length` / 2 clocks of data, at "
          "`memory.data_rate_mts`) must fit in `memory.t_refi_ns` less `memory.t_rfc_ns`"},
         [](const PlatformParams& p) -> std::string {
             const MemoryParams& m = p.memory;
             if (dram_longest_run(m, false) > 0 && dram_longest_run(m, true) > 0) return {};
             return fmt::format(
                 "one DRAM burst does not fit between two refreshes: memory.t_rcd_ns = {}, then "
                 "memory.t_cl_clocks = {} or memory.t_cwl_clocks = {}, then burst_length / 2 = "
                 "{} clocks of data at {} MT/s must end within memory.t_refi_ns = {} less "
                 "memory.t_rfc_ns = {}, or every refresh would cut it",
                 m.t_rcd_ns, m.t_cl_clocks, m.t_cwl_clocks, m.burst_length / 2, m.data_rate_mts,
                 m.t_refi_ns, m.t_rfc_ns);
         }},
        // Below the minimum a burst's occupancy (beats x width / bandwidth)
        // leaves the range cycles are counted in.
        {{{"memory.bandwidth_bytes_per_cycle"},
          fmt::format("`memory.bandwidth_bytes_per_cycle` must be 0 (no cap) or at least {}",
                      kMinBandwidthBytesPerCycle)},
         [](const PlatformParams& p) -> std::string {
             const double b = p.memory.bandwidth_bytes_per_cycle;
             if (b == 0 || b >= kMinBandwidthBytesPerCycle) return {};
             return fmt::format(
                 "memory.bandwidth_bytes_per_cycle = {} is outside the allowed "
                 "range: 0 (no cap) or {} to {}",
                 b, kMinBandwidthBytesPerCycle, row("memory.bandwidth_bytes_per_cycle").real_range.max);
         }},
    };
    return table;
}

}  // namespace

std::optional<ParamProblem> range_problem(const std::string& key, uint64_t value,
                                          const IntRange& range) {
    if (!range.values.empty()) {
        if (std::find(range.values.begin(), range.values.end(), value) != range.values.end())
            return std::nullopt;
        return ParamProblem{
            {key},
            fmt::format("{} = {} is not one of {}", key, value, fmt::join(range.values, ", "))};
    }
    const bool power_of_two = (value & (value - 1)) == 0;
    if (value >= range.min && value <= range.max && (power_of_two || !range.power_of_two))
        return std::nullopt;
    return ParamProblem{{key},
                        fmt::format("{} = {} is outside {} .. {}{}", key, value, range.min,
                                    range.max, range.power_of_two ? ", power of two" : "")};
}

std::optional<ParamProblem> range_problem(const std::string& key, double value,
                                          const RealRange& range) {
    if (value >= range.min && value <= range.max) return std::nullopt;  // false for NaN
    return ParamProblem{
        {key}, fmt::format("{} = {} is outside {} .. {}", key, value, range.min, range.max)};
}

std::vector<ParamProblem> validate(const PlatformParams& p) {
    std::vector<ParamProblem> problems =
        range_problems(param_table(), p, [](const auto&) { return true; });
    for (ParamProblem& problem : check_rules(checked_rules(), p))
        problems.push_back(std::move(problem));
    return problems;
}

std::vector<ParamProblem> validate(const DmaParams& dma, const BusParams& bus,
                                   const IommuParams& iommu) {
    PlatformParams p;
    p.dma = dma;
    p.bus = bus;
    p.iommu = iommu;
    return validate(p);
}

std::vector<ParamRule> rules() {
    std::vector<ParamRule> out;
    for (const auto& r : checked_rules()) out.push_back(r.rule);
    return out;
}

}  // namespace dmasim::model
