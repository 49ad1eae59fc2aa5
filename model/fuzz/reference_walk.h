// reference_walk.h - an independent, deliberately permissive walk of a
// descriptor list over a memory snapshot: which bytes the controller may
// write (status write-backs and the data destinations of every descriptor
// on the path) and, for a list that completes, how many data descriptors
// and payload bytes it has. It follows the path further than the hardware
// may (it ignores bad flags, zero lengths and the walk limits), so its
// write set is a superset of what a correct controller writes.
#pragma once

#include <dmasim/model/platform.h>

#include <cstdint>
#include <vector>

namespace dmasim::model::fuzz {

struct Range {
    uint64_t begin = 0, end = 0;  ///< [begin, end)
};

struct DataMove {
    Range src, dst;
};

struct ReferenceWalk {
    std::vector<Range> descriptors;  ///< each visited descriptor's bytes (inside RAM)
    std::vector<Range> status;       ///< their write-back words, same order
    std::vector<DataMove> moves;     ///< data descriptors whose ranges lie inside RAM
    std::vector<Range> writes;       ///< every range the controller may write
    uint64_t data_descriptors = 0;
    uint64_t bytes = 0;
    bool ended = false;  ///< reached a data descriptor with END
};

/// Walks from `first` over ram[0, size) in format `f`, at most `limit`
/// descriptors; `writes_mem` says whether the direction writes data to RAM.
ReferenceWalk reference_walk(const uint8_t* ram, uint64_t size, dma_hw_format f, uint64_t first,
                             bool writes_mem, uint64_t limit);

/// True if a write of the walk may change a descriptor the walk read
/// (other than that descriptor's own status words): the controller then
/// sees a list that depends on timing, which the reference cannot follow.
bool self_modifying(const ReferenceWalk& w);

/// True if the bytes a destination ends up with depend on the order of
/// the writes: a source overlaps a write, or a destination overlaps
/// another destination or a status word.
bool order_dependent(const ReferenceWalk& w);

}  // namespace dmasim::model::fuzz
