// scoreboard.h - patterned source data and byte-for-byte checks of the
// destination, using only memcpy/memcmp over whole runs of bytes.
#pragma once

#include <dmasim/workload/workload.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dmasim::tb {

/// A seeded pseudo-random byte stream, periodic with a prime period so
/// that equal-sized segments at different stream offsets hold different
/// data and a misplaced segment is caught.
class Pattern {
public:
    explicit Pattern(uint64_t seed);
    /// Bytes at stream offset `pos`: a pointer and how many follow it
    /// contiguously (at least 1).
    const uint8_t* at(uint64_t pos, size_t& avail) const;

private:
    std::vector<uint8_t> bytes_;
};

/// The first byte that differs from what was expected.
struct Mismatch {
    std::optional<uint64_t> bus_address;  ///< none for failures that are not a byte
    std::string what;
};

/// Byte a destination segment holds before a transfer: the zero a frame
/// in its first allocation holds already, so those need no fill.
inline constexpr uint8_t kSegmentFill = 0x00;
/// Byte the rest of a destination segment's memory holds before a
/// transfer: not zero, so a DMA running past a segment with the zeros
/// around a source segment is caught.
inline constexpr uint8_t kDestinationFill = 0xA5;

class Scoreboard {
public:
    explicit Scoreboard(uint64_t seed) : pattern_(seed) {}

    /// Writes the stream starting at `base` into the segments of `sgt`.
    void fill_source(const sg_table& sgt, uint64_t base) const;
    /// Fills the memory `sgt`'s segments own (their whole page blocks, or
    /// just the segment for a page fragment): the segments with
    /// kSegmentFill, where their frames do not hold it already, the rest
    /// with kDestinationFill.
    static void fill_destination(const sg_table& sgt, dmasim_buf_layout layout);

    /// First segment byte of `sgt` that differs from the stream at `base`.
    std::optional<Mismatch> compare(const sg_table& sgt, uint64_t base,
                                    const char* list_name) const;
    /// First segment byte of `sgt` that differs from the device's source
    /// stream (model::DevicePort::pattern_byte) starting at offset `pos`.
    static std::optional<Mismatch> compare_device(const sg_table& sgt, uint64_t pos);
    /// FNV-1a digest (model::DevicePort::digest_of) of `sgt`'s segments in
    /// order, continuing from `digest`: what a device sink folds them into.
    static uint64_t digest(const sg_table& sgt, uint64_t digest);
    /// First byte of the memory `sgt`'s segments own (as fill_destination)
    /// that is not what fill_destination left there: outside the segments
    /// only, or (for a list never written) everywhere.
    static std::optional<Mismatch> compare_fill(const sg_table& sgt, bool include_segments,
                                                dmasim_buf_layout layout);

private:
    Pattern pattern_;
};

}  // namespace dmasim::tb
