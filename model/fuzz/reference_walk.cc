// reference_walk.cc - the fuzz harness's own descriptor walk (plain reads
// of the dma_hw.h layouts, no model code), used to bound what the
// controller may write.
#include "reference_walk.h"

#include <dmasim/hw/dma_hw.h>

#include <algorithm>
#include <cstring>
#include <unordered_set>

namespace dmasim::model::fuzz {
namespace {

bool overlaps(const Range& a, const Range& b) { return a.begin < b.end && b.begin < a.end; }

/// [addr, addr + len) clipped to RAM, or empty.
Range clip(uint64_t addr, uint64_t len, uint64_t size) {
    if (addr >= size) return {};
    return {addr, addr + (len < size - addr ? len : size - addr)};
}

bool inside(uint64_t addr, uint64_t len, uint64_t size) {
    return addr <= size && len <= size - addr;
}

/// One descriptor's fields, whichever the format.
struct Fields {
    uint64_t next, src, dst;
    uint32_t length, flags;
};

Fields read_fields(const uint8_t* p, dma_hw_format f) {
    if (f == DMA_HW_FMT_CHAINED_PAGES) {
        dma_hw_desc d;
        std::memcpy(&d, p, sizeof d);
        return {d.src, d.src, d.dst, d.length, d.flags};
    }
    dma_hw_ll_desc d;
    std::memcpy(&d, p, sizeof d);
    return {d.next, d.src, d.dst, d.length, d.flags};
}

}  // namespace

ReferenceWalk reference_walk(const uint8_t* ram, uint64_t size, dma_hw_format f, uint64_t first,
                             bool writes_mem, uint64_t limit) {
    const uint64_t desc = f == DMA_HW_FMT_CHAINED_PAGES ? DMA_HW_DESC_SIZE : DMA_HW_LL_DESC_SIZE;
    const uint64_t status_at = f == DMA_HW_FMT_CHAINED_PAGES ? 0x18 : 0x20;
    ReferenceWalk w;
    std::unordered_set<uint64_t> seen;
    for (uint64_t addr = first; w.descriptors.size() < limit && seen.insert(addr).second;) {
        // A descriptor straddling the end of RAM may still get its status.
        w.status.push_back(clip(addr + status_at, 8, size));
        w.descriptors.push_back(clip(addr, desc, size));
        w.writes.push_back(w.status.back());
        if (!inside(addr, desc, size)) break;
        Fields d = read_fields(ram + addr, f);
        if (f == DMA_HW_FMT_CHAINED_PAGES && (d.flags & DMA_DESC_CHAIN)) {
            addr = d.next;
            continue;
        }
        ++w.data_descriptors;
        w.bytes += d.length;
        // A range not wholly inside RAM must be refused before any byte moves.
        if (inside(d.src, d.length, size) && inside(d.dst, d.length, size)) {
            w.moves.push_back({{d.src, d.src + d.length}, {d.dst, d.dst + d.length}});
            if (writes_mem) w.writes.push_back(w.moves.back().dst);
        } else if (writes_mem && inside(d.dst, d.length, size)) {
            w.writes.push_back({d.dst, d.dst + d.length});  // dev_to_mem ignores src
        }
        if (d.flags & DMA_DESC_END) {
            w.ended = true;
            break;
        }
        addr = f == DMA_HW_FMT_CHAINED_PAGES ? addr + desc : d.next;
    }
    return w;
}

bool self_modifying(const ReferenceWalk& w) {
    // Descriptors by start address, so each write looks only at those that
    // start within one descriptor length below it (a walk may have ~130
    // descriptors and as many writes: the pairwise loop was most of the
    // harness's time).
    std::vector<size_t> by_begin(w.descriptors.size());
    uint64_t longest = 0;
    for (size_t i = 0; i < by_begin.size(); ++i) {
        by_begin[i] = i;
        longest = std::max(longest, w.descriptors[i].end - w.descriptors[i].begin);
    }
    std::sort(by_begin.begin(), by_begin.end(),
              [&](size_t a, size_t b) { return w.descriptors[a].begin < w.descriptors[b].begin; });
    for (const Range& wr : w.writes) {
        const uint64_t lowest = wr.begin < longest ? 0 : wr.begin - longest;
        auto it =
            std::lower_bound(by_begin.begin(), by_begin.end(), lowest,
                             [&](size_t i, uint64_t at) { return w.descriptors[i].begin < at; });
        for (; it != by_begin.end() && w.descriptors[*it].begin < wr.end; ++it) {
            const Range& own = w.status[*it];
            const bool is_own = wr.begin == own.begin && wr.end == own.end;
            if (!is_own && overlaps(wr, w.descriptors[*it])) return true;
        }
    }
    return false;
}

bool order_dependent(const ReferenceWalk& w) {
    for (size_t i = 0; i < w.moves.size(); ++i) {
        for (const Range& wr : w.writes)
            if (overlaps(w.moves[i].src, wr)) return true;
        for (const Range& st : w.status)
            if (overlaps(w.moves[i].dst, st)) return true;
        for (size_t j = i + 1; j < w.moves.size(); ++j)
            if (overlaps(w.moves[i].dst, w.moves[j].dst)) return true;
    }
    return false;
}

}  // namespace dmasim::model::fuzz
