// resource.h - a shared channel (bus read or write channel, device
// stream) that serves one transfer at a time and remembers when it is
// booked. This is the whole timing engine (docs/timing-model.md): a transfer that
// asks at cycle t starts in the first free gap at or after t long enough
// for its occupancy; no clock process, no event per beat.
//
// Gaps, not only the end: requests are booked in planning order, which is
// not time order (a descriptor walker plans fetches for chunks ahead while
// the data mover has yet to plan the reads of the first), and an arbiter
// serves a request that arrives in an idle cycle whenever it was planned.
#pragma once

#include <dmasim/model/params.h>

#include <algorithm>
#include <cstdint>

#include "fifo.h"

namespace dmasim::model {

class Resource {
public:
    /// Books the channel for `occupancy` cycles from the first cycle at or
    /// after `earliest` that starts a free gap that long; returns the cycle
    /// the transfer starts.
    uint64_t book(uint64_t earliest, uint64_t occupancy, uint64_t bytes) {
        uint64_t start = std::max(earliest, settled_end_);
        // No gap from packed_from_ on: only the end is free there.
        if (start >= packed_from_ && start < free_at_) start = free_at_;
        if (start > free_at_) packed_from_ = start;
        size_t i = first_ending_after(start);
        for (; i < booked_.size() && start + occupancy > booked_.at(i).start; ++i)
            start = std::max(start, booked_.at(i).end);
        free_at_ = std::max(free_at_, start + occupancy);
        stats_.bytes += bytes;
        stats_.bursts += 1;
        stats_.busy_cycles += occupancy;
        if (occupancy) booked_.insert(i, {start, start + occupancy});
        return start;
    }
    /// Whether enough bookings are listed that settle() is worth its cost
    /// (reading SystemC time); settling later changes no figure.
    bool wants_settle() const { return booked_.size() >= settle_at_; }
    /// Folds the bookings that ended by `cycle` into one count. Call with
    /// the current cycle: only bookings still ahead of SystemC time (a
    /// quantum or a queue's worth) stay listed.
    /// Callers settle at a cycle no later request asks before, so the
    /// gaps among folded bookings are of no further use.
    void settle(uint64_t cycle) {
        while (!booked_.empty() && booked_.front().end <= cycle) {
            settled_busy_ += booked_.front().end - booked_.front().start;
            settled_end_ = booked_.front().end;
            booked_.pop_front();
        }
        settle_at_ = std::max<size_t>(kSettleBatch, 2 * booked_.size());
    }
    /// Cycles the channel is booked in [0, cycle), for any cycle at or
    /// after the last settle(): bookings never overlap (each fills a free
    /// gap), so this never exceeds `cycle`.
    uint64_t busy_before(uint64_t cycle) const {
        uint64_t busy = settled_busy_;
        for (size_t i = 0; i < booked_.size(); ++i) {
            const Booking& b = booked_.at(i);
            if (b.start < cycle) busy += std::min(b.end, cycle) - b.start;
        }
        return busy;
    }
    /// Bookings still listed: those not yet folded by settle().
    size_t unsettled() const { return booked_.size(); }
    uint64_t free_at() const { return free_at_; }
    const ResourceStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    struct Booking {
        uint64_t start, end;
    };
    /// Index of the first listed booking that ends after `cycle` (bookings
    /// are disjoint and in time order, so their ends are sorted too).
    size_t first_ending_after(uint64_t cycle) const {
        size_t lo = 0, hi = booked_.size();
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (booked_.at(mid).end <= cycle)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }
    uint64_t free_at_ = 0;
    /// Bookings from here to free_at_ leave no gap: a saturated channel's
    /// backlog is not scanned for one.
    uint64_t packed_from_ = 0;
    ResourceStats stats_;
    static constexpr size_t kSettleBatch = 64;
    Fifo<Booking> booked_;             ///< not yet settled, in time order
    size_t settle_at_ = kSettleBatch;  ///< booked_ size at which to settle again
    uint64_t settled_busy_ = 0;
    uint64_t settled_end_ = 0;  ///< end of the last folded booking
};

}  // namespace dmasim::model
