// stats.h - the model's statistics, each declared once: its field, unit,
// description and how it is measured come from one row of a table below,
// and the struct, the report counters and docs/statistics.md are all
// generated from these rows. Adding a statistic is adding one row.
#pragma once

#include <dmasim/model/cycle_account.h>
#include <dmasim/model/value_counts.h>

#include <cstdint>
#include <iterator>
#include <vector>

namespace dmasim::model {

/// One statistic's documentation.
struct StatDef {
    const char* name;
    const char* unit;
    const char* description;
    const char* how;  ///< how the model measures it
};

// X(field, unit, description, how measured)
#define DMASIM_CHANNEL_COUNTERS(X)                                                              \
    X(bytes, "B", "payload bytes written at the destination",                                   \
      "summed as each data descriptor completes")                                               \
    X(read_bursts, "bursts", "data read bursts issued", "one per planned read burst")           \
    X(write_bursts, "bursts", "data write bursts issued", "one per planned write burst")        \
    X(descriptors, "descriptors", "data descriptors completed",                                 \
      "one per data descriptor whose bytes are settled")                                        \
    X(chain_links, "links", "chain descriptors followed", "one per chain slot or next pointer") \
    X(descriptor_bytes_fetched, "B", "descriptor bytes read from memory",                       \
      "every fetch burst's bytes, chain descriptors and over-prefetched slots included")        \
    X(speculative_reads, "reads", "speculative descriptor reads issued",                        \
      "dma.descriptor_fetch: speculative; one per slot read before its address was known")      \
    X(speculative_reads_dropped, "reads", "speculative descriptor reads a next pointer missed", \
      "reads in flight or done when a next pointer named another address or the walk parked "   \
      "at TAIL; their beats are still carried")                                                 \
    X(tail_idles, "idles", "times the channel idled at TAIL, its ring empty",                   \
      "dma.submission: tail_pointer; one per IDLE shown in STATUS (a TAIL moved before the "    \
      "walk reached the old one shows none)")                                                   \
    X(max_reads_in_flight, "transactions", "most data reads outstanding at once",               \
      "reads issued and not complete, at each read issue")                                      \
    X(max_writes_in_flight, "transactions", "most data writes outstanding at once",             \
      "writes issued and not answered, at each write issue")                                    \
    X(setup_cycles, "cycles", "descriptor decode and chain-link cost",                          \
      "descriptor_setup_cycles per data descriptor + chain_link_cycles per link")               \
    X(descriptor_wait_cycles, "cycles",                                                         \
      "read side waiting for the next descriptor; the previous one's writes may still be "      \
      "moving, so the engine need not be idle (account.ch{N}.descriptor_fetch is what no "      \
      "work hides)",                                                                            \
      "cycles between the read side being free and the next descriptor being decoded")          \
    X(data_cycles, "cycles", "cycles with at least one data burst in flight",                   \
      "union of every data burst's issue-to-completion interval")                               \
    X(writeback_cycles_summed, "cycles",                                                        \
      "status write-back time, summed: write-backs overlap each other and the data, so this "   \
      "can exceed the run (account.ch{N}.writeback is the part nothing hides)",                 \
      "sum of every write-back's issue-to-response time")                                       \
    X(irq_latency_cycles, "cycles", "completion-to-interrupt time",                             \
      "irq_latency_cycles per interrupt raised")                                                \
    X(irqs_raised, "interrupts", "interrupts the channel raised",                               \
      "one per threshold reached, delay timeout or channel stop with IRQ_EN")                   \
    X(irqs_by_timeout, "interrupts", "interrupts raised by the coalescing delay timer",         \
      "one per dma.irq_coalesce_timeout_cycles expiry with completions pending")                \
    X(irq_completions_coalesced, "completions",                                                 \
      "completions that shared another completion's interrupt",                                 \
      "completions pending - 1 at each threshold, timeout or stop interrupt")                   \
    X(start_to_fetch_cycles, "cycles", "datasheet window: START to the first descriptor read",  \
      "first START written to its first descriptor fetch issued")                               \
    X(fetch_to_read_cycles, "cycles",                                                           \
      "datasheet window: first descriptor read to first data read (or stream input)",           \
      "first descriptor fetch issued to the first data read (arvalid) or device pull issued")   \
    X(read_to_out_cycles, "cycles",                                                             \
      "datasheet window: first data read to the first data beat out",                           \
      "first data read issued to the first beat written or sent to the device")                 \
    X(data_window_cycles, "cycles",                                                             \
      "datasheet window: first data read to the last data beat out (PG021's throughput "        \
      "window: MM2S arvalid to tlast, S2MM tvalid to wlast)",                                   \
      "first data read issued to the end of the last beat written or sent")

#define DMASIM_RESOURCE_COUNTERS(X)                                     \
    X(bytes, "B", "bytes carried", "summed per booking")                \
    X(bursts, "bursts", "bursts carried", "one per booking")            \
    X(busy_cycles, "cycles", "cycles a data beat occupied the channel", \
      "sum of every booking's occupancy (beats, or more under a bandwidth cap)")

#define DMASIM_IOMMU_COUNTERS(X)                                                                 \
    X(iotlb_hits, "translations", "accesses the IOTLB translated",                               \
      "one per descriptor fetch, data burst or write-back page whose translation was cached")    \
    X(iotlb_misses, "translations", "accesses that walked the page tables",                      \
      "one per translation the IOTLB did not hold")                                              \
    X(walk_reads, "reads", "page-table entries read", "one 8-byte RAM read per level walked")    \
    X(walk_cache_hits, "walks", "walks that started at the leaf table",                          \
      "one per miss whose level-2 entry the walk cache held")                                    \
    X(translation_cycles, "cycles", "time accesses waited for their translation",                \
      "iotlb_hit_cycles per translation + every walk's dependent reads")                         \
    X(translation_faults, "faults", "translations that found no mapping or no write permission", \
      "one per failed translation; the channel stops with DMA_ERR_TRANSLATION")

// memory.kind dram: counted per DRAM burst (burst_length beats of one channel).
#define DMASIM_DRAM_COUNTERS(X)                                                                    \
    X(reads, "bursts", "DRAM read bursts", "one per burst-sized piece of a read")                  \
    X(writes, "bursts", "DRAM write bursts", "one per burst-sized piece of a write, when drained") \
    X(row_hits, "bursts", "bursts to the bank's open row", "column command only")                  \
    X(row_misses, "bursts", "bursts to a closed bank", "activate, then column command")            \
    X(row_conflicts, "bursts", "bursts to a bank with another row open",                           \
      "precharge, activate, then column command")                                                  \
    X(refreshes, "refreshes", "all-bank refreshes of all ranks during the DRAM's activity",        \
      "one per rank per memory.t_refi_ns from the first burst to the last")                        \
    X(refresh_cycles, "cycles", "cycles ranks spent refreshing, summed over ranks",                \
      "refreshes x memory.t_rfc_ns")                                                               \
    X(refresh_wait_cycles, "cycles", "time bursts waited for a refresh to end",                    \
      "summed over bursts that arrived during a refresh")                                          \
    X(read_to_write_turnarounds, "turnarounds", "a write burst after a read on a channel",         \
      "one per change of direction, in booking order")                                             \
    X(write_to_read_turnarounds, "turnarounds", "a read burst after a write on a channel",         \
      "one per change of direction, in booking order")                                             \
    X(dram_wait_cycles, "cycles", "time bursts waited on DRAM timing beyond a row hit",            \
      "each burst's arrival (in the queue) to its column command's earliest cycle, summed")        \
    X(data_bus_cycles, "cycles", "cycles the channels' data buses carried bursts, summed",         \
      "tBURST per burst")                                                                          \
    X(bank_busy_cycles, "cycles", "cycles banks were busy, summed over banks",                     \
      "each burst's first command to its last data")                                               \
    X(active_cycles, "cycles", "cycles any bank of a channel was busy, summed over channels",      \
      "union of the bursts' first command to last data, per channel")

#define DMASIM_STAT_FIELD(field, unit, description, how) uint64_t field = 0;
#define DMASIM_STAT_DEF(field, unit, description, how) {#field, unit, description, how},

/// Per-channel statistics of the last transfer(s) on that channel.
struct ChannelStats {
    DMASIM_CHANNEL_COUNTERS(DMASIM_STAT_FIELD)
    /// Cycles from each data descriptor's fetch issue to its write-back
    /// response, counted per value (memory does not grow with the list).
    ValueCounts descriptor_latencies;
    /// Cycles from each START to its stop, by cause (cycle_account.h).
    CycleAccount account{};
    /// When the datasheet windows' events first happened since the
    /// statistics were reset (kNever: not yet); the *_cycles windows above
    /// are measured between them.
    struct Milestones {
        static constexpr uint64_t kNever = ~uint64_t(0);
        uint64_t start = kNever, fetch = kNever, read = kNever, out = kNever;
    } milestones;
};

/// Statistics of one shared resource (bus read channel, write channel).
struct ResourceStats {
    DMASIM_RESOURCE_COUNTERS(DMASIM_STAT_FIELD)
};

/// Statistics of the IOMMU shared by a controller's channels.
struct IommuStats {
    DMASIM_IOMMU_COUNTERS(DMASIM_STAT_FIELD)
};

/// Statistics of the DRAM (memory.kind dram), in the platform's cycles.
struct DramStats {
    DMASIM_DRAM_COUNTERS(DMASIM_STAT_FIELD)
    uint64_t bytes = 0;               ///< bytes the bursts carried
    uint64_t span_cycles = 0;         ///< first burst's arrival to the last burst's data end
    double peak_bytes_per_cycle = 0;  ///< every channel's data bus, every cycle
};

inline constexpr StatDef kChannelCounterDefs[] = {DMASIM_CHANNEL_COUNTERS(DMASIM_STAT_DEF)};
inline constexpr StatDef kResourceCounterDefs[] = {DMASIM_RESOURCE_COUNTERS(DMASIM_STAT_DEF)};
inline constexpr StatDef kIommuCounterDefs[] = {DMASIM_IOMMU_COUNTERS(DMASIM_STAT_DEF)};
inline constexpr StatDef kDramCounterDefs[] = {DMASIM_DRAM_COUNTERS(DMASIM_STAT_DEF)};

/// The counters' values in table order.
#define DMASIM_STAT_VALUE(field, unit, description, how) static_cast<double>(s.field),
inline std::vector<double> counter_values(const ChannelStats& s) {
    return {DMASIM_CHANNEL_COUNTERS(DMASIM_STAT_VALUE)};
}
inline std::vector<double> counter_values(const ResourceStats& s) {
    return {DMASIM_RESOURCE_COUNTERS(DMASIM_STAT_VALUE)};
}
inline std::vector<double> counter_values(const IommuStats& s) {
    return {DMASIM_IOMMU_COUNTERS(DMASIM_STAT_VALUE)};
}
inline std::vector<double> counter_values(const DramStats& s) {
    return {DMASIM_DRAM_COUNTERS(DMASIM_STAT_VALUE)};
}
#undef DMASIM_STAT_VALUE

/// Percentiles of descriptor latency reported per channel (after the counters).
inline constexpr struct {
    StatDef def;
    double percentile;
} kLatencyPercentiles[] = {
    {{"descriptor_latency_p50_cycles", "cycles", "median descriptor latency",
      "fetch issue to write-back response per data descriptor; nearest-rank percentile"},
     50},
    {{"descriptor_latency_p90_cycles", "cycles", "90th percentile descriptor latency", "as p50"},
     90},
    {{"descriptor_latency_p99_cycles", "cycles", "99th percentile descriptor latency", "as p50"},
     99},
};

/// A channel's phases as shares of the measured cycles (phases overlap in
/// a pipelined engine, so the shares need not add up to 100%).
inline constexpr struct {
    StatDef def;
    uint64_t ChannelStats::*cycles;
} kPhaseShares[] = {
    {{"setup", "% of cycles", "descriptor decode", "setup_cycles / cycles"},
     &ChannelStats::setup_cycles},
    {{"descriptor_wait", "% of cycles", "waiting for descriptors",
      "descriptor_wait_cycles / cycles"},
     &ChannelStats::descriptor_wait_cycles},
    {{"data", "% of cycles", "data bursts in flight", "data_cycles / cycles"},
     &ChannelStats::data_cycles},
    {{"writeback_summed", "% of cycles", "status write-backs, summed (may exceed 100)",
      "writeback_cycles_summed / cycles"},
     &ChannelStats::writeback_cycles_summed},
    {{"irq_latency", "% of cycles", "interrupt latency", "irq_latency_cycles / cycles"},
     &ChannelStats::irq_latency_cycles},
};

/// The cycle account's rows: one per cause, in cycles, in priority order.
inline std::vector<StatDef> account_defs() {
    std::vector<StatDef> defs;
    for (const CauseDef& c : kCauseDefs)
        defs.push_back({c.name, "cycles", c.description, c.timeline});
    return defs;
}

/// The DRAM's figures derived from its counters (after the counters).
inline constexpr StatDef kDramDerivedDefs[] = {
    {"bank_parallelism", "banks", "banks busy at once, on average, while any was",
     "bank_busy_cycles / active_cycles"},
    {"peak_bytes_per_cycle", "B/cycle", "the channels' peak: width x data rate, per cycle",
     "channels x channel_width_bits / 8 x data_rate_mts / clock_mhz"},
    {"achieved_bytes_per_cycle", "B/cycle", "bytes the bursts carried per cycle of the DRAM's span",
     "bursts' bytes / (first arrival to last data end)"},
    {"bandwidth_efficiency", "%", "achieved against peak", "achieved / peak x 100"},
};

inline constexpr StatDef kTrafficDefs[] = {
    {"bytes", "B", "bytes the background master moved", "burst bytes per burst issued"},
    {"bursts", "bursts", "bursts the background master issued", "one per burst"},
};

/// The statistic groups of a report, with the rows each holds. A group
/// name with {N} repeats per channel.
struct StatGroupDef {
    const char* name;
    const char* description;
    std::vector<StatDef> stats;
};
inline StatGroupDef dram_group() {
    StatGroupDef dram{"dram", "the DRAM behind the bus (reported with memory.kind dram)", {}};
    for (const StatDef& d : kDramCounterDefs) dram.stats.push_back(d);
    for (const StatDef& d : kDramDerivedDefs) dram.stats.push_back(d);
    return dram;
}

inline std::vector<StatGroupDef> statistic_groups() {
    StatGroupDef channel{"dma.ch{N}", "one DMA channel", {}};
    for (const StatDef& d : kChannelCounterDefs) channel.stats.push_back(d);
    for (const auto& p : kLatencyPercentiles) channel.stats.push_back(p.def);
    StatGroupDef phase{"phase.ch{N}", "one DMA channel's phases", {}};
    for (const auto& p : kPhaseShares) phase.stats.push_back(p.def);
    auto resource = [](const char* name, const char* description) {
        return StatGroupDef{
            name, description, {std::begin(kResourceCounterDefs), std::end(kResourceCounterDefs)}};
    };
    return {channel,
            phase,
            {"account.ch{N}",
             "one DMA channel's cycles from each START to its stop, each charged to what its "
             "critical path waited on (Reading the account); the rows add up to the channel's "
             "busy cycles",
             account_defs()},
            {"account",
             "the run's cycles (result.cycles), each charged as in account.ch{N}, the first "
             "cause of any channel; the rows add up to result.cycles",
             account_defs()},
            resource("bus.read", "the RAM read channel"),
            resource("bus.write", "the RAM write channel"),
            resource("device.source", "the device stream port, device to memory"),
            resource("device.sink", "the device stream port, memory to device"),
            {"traffic",
             "the background traffic master",
             {std::begin(kTrafficDefs), std::end(kTrafficDefs)}},
            {"iommu",
             "the IOMMU shared by the channels (reported with iommu.enabled)",
             {std::begin(kIommuCounterDefs), std::end(kIommuCounterDefs)}},
            dram_group()};
}

}  // namespace dmasim::model
