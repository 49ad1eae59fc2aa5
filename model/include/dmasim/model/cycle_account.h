// cycle_account.h - where a channel's cycles went: every cycle from START
// to the channel's stop is charged to exactly one cause, the first in the
// table's order whose timeline covers it, so the causes add up to the
// cycles and the largest is the thing to fix (docs/statistics.md).
//
// The model records each cause as a union of [from, to) cycle intervals
// read from the timings it already computes (a burst's issue, first beat
// and completion; a fetch's issue and completion; ...): one call per
// burst, fetch, decode, translation or write-back, never per beat. The
// union merges touching intervals as they arrive, so it holds one entry
// per gap between them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dmasim::model {

// X(cause, description, timeline it is read from), highest priority first.
#define DMASIM_ACCOUNT_CAUSES(X)                                                                  \
    X(data, "a data beat of the channel crosses the bus: the ideal share, bytes / bus width",      \
      "each data burst's beats: read [first beat, first beat + beats), write [last beat - beats, " \
      "last beat); device bursts [first byte, last byte)")                                        \
    X(bandwidth, "data waits for a bus channel other bursts or masters hold, or moves slower "     \
      "than one beat per cycle (memory.bandwidth_bytes_per_cycle)",                                \
      "each data burst's wait for its first beat after the idle bus's latency; a read's "          \
      "delivery beyond its beats")                                                                 \
    X(pcie_link, "PCIe link time: TLP round trips, tag waits and serialisation beyond the on-chip " \
      "latency",                                                                                   \
      "bus.kind pcie: what bandwidth reads on the on-chip bus")                                    \
    X(memory_latency, "read latency and write response latency no other work hides",              \
      "each data burst's first idle-latency cycles after its issue; a write's last beat to "      \
      "its response; the whole wait of a device burst or of a foreign target's burst")           \
    X(iommu, "address translation no other work hides: IOTLB lookups and page-table walks",      \
      "every translation's request to ready (data bursts, fetches, write-backs)")                 \
    X(descriptor_fetch, "descriptor reads no data transfer hides",                                \
      "every descriptor fetch's issue to completion")                                             \
    X(chain_link, "chain-link decode no other work hides", "each chain link's chain_link_cycles")  \
    X(setup, "per-descriptor decode no other work hides",                                         \
      "each data descriptor's descriptor_setup_cycles")                                           \
    X(writeback, "status write-backs no other work hides",                                        \
      "every status write-back's issue to response")                                              \
    X(start_latency, "START to the first descriptor fetch", "dma.start_latency_cycles per START") \
    X(irq_latency, "stop to the completion interrupt", "dma.irq_latency_cycles after the stop")   \
    X(idle, "nothing of the channel in flight: waiting for no timed work (run: no channel busy, " \
      "so the host's own time)",                                                                   \
      "what no other cause covers")

enum class Cause : unsigned {
#define DMASIM_CAUSE_ENUM(cause, description, timeline) cause,
    DMASIM_ACCOUNT_CAUSES(DMASIM_CAUSE_ENUM)
#undef DMASIM_CAUSE_ENUM
};

struct CauseDef {
    const char* name;
    const char* description;
    const char* timeline;
};
inline constexpr CauseDef kCauseDefs[] = {
#define DMASIM_CAUSE_DEF(cause, description, timeline) {#cause, description, timeline},
    DMASIM_ACCOUNT_CAUSES(DMASIM_CAUSE_DEF)
#undef DMASIM_CAUSE_DEF
};
inline constexpr size_t kCauses = std::size(kCauseDefs);

/// Cycles charged to each cause, in table order; they sum to the cycles accounted.
using CycleAccount = std::array<uint64_t, kCauses>;

/// A half-open range of cycles.
struct Interval {
    uint64_t from, to;
};

/// A set of cycles as sorted, disjoint, non-touching intervals.
class IntervalUnion {
public:
    /// Adds [from, to); amortised O(1) when intervals arrive nearly in order.
    void add(uint64_t from, uint64_t to);
    /// Forgets the cycles at and after `end`.
    void truncate(uint64_t end);
    const std::vector<Interval>& intervals() const { return set_; }
    void clear() { set_.clear(); }

private:
    std::vector<Interval> set_;
};

/// One channel's cause timelines, and the spans (START to stop) they are
/// accounted over.
class CycleTimeline {
public:
    void charge(Cause cause, uint64_t from, uint64_t to) {
        causes_[static_cast<unsigned>(cause)].add(from, to);
    }
    /// A transfer ran over [from, to): drops what was planned past its
    /// stop and returns its account.
    CycleAccount close_span(uint64_t from, uint64_t to);
    const IntervalUnion& cause(size_t i) const { return causes_[i]; }
    void clear();

private:
    std::array<IntervalUnion, kCauses> causes_;
};

/// The account of [from, to) over several timelines: each cycle goes to
/// the first cause any of them covers, `idle` if none does.
CycleAccount account_over(const std::vector<const CycleTimeline*>& timelines, uint64_t from,
                          uint64_t to);

}  // namespace dmasim::model
