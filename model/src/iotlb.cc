// iotlb.cc - set lookup and LRU replacement.
#include "iotlb.h"

namespace dmasim::model {

Iotlb::Iotlb(unsigned entries, unsigned ways)
    : ways_(entries), sets_(entries / ways), ways_per_set_(ways), index_bits_(1) {
    // At most half full, so probes stay short.
    while ((uint64_t{1} << index_bits_) < 2 * uint64_t{entries}) ++index_bits_;
    index_.resize(uint64_t{1} << index_bits_);
    clear();
}

// Fibonacci hashing of (page, size): consecutive pages spread out.
uint64_t Iotlb::home(const Entry& e) const {
    const uint64_t key = e.page * 64 + e.shift;
    return (key * 0x9E3779B97F4A7C15ull) >> (64 - index_bits_);
}

uint64_t Iotlb::slot_of(uint64_t page, unsigned shift) const {
    const uint64_t mask = index_.size() - 1;
    uint64_t s = home(Entry{page, 0, shift, false});
    for (; index_[s] != kNone; s = (s + 1) & mask) {
        const Entry& e = ways_[index_[s]].entry;
        if (e.page == page && e.shift == shift) break;
    }
    return s;
}

// Backward-shift deletion: a later entry of the probe run moves into the
// hole unless its home lies between the hole and itself.
void Iotlb::unindex(uint64_t hole) {
    const uint64_t mask = index_.size() - 1;
    for (uint64_t s = (hole + 1) & mask; index_[s] != kNone; s = (s + 1) & mask) {
        const uint64_t h = home(ways_[index_[s]].entry);
        if (((s - h) & mask) >= ((s - hole) & mask)) {
            index_[hole] = index_[s];
            hole = s;
        }
    }
    index_[hole] = kNone;
}

void Iotlb::unlink(Set& set, uint32_t way) {
    Way& w = ways_[way];
    (w.older == kNone ? set.oldest : ways_[w.older].newer) = w.newer;
    (w.newer == kNone ? set.newest : ways_[w.newer].older) = w.older;
    w.older = w.newer = kNone;
}

void Iotlb::make_newest(Set& set, uint32_t way) {
    if (set.newest == way) return;
    unlink(set, way);
    Way& w = ways_[way];
    w.older = set.newest;
    (set.newest == kNone ? set.oldest : ways_[set.newest].newer) = way;
    set.newest = way;
}

const Iotlb::Entry* Iotlb::lookup(uint64_t iova, unsigned shift) {
    const uint64_t page = iova >> shift;
    const uint32_t way = index_[slot_of(page, shift)];
    if (way == kNone) return nullptr;
    make_newest(set_of(page), way);
    return &ways_[way].entry;
}

void Iotlb::insert(uint64_t iova, unsigned shift, uint64_t frame, bool writable) {
    const uint64_t page = iova >> shift;
    Set& set = set_of(page);
    uint64_t slot = slot_of(page, shift);
    uint32_t way = index_[slot];  // a refill of the same page replaces it
    if (way == kNone) {
        way = set.oldest;
        if (ways_[way].entry.shift != 0) {
            const Entry& old = ways_[way].entry;
            unindex(slot_of(old.page, old.shift));
            slot = slot_of(page, shift);  // the shift may have moved the probe's end
        }
        index_[slot] = way;
    }
    ways_[way].entry = {page, frame, shift, writable};
    make_newest(set, way);
}

// Each set's ways in index order from oldest to newest, all invalid.
void Iotlb::clear() {
    for (uint64_t s = 0; s < sets_.size(); ++s) {
        const uint32_t first = static_cast<uint32_t>(s * ways_per_set_);
        const uint32_t last = first + ways_per_set_ - 1;
        for (uint32_t w = first; w <= last; ++w)
            ways_[w] = {Entry{}, w == first ? kNone : w - 1, w == last ? kNone : w + 1};
        sets_[s] = {last, first};
    }
    for (uint32_t& i : index_) i = kNone;
}

}  // namespace dmasim::model
