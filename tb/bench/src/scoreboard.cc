// scoreboard.cc - see scoreboard.h.
#include "scoreboard.h"

#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/model/device_port.h>
#include <fmt/format.h>
#include <sglist/mm.h>
#include <sglist/scatterlist.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "host_threads.h"

namespace dmasim::tb {
namespace {

constexpr size_t kPatternPeriod = 65521;  // largest prime below 64 Ki

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Index of the first byte where a and b differ, or n.
size_t first_difference(const uint8_t* a, const uint8_t* b, size_t n) {
    if (std::memcmp(a, b, n) == 0) return n;
    return static_cast<size_t>(std::mismatch(a, a + n, b).first - a);
}

template <uint8_t Byte>
const std::array<uint8_t, 4096>& block_of_byte() {
    static const std::array<uint8_t, 4096> block = [] {
        std::array<uint8_t, 4096> b{};
        b.fill(Byte);
        return b;
    }();
    return block;
}

// Offset of the first byte in [p, p + n) that is not Byte, or n.
template <uint8_t Byte>
size_t first_other_than(const uint8_t* p, size_t n) {
    const auto& block = block_of_byte<Byte>();
    for (size_t done = 0; done < n;) {
        const size_t step = std::min(n - done, block.size());
        const size_t bad = first_difference(p + done, block.data(), step);
        if (bad < step) return done + bad;
        done += step;
    }
    return n;
}

uint8_t* segment_of(const scatterlist* sg) {
    return static_cast<uint8_t*>(page_address(sg_page(const_cast<scatterlist*>(sg)))) + sg->offset;
}

uint64_t segment_bus(const scatterlist* sg) {
    return page_to_phys(sg_page(const_cast<scatterlist*>(sg))) + sg->offset;
}

// The memory a segment owns: its whole page block, or (a page fragment,
// whose neighbours are other segments) just its own bytes.
struct Block {
    uint8_t* start;
    size_t bytes;
    size_t segment_offset;  ///< where the segment starts in it
};

Block block_of(const scatterlist* sg, dmasim_buf_layout layout) {
    if (dmasim_buf_is_fragment(layout, sg->length)) return {segment_of(sg), sg->length, 0};
    return {segment_of(sg) - sg->offset,
            size_t{PAGE_SIZE} << get_order(uint64_t{sg->offset} + sg->length), sg->offset};
}

// Do `b`'s frames still hold the zeros they were handed out with? (The
// testbench fills a destination right after it is allocated.)
bool in_fresh_frames(const scatterlist* sg, const Block& b) {
    struct page* first = sg_page(const_cast<scatterlist*>(sg));
    const auto* first_byte = static_cast<const uint8_t*>(page_address(first));
    return sim_mem_frames_fresh(first,
                                PAGE_ALIGN(uint64_t(b.start - first_byte) + b.bytes) >> PAGE_SHIFT);
}

// Below this many bytes a part's thread costs more than it saves.
constexpr uint64_t kPartMinBytes = 4ull << 20;

// Parts to cut `sgt` into: one per core, fewer for a short list. Stops
// counting once there is enough for every core: a long list is not
// walked.
unsigned part_count(const sg_table& sgt) {
    const uint64_t enough = kPartMinBytes * host_cores();
    scatterlist* sg;
    unsigned int i;
    uint64_t bytes = 0;
    for_each_sgtable_sg(&sgt, sg, i) {
        if ((bytes += sg->length) >= enough) break;
    }
    return static_cast<unsigned>(std::clamp<uint64_t>(bytes / kPartMinBytes, 1, host_cores()));
}

// Calls visit(sg, index, pos) on `sgt`'s entries, pos the stream offset
// (from `base`) of the entry's first byte. The list is cut into parts of
// equal entry counts, each on a core of its own, which walks to its first
// entry itself (a walk is cheap beside the bytes it then visits). Returns
// the mismatch a visit found first in list order, if any.
template <typename Visit>
std::optional<Mismatch> visit_in_parts(const sg_table& sgt, uint64_t base, Visit visit) {
    const unsigned parts = part_count(sgt);
    const uint64_t entries = sgt.orig_nents;
    std::vector<std::optional<Mismatch>> found(parts);
    run_in_parallel(parts, [&](size_t k) {
        const auto first = static_cast<unsigned>(entries * k / parts);
        const auto end = static_cast<unsigned>(entries * (k + 1) / parts);
        scatterlist* sg = sgt.sgl;
        uint64_t pos = base;
        for (unsigned i = 0; i < end; ++i, sg = sg_next(sg)) {
            if (i >= first && (found[k] = visit(sg, i, pos))) return;
            pos += sg->length;
        }
    });
    for (auto& mismatch : found)
        if (mismatch) return std::move(mismatch);
    return std::nullopt;
}

}  // namespace

Pattern::Pattern(uint64_t seed) : bytes_(kPatternPeriod) {
    uint64_t state = seed;
    for (size_t i = 0; i < bytes_.size(); i += 8) {
        const uint64_t word = splitmix(state);
        std::memcpy(&bytes_[i], &word, std::min<size_t>(8, bytes_.size() - i));
    }
}

const uint8_t* Pattern::at(uint64_t pos, size_t& avail) const {
    const size_t index = pos % bytes_.size();
    avail = bytes_.size() - index;
    return &bytes_[index];
}

void Scoreboard::fill_source(const sg_table& sgt, uint64_t base) const {
    visit_in_parts(sgt, base, [this](scatterlist* sg, unsigned, uint64_t pos) {
        auto* dst = segment_of(sg);
        for (size_t done = 0; done < sg->length;) {
            size_t avail;
            const uint8_t* src = pattern_.at(pos + done, avail);
            const size_t step = std::min<size_t>(avail, sg->length - done);
            std::memcpy(dst + done, src, step);
            done += step;
        }
        return std::optional<Mismatch>{};
    });
}

void Scoreboard::fill_destination(const sg_table& sgt, dmasim_buf_layout layout) {
    visit_in_parts(sgt, 0, [layout](scatterlist* sg, unsigned, uint64_t) {
        const Block b = block_of(sg, layout);
        const size_t end = b.segment_offset + sg->length;
        std::memset(b.start, kDestinationFill, b.segment_offset);
        std::memset(b.start + end, kDestinationFill, b.bytes - end);
        if (!in_fresh_frames(sg, b))
            std::memset(b.start + b.segment_offset, kSegmentFill, sg->length);
        return std::optional<Mismatch>{};
    });
}

std::optional<Mismatch> Scoreboard::compare(const sg_table& sgt, uint64_t base,
                                            const char* list_name) const {
    return visit_in_parts(
        sgt, base,
        [this, list_name](scatterlist* sg, unsigned i, uint64_t pos) -> std::optional<Mismatch> {
            const uint8_t* got = segment_of(sg);
            for (size_t done = 0; done < sg->length;) {
                size_t avail;
                const uint8_t* want = pattern_.at(pos + done, avail);
                const size_t step = std::min<size_t>(avail, sg->length - done);
                const size_t bad = first_difference(got + done, want, step);
                if (bad < step) {
                    const size_t at = done + bad;
                    return Mismatch{
                        segment_bus(sg) + at,
                        fmt::format("{} segment {} byte {}: read {:#04x}, expected {:#04x}",
                                    list_name, i, at, got[at], want[bad])};
                }
                done += step;
            }
            return std::nullopt;
        });
}

std::optional<Mismatch> Scoreboard::compare_device(const sg_table& sgt, uint64_t base) {
    return visit_in_parts(
        sgt, base, [](scatterlist* sg, unsigned i, uint64_t pos) -> std::optional<Mismatch> {
            std::array<uint8_t, 4096> want;
            const uint8_t* got = segment_of(sg);
            for (size_t done = 0; done < sg->length;) {
                const size_t step = std::min<size_t>(want.size(), sg->length - done);
                // The device's stream is a hash of the offset: regenerate a block.
                for (size_t k = 0; k < step; ++k)
                    want[k] = model::DevicePort::pattern_byte(pos + done + k);
                const size_t bad = first_difference(got + done, want.data(), step);
                if (bad < step) {
                    const size_t at = done + bad;
                    return Mismatch{segment_bus(sg) + at,
                                    fmt::format("destination segment {} byte {}: read {:#04x}, "
                                                "the device sent {:#04x}",
                                                i, at, got[at], want[bad])};
                }
                done += step;
            }
            return std::nullopt;
        });
}

uint64_t Scoreboard::digest(const sg_table& sgt, uint64_t digest) {
    scatterlist* sg;
    unsigned int i;
    for_each_sgtable_sg(&sgt, sg, i) digest =
        model::DevicePort::digest_of(segment_of(sg), sg->length, digest);
    return digest;
}

std::optional<Mismatch> Scoreboard::compare_fill(const sg_table& sgt, bool include_segments,
                                                 dmasim_buf_layout layout) {
    return visit_in_parts(
        sgt, 0,
        [include_segments, layout](scatterlist* sg, unsigned i,
                                   uint64_t) -> std::optional<Mismatch> {
            const Block b = block_of(sg, layout);
            const size_t end = b.segment_offset + sg->length;
            size_t bad = first_other_than<kDestinationFill>(b.start, b.segment_offset);
            if (bad == b.segment_offset) {
                const size_t in_segment =
                    include_segments ? first_other_than<kSegmentFill>(b.start + bad, sg->length)
                                     : sg->length;
                bad = in_segment < sg->length
                          ? bad + in_segment
                          : end + first_other_than<kDestinationFill>(b.start + end, b.bytes - end);
            }
            if (bad == b.bytes) return std::nullopt;
            return Mismatch{
                segment_bus(sg) - b.segment_offset + bad,
                fmt::format(
                    "destination segment {}: byte {} of its {}{} changed to {:#04x}", i, bad,
                    b.segment_offset == 0 && b.bytes == sg->length ? "fragment" : "page block",
                    include_segments ? "" : ", outside the segment,", b.start[bad])};
        });
}

}  // namespace dmasim::tb
