// resource.cc - a resource's settling, busy counts, marks and holds (the
// booking itself stays inline in resource.h: it is the hot path).
#include "resource.h"

#include <fmt/format.h>

#include <stdexcept>

namespace dmasim::model {

void Resource::settle(uint64_t cycle) {
    size_t folded = retained_;
    for (; folded < booked_.size() && booked_.at(folded).end <= cycle; ++folded)
        settled_end_ = booked_.at(folded).end;
    uint64_t keep_after = cycle;
    for (uint64_t h : holds_) keep_after = std::min(keep_after, h);
    for (; folded > 0 && booked_.front().end <= keep_after; --folded) {
        dropped_busy_ += booked_.front().end - booked_.front().start;
        dropped_end_ = booked_.front().end;
        booked_.pop_front();
    }
    retained_ = folded;
    settle_at_ = std::max<size_t>(kSettleBatch, 2 * unsettled());
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
