// cycle_account.cc - interval unions and the priority partition.
#include <dmasim/model/cycle_account.h>

#include <algorithm>

namespace dmasim::model {
namespace {

/// Cycles of `set` inside [from, to).
uint64_t measure(const std::vector<Interval>& set, uint64_t from, uint64_t to) {
    uint64_t n = 0;
    for (const Interval& i : set) n += std::min(i.to, to) - std::max(i.from, from);
    return n;
}

using UnionIt = std::deque<Interval>::const_iterator;

/// The intervals of `u` that meet [from, to), found by binary search so
/// accounting one transfer costs only its own intervals.
std::pair<UnionIt, UnionIt> meeting(const IntervalUnion& u, uint64_t from, uint64_t to) {
    const auto& set = u.intervals();
    const auto first = std::upper_bound(set.begin(), set.end(), from,
                                        [](uint64_t t, const Interval& i) { return t < i.to; });
    const auto last = std::lower_bound(first, set.end(), to,
                                       [](const Interval& i, uint64_t t) { return i.from < t; });
    return {first, last};
}

/// Union of a sorted disjoint list and the part of `u` inside [from, to),
/// read in place rather than copied out.
std::vector<Interval> unite(const std::vector<Interval>& a, const IntervalUnion& u, uint64_t from,
                            uint64_t to) {
    const auto [b, b_end] = meeting(u, from, to);
    std::vector<Interval> out;
    out.reserve(a.size() + static_cast<size_t>(b_end - b));
    auto clipped = [&](UnionIt i) {
        return Interval{std::max(i->from, from), std::min(i->to, to)};
    };
    size_t i = 0;
    UnionIt j = b;
    while (i < a.size() || j != b_end) {
        const Interval next = j == b_end || (i < a.size() && a[i].from < std::max(j->from, from))
                                  ? a[i++]
                                  : clipped(j++);
        if (!out.empty() && next.from <= out.back().to)
            out.back().to = std::max(out.back().to, next.to);
        else
            out.push_back(next);
    }
    return out;
}

}  // namespace

void IntervalUnion::add(uint64_t from, uint64_t to) {
    if (from >= to) return;
    if (set_.empty() || from > set_.back().to) {
        set_.push_back({from, to});
        return;
    }
    // Touching or inside the last interval: only it can change (the usual
    // case, bursts planned in order), so no search.
    if (from >= set_.back().from) {
        set_.back().to = std::max(set_.back().to, to);
        return;
    }
    // [first, last) are the intervals [from, to) touches. A side planned
    // far ahead of the other (reads a whole buffer ahead of slow writes)
    // adds intervals far from the end, and a scan from there cost time in
    // the buffer's size for every burst (issue 35 row 9); they still lie
    // near the end, so the search gallops back from it, in the logarithm
    // of that distance rather than of the whole run's intervals.
    const auto touches = [from](const Interval& i) { return i.to >= from; };
    auto first = set_.end();  // every interval from `first` on touches
    auto lo = set_.begin();   // and none before `lo` does
    for (ptrdiff_t step = 1; first != set_.begin(); step *= 2) {
        const auto probe = first - std::min(step, first - set_.begin());
        if (!touches(*probe)) {
            lo = probe + 1;
            break;
        }
        first = probe;
    }
    first = std::partition_point(lo, first, [&](const Interval& i) { return !touches(i); });
    const auto last = std::upper_bound(first, set_.end(), to,
                                       [](uint64_t t, const Interval& i) { return t < i.from; });
    if (last == first) {
        set_.insert(first, {from, to});
        return;
    }
    *first = {std::min(from, first->from), std::max(to, (last - 1)->to)};
    set_.erase(first + 1, last);
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

// Layer by layer, cause by cause in priority order: what a cause adds to
// the union of those before it is its share; what none covers is idle.
CycleAccount account_over(const std::vector<const CycleTimeline*>& timelines, uint64_t from,
                          uint64_t to) {
    CycleAccount account{};
    if (to <= from) return account;
    std::vector<Interval> covered;
    uint64_t covered_cycles = 0;
    auto take = [&](size_t cause, const IntervalUnion& (CycleTimeline::*layer)(size_t) const) {
        for (const CycleTimeline* t : timelines)
            covered = unite(covered, (t->*layer)(cause), from, to);
        const uint64_t now_covered = measure(covered, from, to);
        account[cause] += now_covered - covered_cycles;
        covered_cycles = now_covered;
    };
    const size_t idle = static_cast<size_t>(Cause::idle);
    for (size_t c = 0; c < kBusCauses; ++c) take(c, &CycleTimeline::charges);
    for (size_t c = 0; c < kCauses; ++c)
        if (c != idle) take(c, &CycleTimeline::stalls);
    for (size_t c = kBusCauses; c < kCauses; ++c)
        if (c != idle) take(c, &CycleTimeline::charges);
    account[idle] = (to - from) - covered_cycles;
    return account;
}

}  // namespace dmasim::model
