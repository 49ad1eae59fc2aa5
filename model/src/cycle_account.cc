// cycle_account.cc - interval unions and the priority partition.
#include <dmasim/model/cycle_account.h>

#include <algorithm>

namespace dmasim::model {
namespace {

using UnionIt = std::deque<Interval>::const_iterator;

/// One union's intervals that meet [from, to), found by binary search so
/// accounting one transfer costs only its own intervals, and the cause a
/// cycle it covers is charged to.
struct Lane {
    UnionIt at, end;
    size_t cause;
};

Lane lane_of(const IntervalUnion& u, size_t cause, uint64_t from, uint64_t to) {
    const auto& set = u.intervals();
    const auto first = std::upper_bound(set.begin(), set.end(), from,
                                        [](uint64_t t, const Interval& i) { return t < i.to; });
    const auto last = std::lower_bound(first, set.end(), to,
                                       [](const Interval& i, uint64_t t) { return i.from < t; });
    return {first, last, cause};
}

// add_behind_last() steps back this many intervals before it gallops.
constexpr int kStepsBack = 8;

// Where the run of intervals that satisfy `touches` and end at `first`
// begins, given that the one just before `first` does. A side planned far
// ahead of the other (reads a whole buffer ahead of slow writes) adds
// intervals far from the end, and a scan from there cost time in the
// buffer's size for every burst (issue 35 row 9): the search gallops back
// from `first`, in the logarithm of that distance rather than of the
// whole run's intervals. (A deque's iterator arithmetic is not inlined,
// hence the steps before it.)
template <typename Touches>
std::deque<Interval>::iterator galloping_back(std::deque<Interval>::iterator begin,
                                              std::deque<Interval>::iterator first,
                                              Touches touches) {
    auto lo = begin;  // none before `lo` touches
    for (ptrdiff_t step = 1; first != begin; step *= 2) {
        const auto probe = first - std::min(step, first - begin);
        if (!touches(*probe)) {
            lo = probe + 1;
            break;
        }
        first = probe;
    }
    return std::partition_point(lo, first, [&](const Interval& i) { return !touches(i); });
}

}  // namespace

void IntervalUnion::add_behind_last(uint64_t from, uint64_t to) {
    // Near the end (a write's interval landing behind the read planned
    // after it, nearly always within the last two intervals): no search.
    // (Stepping back from end(): a deque's operator[] is not inlined.)
    const auto back_at = std::prev(set_.end());
    Interval& back = *back_at;
    if (back_at == set_.begin() || from > std::prev(back_at)->to) {
        // Clear of the one before the last: only the last can change, and
        // a new interval goes in by moving the last one place on.
        if (to >= back.from) {
            back = {from, std::max(back.to, to)};
        } else {
            const Interval moved = back;
            back = {from, to};
            set_.push_back(moved);
        }
        return;
    }
    Interval& before = *std::prev(back_at);
    if (from >= before.from) {
        // Within or touching the one before the last, and maybe the last.
        if (to < back.from) {
            before.to = std::max(before.to, to);
        } else {
            before.to = std::max(back.to, to);
            set_.pop_back();
        }
        return;
    }
    // [first, last) are the intervals [from, to) touches. Most adds that
    // get here land a few intervals from the end (about five on a
    // linked-list walk, its write-backs and fetches), so the search steps
    // back one interval at a time first, then gallops (galloping_back).
    const auto touches = [from](const Interval& i) { return i.to >= from; };
    auto first = set_.end();  // every interval from `first` on touches
    for (int steps = 0; first != set_.begin() && touches(*std::prev(first)); ++steps) {
        if (steps == kStepsBack) {
            first = galloping_back(set_.begin(), first, touches);
            break;
        }
        --first;
    }
    // The intervals from `first` that start by `to` merge with [from, to)
    // and are erased, so stepping over them costs each interval once.
    auto last = first;
    while (last != set_.end() && last->from <= to) ++last;
    if (last == first) {
        set_.insert(first, {from, to});
        return;
    }
    *first = {std::min(from, first->from), std::max(to, std::prev(last)->to)};
    set_.erase(std::next(first), last);
}

void IntervalUnion::truncate(uint64_t end) {
    while (!set_.empty() && set_.back().from >= end) set_.pop_back();
    if (!set_.empty()) set_.back().to = std::min(set_.back().to, end);
}

CycleAccount CycleTimeline::close_span(uint64_t from, uint64_t to) {
    for (IntervalUnion& u : charges_) u.truncate(to);
    for (IntervalUnion& u : stalls_) u.truncate(to);
    return account_over({this}, from, to);
}

void CycleTimeline::clear() {
    for (IntervalUnion& u : charges_) u.clear();
    for (IntervalUnion& u : stalls_) u.clear();
}

// One sweep over every timeline's unions in priority order: each stretch
// of cycles goes to the first lane covering it, up to where that lane's
// interval ends or a lane before it starts one; what none covers is idle.
// The lanes are read in place, so the account allocates nothing in the
// run's length (issue 39: uniting them a cause at a time copied the whole
// run's intervals twice).
CycleAccount account_over(const std::vector<const CycleTimeline*>& timelines, uint64_t from,
                          uint64_t to) {
    CycleAccount account{};
    if (to <= from) return account;
    std::vector<Lane> lanes;
    auto add_lanes = [&](size_t cause, const IntervalUnion& (CycleTimeline::*layer)(size_t) const) {
        for (const CycleTimeline* t : timelines) {
            const Lane lane = lane_of((t->*layer)(cause), cause, from, to);
            if (lane.at != lane.end) lanes.push_back(lane);
        }
    };
    const size_t idle = static_cast<size_t>(Cause::idle);
    for (size_t c = 0; c < kBusCauses; ++c) add_lanes(c, &CycleTimeline::charges);
    for (size_t c = 0; c < kCauses; ++c)
        if (c != idle) add_lanes(c, &CycleTimeline::stalls);
    for (size_t c = kBusCauses; c < kCauses; ++c)
        if (c != idle) add_lanes(c, &CycleTimeline::charges);
    uint64_t covered = 0;
    for (uint64_t at = from; at < to;) {
        uint64_t until = to;  // where the stretch from `at` ends
        const Lane* owner = nullptr;
        for (Lane& lane : lanes) {
            while (lane.at != lane.end && lane.at->to <= at) ++lane.at;
            if (lane.at == lane.end) continue;
            if (lane.at->from > at) {
                until = std::min(until, lane.at->from);
                continue;
            }
            owner = &lane;
            until = std::min(until, lane.at->to);
            break;
        }
        if (owner) {
            account[owner->cause] += until - at;
            covered += until - at;
        }
        at = until;
    }
    account[idle] = (to - from) - covered;
    return account;
}

}  // namespace dmasim::model
