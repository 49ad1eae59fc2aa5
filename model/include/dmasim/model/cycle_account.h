// cycle_account.h - where a channel's cycles went: every cycle from START
// to the channel's stop is charged to exactly one cause, so the causes add
// up to the cycles and the largest is the thing to fix (docs/statistics.md,
// "Reading the account").
//
// Two layers of [from, to) cycle intervals are read from the timings the
// model already computes, one call per burst, fetch, decode, translation
// or write-back, never per beat:
//   - charges: what each piece of work was doing (a burst's latency, its
//     beats; a fetch in flight; a decode);
//   - stalls: what the engine's next step was waiting on, following the
//     dependency back (the next read waiting for its descriptor, for a free
//     outstanding slot, for buffer space, for a translation). Where work of
//     several kinds overlaps, the stall says which of it is on the
//     critical path: a data read's latency that overlaps the fetch of the
//     descriptor the next read waits for is descriptor supply, not memory
//     latency.
// A cycle goes to the first of: the bus moving data (data, bandwidth,
// pcie_link charges), a stall's cause, a charge's cause, idle; within a
// layer, in the table's order. Unions merge touching intervals as they
// arrive, so each holds one entry per gap between them.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace dmasim::model {

// X(cause, description, timeline it is read from, knobs that act on it),
// in priority order within each layer.
#define DMASIM_ACCOUNT_CAUSES(X)                                                                   \
    X(data, "a data beat of the channel crosses the bus: the ideal share, bytes / bus width",      \
      "each data burst's beats: read [first beat, first beat + beats), write [last beat - beats, " \
      "last beat); device bursts [first byte, last byte)",                                         \
      "bus.width_bytes, clock_mhz")                                                                \
    X(bandwidth,                                                                                   \
      "data waits for a bus channel other bursts or masters hold, or moves slower "                \
      "than one beat per cycle (memory.bandwidth_bytes_per_cycle)",                                \
      "each data burst's wait for its first beat after the idle bus's latency; a read's "          \
      "delivery beyond its beats",                                                                 \
      "memory.bandwidth_bytes_per_cycle, traffic.bytes_per_cycle, dma.channels")                   \
    X(pcie_link,                                                                                   \
      "PCIe link time: TLP round trips, tag waits and serialisation beyond the on-chip "           \
      "latency",                                                                                   \
      "bus.kind pcie: what bandwidth reads on the on-chip bus",                                    \
      "pcie.gen, pcie.lanes, pcie.max_payload_bytes, pcie.max_read_request_bytes, pcie.tags")      \
    X(memory_latency, "data waits for a read or a write response in flight",                       \
      "each data burst's first idle-latency cycles after its issue; a write's last beat to "       \
      "its response; the whole wait of a device burst or of a foreign target's burst",             \
      "memory.read_latency_cycles, memory.write_latency_cycles, bus.interconnect_latency_cycles")  \
    X(dram,                                                                                        \
      "data waits for DRAM timing beyond an open row: precharge and activate (row misses and "     \
      "conflicts), refresh, bus turnarounds, activate and column spacing, a full write queue",     \
      "memory.kind dram: each data read's DRAM wait after its idle latency; a write's wait for "   \
      "the DRAM's write queue after its last beat",                                                \
      "memory.mapping, memory.page_policy, memory.channels, memory.write_queue, "                  \
      "memory.t_* (configs/memory/*.yaml), workload.placement")                                    \
    X(outstanding_limit,                                                                           \
      "the next burst waits for a slot: the bursts in flight are at "                              \
      "dma.max_outstanding_reads (or _writes, or dma.max_bursts_in_flight) and no beat moves",     \
      "stalls: a read or write issue held by the completion of the burst the limit keeps it "      \
      "behind",                                                                                    \
      "dma.max_outstanding_reads, dma.max_outstanding_writes, dma.max_bursts_in_flight")           \
    X(buffer_space, "the next read waits for the writes to drain the data buffer",                 \
      "stalls: a read issue held by buffer space (dma.buffer_bytes, dma.read_refill_bytes)",       \
      "dma.buffer_bytes, dma.read_refill_bytes")                                                   \
    X(iommu, "address translation: IOTLB lookups and page-table walks",                            \
      "every translation's request to ready (data bursts, fetches, write-backs); stalls: a "       \
      "burst's issue held by its translation",                                                     \
      "iommu.iotlb_entries, iommu.iotlb_ways, iommu.page_size, iommu.walk_cache_entries")          \
    X(descriptor_fetch, "descriptor supply: the next data waits for its descriptor's read",        \
      "every descriptor fetch's issue to completion; stalls: the mover waiting for a "             \
      "descriptor that is being read or not yet asked for",                                        \
      "dma.descriptor_prefetch, dma.descriptor_queue, dma.descriptor_fetch")                       \
    X(chain_link, "descriptor supply: the next data waits for a chain link's decode",              \
      "each chain link's chain_link_cycles; stalls: the mover waiting behind one",                 \
      "dma.chain_link_cycles, workload.chain_depth")                                               \
    X(setup, "descriptor supply: the next data waits for a descriptor's decode or launch",         \
      "each data descriptor's descriptor_setup_cycles; stalls: the mover waiting for its "         \
      "descriptor's decode, or those before it, or a serial mover's launch",                       \
      "dma.descriptor_setup_cycles, dma.descriptor_launch_cycles")                                 \
    X(writeback, "status write-backs no other work hides",                                         \
      "every status write-back's issue to response", "dma.status_writeback")                       \
    X(start_latency, "START to the first descriptor fetch", "dma.start_latency_cycles per START",  \
      "dma.start_latency_cycles")                                                                  \
    X(irq_latency, "stop to the completion interrupt", "dma.irq_latency_cycles after the stop",    \
      "dma.irq_latency_cycles")                                                                    \
    X(cpu, "the run only: the CPU handling interrupts or polling, billed completion work, "      \
      "while no channel works",                                                                    \
      "each handled interrupt's and poll's CPU time, from its start",                             \
      "cpu.irq_handler_cycles, cpu.per_descriptor_cycles, cpu.poll_cycles, "                      \
      "dma.irq_coalesce_count, workload.completion")                                               \
    X(idle, "nothing of the channel in flight: waiting for no timed work (run: no channel busy " \
      "and the CPU idle: the host's submission and the workload's own gaps)",                     \
      "what no other cause covers", "workload.* (arrival rate, submission)")

enum class Cause : unsigned {
#define DMASIM_CAUSE_ENUM(cause, description, timeline, knobs) cause,
    DMASIM_ACCOUNT_CAUSES(DMASIM_CAUSE_ENUM)
#undef DMASIM_CAUSE_ENUM
};

struct CauseDef {
    const char* name;
    const char* description;
    const char* timeline;
    const char* knobs;  ///< the parameters that act on it, for the reader
};
inline constexpr CauseDef kCauseDefs[] = {
#define DMASIM_CAUSE_DEF(cause, description, timeline, knobs) \
    {#cause, description, timeline, knobs},
    DMASIM_ACCOUNT_CAUSES(DMASIM_CAUSE_DEF)
#undef DMASIM_CAUSE_DEF
};
inline constexpr size_t kCauses = std::size(kCauseDefs);
/// Causes of the bus moving data: ahead of every stall.
inline constexpr size_t kBusCauses = static_cast<size_t>(Cause::pcie_link) + 1;

/// Cycles charged to each cause, in table order; they sum to the cycles accounted.
using CycleAccount = std::array<uint64_t, kCauses>;

/// A half-open range of cycles.
struct Interval {
    uint64_t from, to;
};

/// A set of cycles as sorted, disjoint, non-touching intervals. A long
/// transfer keeps about one per descriptor per cause, so they live in a
/// deque: it grows without a vector's spare capacity or the old and new
/// copies a reallocation holds at once (issue 39: a third of the host
/// memory of 16 Mi small segments).
class IntervalUnion {
public:
    /// Adds [from, to); amortised O(1) when intervals arrive nearly in order.
    /// Inline for the cases most adds meet (every burst adds several,
    /// many of them empty): nothing, past the end, or within the last.
    void add(uint64_t from, uint64_t to) {
        if (from >= to) return;
        if (set_.empty() || from > set_.back().to) {
            set_.push_back({from, to});
            return;
        }
        Interval& last = set_.back();
        if (from >= last.from) {
            last.to = std::max(last.to, to);
            return;
        }
        add_behind_last(from, to);
    }
    /// Forgets the cycles at and after `end`.
    void truncate(uint64_t end);
    const std::deque<Interval>& intervals() const { return set_; }
    void clear() { set_.clear(); }

private:
    /// add() of an interval that starts before the last one.
    void add_behind_last(uint64_t from, uint64_t to);

    std::deque<Interval> set_;
};

/// One channel's cause timelines, and the spans (START to stop) they are
/// accounted over.
class CycleTimeline {
public:
    /// What work of the channel was doing over [from, to).
    void charge(Cause cause, uint64_t from, uint64_t to) {
        charges_[static_cast<unsigned>(cause)].add(from, to);
    }
    /// What the channel's next step waited on over [from, to).
    void stall(Cause cause, uint64_t from, uint64_t to) {
        stalls_[static_cast<unsigned>(cause)].add(from, to);
    }
    /// A transfer ran over [from, to): drops what was planned past its
    /// stop and returns its account.
    CycleAccount close_span(uint64_t from, uint64_t to);
    const IntervalUnion& charges(size_t cause) const { return charges_[cause]; }
    const IntervalUnion& stalls(size_t cause) const { return stalls_[cause]; }
    void clear();

private:
    std::array<IntervalUnion, kCauses> charges_;
    std::array<IntervalUnion, kCauses> stalls_;
};

/// The account of [from, to) over several timelines: each cycle goes to
/// the first cause any of them covers in the order of the header's
/// comment, `idle` if none does.
CycleAccount account_over(const std::vector<const CycleTimeline*>& timelines, uint64_t from,
                          uint64_t to);

}  // namespace dmasim::model
