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

/// Offset of the status word (followed by bytes_done unless short)
/// inside a descriptor.
inline uint32_t status_offset(const dma_hw_layout& l) { return dma_hw_layout_status_offset(&l); }
/// Bytes a status write-back writes.
inline uint32_t status_bytes(const dma_hw_layout& l) { return dma_hw_layout_status_bytes(&l); }

/// Decodes the descriptor at `bytes` (bus address addr) and checks it;
/// returns DMA_ERR_NONE or the error the walker must stop with.
dma_hw_error decode_descriptor(const dma_hw_layout& layout, const uint8_t* bytes, uint64_t addr,
                               Descriptor* out);

}  // namespace dmasim::model
