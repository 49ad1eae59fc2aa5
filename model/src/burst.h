// burst.h - how the data mover cuts a byte range into bus bursts.
//
// A burst touches at most `max_beats` bus words of `width` bytes and never
// crosses a 4 KiB boundary; an unaligned start or odd length gives partial
// first and last beats, each still counted as a beat.
#pragma once

#include <algorithm>
#include <cstdint>

namespace dmasim::model {

constexpr uint64_t kBurstBoundary = 4096;

/// End (exclusive) of the burst that starts at addr within [addr, end).
inline uint64_t burst_end(uint64_t addr, uint64_t end, unsigned width, unsigned max_beats) {
    uint64_t beat_limit = (addr & ~uint64_t(width - 1)) + uint64_t(max_beats) * width;
    uint64_t page_limit = (addr | (kBurstBoundary - 1)) + 1;
    return std::min({end, beat_limit, page_limit});
}

/// Bus words touched by bytes [addr, addr + bytes); bytes > 0. The width is
/// a power of two (the controller refuses others), so a shift divides: this
/// runs for every burst.
inline uint64_t beats_of(uint64_t addr, uint64_t bytes, unsigned width) {
    const unsigned shift = static_cast<unsigned>(__builtin_ctz(width));
    return ((addr + bytes - 1) >> shift) - (addr >> shift) + 1;
}

}  // namespace dmasim::model
