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

// `descriptor_bytes` is DmaParams::descriptor_bytes (16, 32 or 64): the
// chained_pages slot size; linked_list adds its next pointer.

/// Bytes one descriptor occupies in the given format.
inline uint32_t descriptor_size(dma_hw_format f, unsigned descriptor_bytes = DMA_HW_DESC_SIZE) {
    return dma_hw_desc_size(f, descriptor_bytes);
}
/// Offset of the status word (followed by bytes_done unless compact)
/// inside a descriptor.
inline uint32_t status_offset(dma_hw_format f, unsigned descriptor_bytes = DMA_HW_DESC_SIZE) {
    bool linked = f == DMA_HW_FMT_LINKED_LIST;
    if (descriptor_bytes == DMA_HW_DESC16_SIZE) return linked ? 0x12 : 0x0E;
    return linked ? 0x20 : 0x18;
}
/// Bytes a status write-back writes: a 16-bit status (compact), or the
/// 32-bit status and bytes_done.
inline uint32_t status_bytes(unsigned descriptor_bytes) {
    return descriptor_bytes == DMA_HW_DESC16_SIZE ? 2 : 8;
}

/// Decodes the descriptor at `bytes` (bus address addr) and checks it;
/// returns DMA_ERR_NONE or the error the walker must stop with.
dma_hw_error decode_descriptor(dma_hw_format f, const uint8_t* bytes, uint64_t addr,
                               Descriptor* out, unsigned descriptor_bytes = DMA_HW_DESC_SIZE);

}  // namespace dmasim::model
