// descriptor_codec.h - reading and checking hardware descriptors from
// their bytes (dma_hw.h layouts), independent of any timing, so the same
// code serves the walker and tests or fuzzers that run without SystemC.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/params.h>

#include <cstdint>

namespace dmasim::model {

/// One descriptor as the walker sees it, in either format.
struct Descriptor {
    uint64_t addr = 0;  ///< bus address of the descriptor itself
    uint64_t src = 0;   ///< data source, or next chunk for a chain slot
    uint64_t dst = 0;
    uint64_t next = 0;  ///< linked_list: successor
    uint32_t length = 0;
    uint32_t flags = 0;
    bool is_chain_slot = false;  ///< chained_pages chain descriptor (no data)
};

/// Bytes read for one descriptor: its fields and APP words.
inline uint32_t descriptor_size(const dma_hw_layout& l) { return dma_hw_layout_read(&l); }
/// Distance between consecutive descriptors of a chunk.
inline uint32_t descriptor_stride(const dma_hw_layout& l) { return dma_hw_layout_stride(&l); }

/// Whether the layout's status is the 16-bit word of the compact and
/// 32-byte in-slot layouts (no bytes_done).
inline bool short_status(const dma_hw_layout& l) {
    return l.slot_bytes == DMA_HW_DESC16_SIZE || dma_hw_layout_is_ll32(&l);
}
/// Offset of the status word (followed by bytes_done unless short)
/// inside a descriptor.
inline uint32_t status_offset(const dma_hw_layout& l) {
    const bool linked = l.format == DMA_HW_FMT_LINKED_LIST;
    if (dma_hw_layout_is_ll32(&l)) return 0x1E;
    if (l.slot_bytes == DMA_HW_DESC16_SIZE) return linked ? 0x12 : 0x0E;
    return linked ? 0x20 : 0x18;
}
/// Bytes a status write-back writes: a 16-bit status, or the 32-bit
/// status and bytes_done.
inline uint32_t status_bytes(const dma_hw_layout& l) { return short_status(l) ? 2 : 8; }

/// Decodes the descriptor at `bytes` (bus address addr) and checks it;
/// returns DMA_ERR_NONE or the error the walker must stop with.
dma_hw_error decode_descriptor(const dma_hw_layout& layout, const uint8_t* bytes, uint64_t addr,
                               Descriptor* out);

}  // namespace dmasim::model
