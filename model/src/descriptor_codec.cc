// descriptor_codec.cc - descriptor decoding and validity rules.
#include <dmasim/model/descriptor_codec.h>

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

dma_hw_error decode_chained(const uint8_t* bytes, Descriptor* d) {
    dma_hw_desc raw;
    std::memcpy(&raw, bytes, sizeof raw);
    d->src = raw.src;
    d->dst = raw.dst;
    d->length = raw.length;
    d->flags = raw.flags;
    d->is_chain_slot = (raw.flags & DMA_DESC_CHAIN) != 0;
    return d->is_chain_slot ? check_chain_slot(*d) : check_data(*d);
}

dma_hw_error decode_linked(const uint8_t* bytes, Descriptor* d) {
    dma_hw_ll_desc raw;
    std::memcpy(&raw, bytes, sizeof raw);
    d->next = raw.next;
    d->src = raw.src;
    d->dst = raw.dst;
    d->length = raw.length;
    d->flags = raw.flags;
    if (raw.reserved != 0) return DMA_ERR_BAD_DESCRIPTOR;
    return check_data(*d);
}

}  // namespace

dma_hw_error decode_descriptor(DescriptorFormat f, const uint8_t* bytes, uint64_t addr,
                               Descriptor* out) {
    *out = Descriptor{};
    out->addr = addr;
    return f == DescriptorFormat::chained_pages ? decode_chained(bytes, out)
                                                : decode_linked(bytes, out);
}

}  // namespace dmasim::model
