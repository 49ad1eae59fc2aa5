// iotlb.h - a set-associative cache of page translations with LRU
// replacement within a set: the IOMMU's IOTLB (4 KiB and 2 MiB entries,
// each tagged with its size), and, fully associative, its walk cache
// (2 MiB IOVA regions -> their leaf table). Fixed storage: a lookup or an
// insert allocates nothing.
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
        uint64_t used = 0;   ///< LRU stamp
        unsigned shift = 0;  ///< page size: 12 or 21; 0 = invalid
        bool writable = false;
    };
    /// The entry for the `1 << shift`-byte page holding `iova`, or null;
    /// a hit becomes the most recently used of its set.
    const Entry* lookup(uint64_t iova, unsigned shift);
    /// Caches the page of `1 << shift` bytes holding `iova` at `frame`,
    /// replacing the least recently used entry of its set.
    void insert(uint64_t iova, unsigned shift, uint64_t frame, bool writable);
    /// Drops every entry.
    void clear();

private:
    Entry* set_of(uint64_t page) { return &entries_[(page & (sets_ - 1)) * ways_]; }

    std::vector<Entry> entries_;
    unsigned ways_;
    uint64_t sets_;
    uint64_t stamp_ = 0;
};

}  // namespace dmasim::model
