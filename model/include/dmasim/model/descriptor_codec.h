// descriptor_codec.h - reading and checking hardware descriptors from
// their bytes (dma_hw.h layouts), independent of any timing, so the same
// code serves the walker and tests or fuzzers that run without SystemC.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/platform.h>

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

/// Bytes one descriptor occupies in the given format.
inline uint32_t descriptor_size(DescriptorFormat f) {
    return f == DescriptorFormat::chained_pages ? DMA_HW_DESC_SIZE : DMA_HW_LL_DESC_SIZE;
}
/// Offset of the status word (followed by bytes_done) inside a descriptor.
inline uint32_t status_offset(DescriptorFormat f) {
    return f == DescriptorFormat::chained_pages ? 0x18 : 0x20;
}

/// Decodes the descriptor at `bytes` (bus address addr) and checks it;
/// returns DMA_ERR_NONE or the error the walker must stop with.
dma_hw_error decode_descriptor(DescriptorFormat f, const uint8_t* bytes, uint64_t addr,
                               Descriptor* out);

}  // namespace dmasim::model
