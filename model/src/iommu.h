// iommu.h - the IOMMU between the controller's channels and memory
// (docs/timing-model.md, "IOMMU"): with it enabled (iommu.enabled and
// IOMMU_CTRL.ENABLE), every address a channel issues is an IOVA. A
// translation costs iotlb_hit_cycles; an IOTLB miss then walks the page
// tables of dmasim/hw/iommu_hw.h from the ROOT register with dependent
// 8-byte reads through the bus port - booked on the RAM read channel like
// data reads, their bytes read from simulated memory - and caches the leaf
// it finds. One IOMMU serves all channels of a controller.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/hw/iommu_hw.h>
#include <dmasim/model/params.h>

#include <cstdint>
#include <optional>

#include "bus_port.h"
#include "iotlb.h"
#include "trace.h"

namespace dmasim::model {

/// Bytes of [addr, addr + bytes) before the next 4 KiB page boundary: one
/// translation covers them.
inline uint64_t page_piece(uint64_t addr, uint64_t bytes) {
    const uint64_t page_mask = (uint64_t{1} << IOMMU_PAGE_SHIFT) - 1;
    const uint64_t to_boundary = ((addr | page_mask) + 1) - addr;
    return bytes < to_boundary ? bytes : to_boundary;
}

class Iommu {
public:
    Iommu(const IommuParams& params, BusPort& bus);

    /// The platform has an IOMMU (its registers exist, CAPS.IOMMU is set).
    bool present() const { return params_.enabled; }
    /// Channels started now translate their addresses.
    bool active() const { return present() && (ctrl & DMA_IOMMU_CTRL_ENABLE); }

    struct Translation {
        uint64_t phys;   ///< physical address of the IOVA
        uint64_t ready;  ///< cycle the access may issue (or the fault is known)
        dma_hw_error error;
    };
    /// Translates `iova` for an access (a write if `write`) asked for at
    /// cycle t by the channel of `tracks` (a walk is traced on its fetch track).
    Translation translate(uint64_t iova, bool write, uint64_t t, const ChannelTracks& tracks);
    /// IOMMU_INVALIDATE: forgets every cached translation and table pointer.
    void invalidate();

    // Register state (the controller's register table uses these).
    uint32_t ctrl = 0;
    uint64_t root = 0;
    uint64_t fault_iova = 0;  ///< IOVA of the latest translation fault retired

    const IommuStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    struct Leaf {
        uint64_t frame;
        unsigned shift;
        bool writable;
    };
    /// Walks the tables for `iova` from cycle *t (advanced past every
    /// read); false if an entry is missing or unreadable.
    bool walk(uint64_t iova, uint64_t* t, Leaf* leaf);
    /// Reads the page-table entry at `addr` at cycle *t.
    bool read_entry(uint64_t addr, uint64_t* t, uint64_t* entry);
    Translation fault(uint64_t ready);

    IommuParams params_;
    BusPort& bus_;
    Iotlb iotlb_;
    std::optional<Iotlb> walk_cache_;  ///< level-2 entries by 2 MiB region
    IommuStats stats_;
};

}  // namespace dmasim::model
