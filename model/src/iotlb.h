// iotlb.h - a set-associative cache of page translations with LRU
// replacement within a set: the IOMMU's IOTLB (4 KiB and 2 MiB entries,
// each tagged with its size), and, fully associative, its walk cache
// (2 MiB IOVA regions -> their leaf table). Fixed storage: a lookup or an
// insert allocates nothing, and costs the same whatever the associativity
// (issue 28: a 65536-way IOTLB once scanned its set on every lookup): an
// open-addressing index finds a page's entry, and each set keeps its ways
// in a list from most to least recently used.
#pragma once

#include <cstdint>
#include <vector>

namespace dmasim::model {

class Iotlb {
public:
    /// `entries` / `ways` sets; validate_iommu() makes that a power of two.
    Iotlb(unsigned entries, unsigned ways);

    struct Entry {
        uint64_t page = 0;   ///< IOVA >> shift
        uint64_t frame = 0;  ///< physical address of the page (or of the table it names)
        unsigned shift = 0;  ///< page size: 12 or 21; 0 = invalid
        bool writable = false;
    };
    /// The entry for the `1 << shift`-byte page holding `iova`, or null;
    /// a hit becomes the most recently used of its set.
    const Entry* lookup(uint64_t iova, unsigned shift);
    /// Caches the page of `1 << shift` bytes holding `iova` at `frame`,
    /// replacing the least recently used entry of its set (invalid
    /// entries first).
    void insert(uint64_t iova, unsigned shift, uint64_t frame, bool writable);
    /// Drops every entry.
    void clear();

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    struct Way {
        Entry entry;
        uint32_t older = kNone, newer = kNone;  ///< neighbours in its set's LRU list
    };
    struct Set {
        uint32_t newest = kNone, oldest = kNone;
    };

    Set& set_of(uint64_t page) { return sets_[page & (sets_.size() - 1)]; }
    /// Index slot holding `page` of size `shift`, or the empty slot ending its probe.
    uint64_t slot_of(uint64_t page, unsigned shift) const;
    uint64_t home(const Entry& e) const;
    /// Removes the entry in `slot` from the index, closing the probe gap.
    void unindex(uint64_t slot);
    void unlink(Set& set, uint32_t way);
    void make_newest(Set& set, uint32_t way);

    std::vector<Way> ways_;
    std::vector<Set> sets_;
    unsigned ways_per_set_;
    std::vector<uint32_t> index_;  ///< way of each cached page, linear probing; kNone = empty
    unsigned index_bits_;
};

}  // namespace dmasim::model
