// iommu.cc - IOTLB lookup, the page-table walk and its timing.
#include "iommu.h"

#include <dmasim/hw/iommu_hw.h>

namespace dmasim::model {

Iommu::Iommu(const IommuParams& params, BusPort& bus)
    : params_(params), bus_(bus), iotlb_(params.iotlb_entries, params.iotlb_ways) {
    if (params.walk_cache_entries > 0)
        walk_cache_.emplace(params.walk_cache_entries, params.walk_cache_entries);
}

void Iommu::invalidate() {
    iotlb_.clear();
    if (walk_cache_) walk_cache_->clear();
}

Iommu::Translation Iommu::fault(uint64_t ready) {
    stats_.translation_faults += 1;
    return {0, ready, DMA_ERR_TRANSLATION};
}

// The lookup costs iotlb_hit_cycles whether it hits or not; a miss then
// adds its walk. With 2 MiB pages the IOTLB is probed for both sizes at once.
Iommu::Translation Iommu::translate(uint64_t iova, bool write, uint64_t t,
                                    const ChannelTracks& tracks) {
    uint64_t ready = t + params_.iotlb_hit_cycles;
    const bool large = params_.page_bytes > IOMMU_PT_BYTES;
    const Iotlb::Entry* hit = iotlb_.lookup(iova, IOMMU_PAGE_SHIFT);
    if (!hit && large) hit = iotlb_.lookup(iova, IOMMU_LARGE_SHIFT);
    Leaf leaf{};
    if (hit) {
        stats_.iotlb_hits += 1;
        leaf = {hit->frame, hit->shift, hit->writable};
    } else {
        stats_.iotlb_misses += 1;
        const uint64_t walk_from = ready;
        const bool found = walk(iova, &ready, &leaf);
        if (tracks.on()) {
            TraceArgs args;
            args.address = iova;
            tracks.slice(TraceTrack::fetch, "iommu walk", walk_from, ready, args);
        }
        if (!found) {
            stats_.translation_cycles += ready - t;
            tracks.charge(Cause::iommu, t, ready);
            return fault(ready);
        }
        // Without 2 MiB entries a 2 MiB leaf is cached as the 4 KiB page used.
        if (leaf.shift == IOMMU_LARGE_SHIFT && !large) {
            leaf.frame += iova & ((uint64_t{1} << IOMMU_LARGE_SHIFT) - 1) &
                          ~((uint64_t{1} << IOMMU_PAGE_SHIFT) - 1);
            leaf.shift = IOMMU_PAGE_SHIFT;
        }
        iotlb_.insert(iova, leaf.shift, leaf.frame, leaf.writable);
    }
    stats_.translation_cycles += ready - t;
    tracks.charge(Cause::iommu, t, ready);
    if (write && !leaf.writable) return fault(ready);
    return {leaf.frame + (iova & ((uint64_t{1} << leaf.shift) - 1)), ready, DMA_ERR_NONE};
}

// Root at level L, one dependent read per level down to the leaf: a
// level-1 entry (4 KiB page) or a level-2 entry with IOMMU_PTE_LEAF
// (2 MiB). A walk-cache hit starts at the leaf table.
bool Iommu::walk(uint64_t iova, uint64_t* t, Leaf* leaf) {
    const unsigned levels = params_.walk_levels;
    if (iova >> IOMMU_IOVA_BITS(levels)) return false;
    unsigned level = levels;
    uint64_t table = root & IOMMU_PTE_ADDR_MASK;
    if (walk_cache_) {
        if (const Iotlb::Entry* e = walk_cache_->lookup(iova, IOMMU_LARGE_SHIFT)) {
            stats_.walk_cache_hits += 1;
            table = e->frame;
            level = 1;
        }
    }
    for (;; --level) {
        uint64_t entry = 0;
        if (!read_entry(table + 8u * IOMMU_PT_INDEX(iova, level), t, &entry)) return false;
        if (!(entry & IOMMU_PTE_PRESENT)) return false;
        const uint64_t next = entry & IOMMU_PTE_ADDR_MASK;
        const bool writable = (entry & IOMMU_PTE_WRITE) != 0;
        if (level == 1) {
            *leaf = {next, IOMMU_PAGE_SHIFT, writable};
            return true;
        }
        if (level == 2 && (entry & IOMMU_PTE_LEAF)) {
            const uint64_t large_mask = (uint64_t{1} << IOMMU_LARGE_SHIFT) - 1;
            *leaf = {next & ~large_mask, IOMMU_LARGE_SHIFT, writable};
            return true;
        }
        if (level == 2 && walk_cache_) walk_cache_->insert(iova, IOMMU_LARGE_SHIFT, next, true);
        table = next;
    }
}

// A real read of simulated memory at a bus address, timed like a one-word
// data read. An entry out of reach or a bus error fails the walk.
bool Iommu::read_entry(uint64_t addr, uint64_t* t, uint64_t* entry) {
    uint8_t bytes[8];
    if (!bus_.reachable(addr, sizeof bytes)) return false;  // nothing to read
    stats_.walk_reads += 1;
    const BusAccess r = bus_.read(*t, addr, sizeof bytes, bytes);
    *t = r.done;
    if (r.fault != BusFault::none) return false;
    uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = value << 8 | bytes[i];  // little-endian
    *entry = value;
    return true;
}

}  // namespace dmasim::model
