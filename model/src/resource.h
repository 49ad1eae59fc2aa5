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
//
// Marks: a measured window needs the busy time before a cycle, but a
// burst planned later can still land in a gap before it. A mark keeps
// that count exact as bookings arrive; a hold keeps the bookings from a
// cycle on listed, so a mark can still be placed there later.
#pragma once

#include <dmasim/model/params.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fifo.h"

namespace dmasim::model {

class Resource {
public:
    /// Books the channel for `occupancy` cycles from the first cycle at or
    /// after `earliest` that starts a free gap that long; returns the cycle
    /// the transfer starts.
    uint64_t book(uint64_t earliest, uint64_t occupancy, uint64_t bytes) {
        if (earliest < settled_to_) ++late_bookings_;
        uint64_t start = std::max(earliest, settled_end_);
        stats_.bytes += bytes;
        stats_.bursts += 1;
        stats_.busy_cycles += occupancy;
        // Nothing to hold (a DRAM spacing of 0): nothing to wait for.
        if (occupancy == 0) return start;
        // No gap from packed_from_ on: only the end is free there.
        if (start >= packed_from_ && start < free_at_) start = free_at_;
        if (start > free_at_) packed_from_ = start;
        // At or past the end (an uncontended channel): every booking ends
        // by then, so no search.
        size_t i = start >= free_at_ ? booked_.size() : first_ending_after(start);
        for (; i < booked_.size() && start + occupancy > booked_.at(i).start; ++i)
            start = std::max(start, booked_.at(i).end);
        free_at_ = std::max(free_at_, start + occupancy);
        booked_.insert(i, {start, start + occupancy});
        count_before_marks(start, start + occupancy);
        return start;
    }
    /// Undoes a book() of `occupancy` cycles and `bytes` that started at
    /// `start`, as if it had never been asked for: a booking its caller
    /// finds should not have been made (a DRAM run a refresh cuts). Its
    /// cycles, counts and place are freed; a late ask still counts. Throws
    /// std::logic_error unless the booking is still listed.
    void take_back(uint64_t start, uint64_t occupancy, uint64_t bytes);
    /// Whether enough bookings are listed that settle() is worth its cost
    /// (reading SystemC time); settling later changes no figure.
    bool wants_settle() const { return unsettled() >= settle_at_; }
    /// Folds the bookings that ended by `cycle` into one count. Call with
    /// the earliest cycle a later request may still ask for (SystemC time
    /// at most; earlier for an initiator that books behind it, such as the
    /// DMA engine): only the bookings after it stay listed.
    /// Callers settle at a cycle no later request asks before, so the
    /// gaps among folded bookings are of no further use (a booking that
    /// asks earlier all the same is counted: late_bookings()). A hold keeps the
    /// folded bookings that end after it listed (retained), where no
    /// booking looks but busy_before() counts.
    void settle(uint64_t cycle);
    /// Cycles the channel is booked in [0, cycle), for any cycle at or
    /// after the end of the last booking settle() dropped: bookings never
    /// overlap (each fills a free gap), so this never exceeds `cycle`.
    /// Only as final as the bookings so far: a mark keeps it final.
    uint64_t busy_before(uint64_t cycle) const;

    /// Names a mark.
    using MarkId = uint32_t;
    /// Starts counting the cycles booked before `cycle`, now and by every
    /// later booking. `cycle` must be at or after the end of the last
    /// booking settle() dropped (throws std::logic_error otherwise):
    /// the current cycle, or one a hold keeps.
    MarkId mark(uint64_t cycle);
    /// Cycles booked before the mark's cycle so far.
    uint64_t busy_before_mark(MarkId mark) const;
    void unmark(MarkId mark);
    /// Keeps every booking that ends after `cycle` listed until release():
    /// a mark can then be placed at any cycle from `cycle` on. `cycle`
    /// obeys mark()'s rule. Holds do not change where bookings land.
    void hold(uint64_t cycle);
    /// Ends one hold placed at `cycle`.
    void release(uint64_t cycle);

    /// Bookings still listed: those not yet folded by settle().
    size_t unsettled() const { return booked_.size() - retained_; }
    /// Bookings that asked for a cycle before one settle() had been given:
    /// where they landed depended on when settling ran, a host batching
    /// choice. A caller that keeps settle()'s rule has none.
    uint64_t late_bookings() const { return late_bookings_; }
    uint64_t free_at() const { return free_at_; }
    const ResourceStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    struct Booking {
        uint64_t start, end;
    };
    struct Mark {
        uint64_t cycle;
        uint64_t busy;  ///< cycles booked before `cycle`
        MarkId id;
    };
    /// Adds a new booking to the marks after its start. Marks sit near
    /// the current cycle and most bookings start after all of them, so
    /// this usually reads one mark.
    void count_before_marks(uint64_t start, uint64_t end) {
        for (size_t k = marks_.size(); k > 0 && marks_[k - 1].cycle > start; --k)
            marks_[k - 1].busy += std::min(end, marks_[k - 1].cycle) - start;
    }
    /// Throws unless busy_before(cycle) is exact.
    void require_listed_from(uint64_t cycle, const char* what) const;
    /// Index of the first listed booking that ends after `cycle` (bookings
    /// are disjoint and in time order, so their ends are sorted too).
    size_t first_ending_after(uint64_t cycle) const {
        size_t lo = retained_, hi = booked_.size();
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
    uint64_t settled_end_ = 0;         ///< end of the last folded booking
    uint64_t settled_to_ = 0;          ///< the latest cycle given to settle()
    uint64_t late_bookings_ = 0;
    /// Folded bookings still listed for a hold, at the front of booked_.
    size_t retained_ = 0;
    uint64_t dropped_busy_ = 0;  ///< booked cycles of the bookings no longer listed
    uint64_t dropped_end_ = 0;   ///< end of the last booking no longer listed
    std::vector<Mark> marks_;    ///< in cycle order
    MarkId next_mark_ = 0;
    std::vector<uint64_t> holds_;
};

}  // namespace dmasim::model
