// resource.h - a shared channel (bus read or write channel, device
// stream) that serves one transfer at a time and remembers when it is next
// free. This is the whole timing engine of design §4: a transfer that asks
// at cycle t starts at max(t, free_at) and holds the channel for its
// occupancy; no clock process, no event per beat.
#pragma once

#include <dmasim/model/params.h>

#include <algorithm>
#include <cstdint>

#include "ring.h"

namespace dmasim::model {

class Resource {
public:
    /// Books the channel for `occupancy` cycles from the first free cycle
    /// at or after `earliest`; returns the cycle the transfer starts.
    uint64_t book(uint64_t earliest, uint64_t occupancy, uint64_t bytes) {
        uint64_t start = std::max(earliest, free_at_);
        free_at_ = start + occupancy;
        stats_.bytes += bytes;
        stats_.bursts += 1;
        stats_.busy_cycles += occupancy;
        if (occupancy) booked_.push_back({start, start + occupancy});
        return start;
    }
    /// Whether enough bookings are listed that settle() is worth its cost
    /// (reading SystemC time); settling later changes no figure.
    bool wants_settle() const { return booked_.size() >= settle_at_; }
    /// Folds the bookings that ended by `cycle` into one count. Call with
    /// the current cycle: only bookings still ahead of SystemC time (a
    /// quantum or a queue's worth) stay listed.
    void settle(uint64_t cycle) {
        while (!booked_.empty() && booked_.front().end <= cycle) {
            settled_busy_ += booked_.front().end - booked_.front().start;
            booked_.pop_front();
        }
        settle_at_ = std::max<size_t>(kSettleBatch, 2 * booked_.size());
    }
    /// Cycles the channel is booked in [0, cycle), for any cycle at or
    /// after the last settle(): bookings never overlap (each starts at or
    /// after free_at), so this never exceeds `cycle`.
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
    uint64_t free_at_ = 0;
    ResourceStats stats_;
    static constexpr size_t kSettleBatch = 64;
    Ring<Booking> booked_;             ///< not yet settled, in time order
    size_t settle_at_ = kSettleBatch;  ///< booked_ size at which to settle again
    uint64_t settled_busy_ = 0;
};

}  // namespace dmasim::model
