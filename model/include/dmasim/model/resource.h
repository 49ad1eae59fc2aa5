// resource.h - a shared channel (bus read or write channel, device
// stream) that serves one transfer at a time and remembers when it is next
// free. This is the whole timing engine of design §4: a transfer that asks
// at cycle t starts at max(t, free_at) and holds the channel for its
// occupancy; no clock process, no event per beat.
#pragma once

#include <dmasim/model/platform.h>

#include <algorithm>
#include <cstdint>

namespace dmasim::model {

class Resource {
public:
    /// Books the channel for `occupancy` cycles from the first free cycle
    /// at or after `earliest`; returns the cycle the transfer starts.
    uint64_t book(uint64_t earliest, uint64_t occupancy, uint64_t bytes) {
        uint64_t start = std::max(earliest, free_at_);
        free_at_ = start + occupancy;
        stats_.bytes += bytes;
        stats_.bursts += 1;
        stats_.busy_cycles += occupancy;
        return start;
    }
    uint64_t free_at() const { return free_at_; }
    const ResourceStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    uint64_t free_at_ = 0;
    ResourceStats stats_;
};

}  // namespace dmasim::model
