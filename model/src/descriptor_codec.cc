// descriptor_codec.cc - descriptor decoding and validity rules.
#include "descriptor_codec.h"

#include <cstring>

namespace dmasim::model {

namespace {

dma_hw_error check_chain_slot(const Descriptor& d) {
    if (d.flags & ~DMA_DESC_FLAGS_VALID) return DMA_ERR_BAD_DESCRIPTOR;
    if (d.flags & DMA_DESC_END) return DMA_ERR_BAD_DESCRIPTOR;
    return DMA_ERR_NONE;
}

dma_hw_error check_data(const Descriptor& d) {
    if (d.flags & ~DMA_DESC_FLAGS_VALID) return DMA_ERR_BAD_DESCRIPTOR;
    if (d.length == 0) return DMA_ERR_ZERO_LENGTH;
    return DMA_ERR_NONE;
}

template <typename Raw>
Raw read_raw(const uint8_t* bytes) {
    Raw raw;
    std::memcpy(&raw, bytes, sizeof raw);
    return raw;
}

template <typename Raw>
void take_fields(const Raw& raw, Descriptor* d) {
    d->src = raw.src;
    d->dst = raw.dst;
    d->length = raw.length;
    d->flags = raw.flags;
}

template <typename Raw>
dma_hw_error decode_chained(const uint8_t* bytes, Descriptor* d) {
    take_fields(read_raw<Raw>(bytes), d);
    d->is_chain_slot = (d->flags & DMA_DESC_CHAIN) != 0;
    return d->is_chain_slot ? check_chain_slot(*d) : check_data(*d);
}

template <typename Raw>
dma_hw_error decode_linked(const uint8_t* bytes, Descriptor* d) {
    Raw raw = read_raw<Raw>(bytes);
    take_fields(raw, d);
    d->next = raw.next;
    if (raw.reserved != 0) return DMA_ERR_BAD_DESCRIPTOR;
    return check_data(*d);
}

// The 32-byte in-slot layout has no reserved word to check.
dma_hw_error decode_linked32(const uint8_t* bytes, Descriptor* d) {
    dma_hw_ll_desc32 raw = read_raw<dma_hw_ll_desc32>(bytes);
    take_fields(raw, d);
    d->next = raw.next;
    return check_data(*d);
}

}  // namespace

// The 64-byte layouts start with the 32-byte (chained_pages) or 48-byte
// (linked_list) ones; the hardware ignores their tail and the APP words.
dma_hw_error decode_descriptor(const dma_hw_layout& layout, const uint8_t* bytes, uint64_t addr,
                               Descriptor* out) {
    *out = Descriptor{};
    out->addr = addr;
    const bool compact = layout.slot_bytes == DMA_HW_DESC16_SIZE;
    if (layout.format == DMA_HW_FMT_CHAINED_PAGES)
        return compact ? decode_chained<dma_hw_desc16>(bytes, out)
                       : decode_chained<dma_hw_desc>(bytes, out);
    if (dma_hw_layout_is_ll32(&layout)) return decode_linked32(bytes, out);
    return compact ? decode_linked<dma_hw_ll_desc24>(bytes, out)
                   : decode_linked<dma_hw_ll_desc>(bytes, out);
}

}  // namespace dmasim::model
