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

/// The intervals of `u` clipped to [from, to), found by binary search so
/// accounting one transfer costs only its own intervals.
std::vector<Interval> clip(const IntervalUnion& u, uint64_t from, uint64_t to) {
    const auto& set = u.intervals();
    auto it = std::upper_bound(set.begin(), set.end(), from,
                               [](uint64_t t, const Interval& i) { return t < i.to; });
    std::vector<Interval> out;
    for (; it != set.end() && it->from < to; ++it)
        out.push_back({std::max(it->from, from), std::min(it->to, to)});
    return out;
}

/// Union of two sorted disjoint lists.
std::vector<Interval> unite(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::vector<Interval> out;
    out.reserve(a.size() + b.size());
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const Interval next =
            j == b.size() || (i < a.size() && a[i].from < b[j].from) ? a[i++] : b[j++];
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
    // [first, last) are the intervals [from, to) touches, found by binary
    // search: a side planned far ahead of the other (reads a whole buffer
    // ahead of slow writes) adds intervals far from the end, and a scan
    // from there cost time in the buffer's size for every burst (issue 35
    // row 9).
    const auto first = std::lower_bound(set_.begin(), set_.end(), from,
                                        [](const Interval& i, uint64_t t) { return i.to < t; });
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
            covered = unite(covered, clip((t->*layer)(cause), from, to));
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
