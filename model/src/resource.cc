// resource.cc - a resource's settling, busy counts, marks and holds (the
// booking itself stays inline in resource.h: it is the hot path).
#include "resource.h"

#include <fmt/format.h>

#include <stdexcept>

namespace dmasim::model {

// Sums in locals: the members written in the loops would be stored and
// reloaded on every booking (each one is a settle's step once).
void Resource::settle(uint64_t cycle) {
    settled_to_ = std::max(settled_to_, cycle);
    size_t folded = retained_;
    while (folded < booked_.size() && booked_.at(folded).end <= cycle) ++folded;
    if (folded > retained_) settled_end_ = booked_.at(folded - 1).end;
    uint64_t keep_after = cycle;
    for (uint64_t h : holds_) keep_after = std::min(keep_after, h);
    size_t dropped = 0;
    uint64_t busy = 0;
    for (; dropped < folded && booked_.at(dropped).end <= keep_after; ++dropped)
        busy += booked_.at(dropped).end - booked_.at(dropped).start;
    if (dropped > 0) {
        dropped_busy_ += busy;
        dropped_end_ = booked_.at(dropped - 1).end;
        booked_.pop_front(dropped);
    }
    retained_ = folded - dropped;
    settle_at_ = std::max<size_t>(kSettleBatch, 2 * unsettled());
}

// The end is the latest listed booking's, or the folded ones'. Bookings
// after the one freed still leave no gap, so the packed stretch starts
// after it at the earliest.
void Resource::take_back(uint64_t start, uint64_t occupancy, uint64_t bytes) {
    const uint64_t end = start + occupancy;
    const size_t i = occupancy == 0 ? 0 : first_ending_after(start);
    if (occupancy > 0 &&
        (i == booked_.size() || booked_.at(i).start != start || booked_.at(i).end != end))
        throw std::logic_error(
            fmt::format("resource: no listed booking [{}, {}) to take back", start, end));
    stats_.bytes -= bytes;
    stats_.bursts -= 1;
    stats_.busy_cycles -= occupancy;
    if (occupancy == 0) return;
    booked_.erase(i);
    for (size_t k = marks_.size(); k > 0 && marks_[k - 1].cycle > start; --k)
        marks_[k - 1].busy -= std::min(end, marks_[k - 1].cycle) - start;
    free_at_ = booked_.size() > 0 ? std::max(settled_end_, booked_.at(booked_.size() - 1).end)
                                  : settled_end_;
    packed_from_ = std::max(packed_from_, end);
}

uint64_t Resource::busy_before(uint64_t cycle) const {
    uint64_t busy = dropped_busy_;
    for (size_t i = 0; i < booked_.size(); ++i) {
        const Booking& b = booked_.at(i);
        if (b.start >= cycle) break;
        busy += std::min(b.end, cycle) - b.start;
    }
    return busy;
}

void Resource::require_listed_from(uint64_t cycle, const char* what) const {
    if (cycle < dropped_end_)
        throw std::logic_error(
            fmt::format("Resource::{} at cycle {}: the bookings up to cycle {} are already folded",
                        what, cycle, dropped_end_));
}

Resource::MarkId Resource::mark(uint64_t cycle) {
    require_listed_from(cycle, "mark");
    const Mark m{cycle, busy_before(cycle), next_mark_++};
    const auto at = std::upper_bound(marks_.begin(), marks_.end(), cycle,
                                     [](uint64_t c, const Mark& x) { return c < x.cycle; });
    marks_.insert(at, m);
    return m.id;
}

uint64_t Resource::busy_before_mark(MarkId mark) const {
    for (const Mark& m : marks_)
        if (m.id == mark) return m.busy;
    throw std::logic_error(fmt::format("Resource::busy_before_mark: no mark {}", mark));
}

void Resource::unmark(MarkId mark) {
    marks_.erase(std::remove_if(marks_.begin(), marks_.end(),
                                [mark](const Mark& m) { return m.id == mark; }),
                 marks_.end());
}

void Resource::hold(uint64_t cycle) {
    require_listed_from(cycle, "hold");
    holds_.push_back(cycle);
}

void Resource::release(uint64_t cycle) {
    const auto it = std::find(holds_.begin(), holds_.end(), cycle);
    if (it != holds_.end()) holds_.erase(it);
}

}  // namespace dmasim::model
