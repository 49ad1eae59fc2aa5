// iotlb.cc - set lookup and LRU replacement.
#include "iotlb.h"

namespace dmasim::model {

Iotlb::Iotlb(unsigned entries, unsigned ways)
    : entries_(entries), ways_(ways), sets_(entries / ways) {}

const Iotlb::Entry* Iotlb::lookup(uint64_t iova, unsigned shift) {
    const uint64_t page = iova >> shift;
    Entry* set = set_of(page);
    for (unsigned w = 0; w < ways_; ++w) {
        Entry& e = set[w];
        if (e.shift == shift && e.page == page) {
            e.used = ++stamp_;
            return &e;
        }
    }
    return nullptr;
}

void Iotlb::insert(uint64_t iova, unsigned shift, uint64_t frame, bool writable) {
    const uint64_t page = iova >> shift;
    Entry* set = set_of(page);
    Entry* victim = &set[0];
    for (unsigned w = 0; w < ways_; ++w) {
        Entry& e = set[w];
        if (e.shift == shift && e.page == page) {
            victim = &e;  // a refill of the same page replaces it
            break;
        }
        if (e.used < victim->used) victim = &e;  // invalid entries have stamp 0
    }
    *victim = {page, frame, ++stamp_, shift, writable};
}

void Iotlb::clear() {
    for (Entry& e : entries_) e = Entry{};
}

}  // namespace dmasim::model
