// Descriptor decoding and validity rules, without SystemC.
#include <gtest/gtest.h>

#include <cstring>

#include "descriptor_codec.h"

namespace dmasim::model {
namespace {

dma_hw_error decode_chained(dma_hw_desc d, Descriptor* out) {
    uint8_t bytes[DMA_HW_DESC_SIZE];
    std::memcpy(bytes, &d, sizeof d);
    return decode_descriptor(layout_of(DMA_HW_FMT_CHAINED_PAGES), bytes, 0x40, out);
}

TEST(ModelCodec, ChainedDataDescriptorFieldsAreRead) {
    Descriptor d;
    ASSERT_EQ(decode_chained({0x1000, 0x2000, 77, DMA_DESC_END | DMA_DESC_IRQ, 0, 0}, &d),
              DMA_ERR_NONE);
    EXPECT_EQ(d.src, 0x1000u);
    EXPECT_EQ(d.dst, 0x2000u);
    EXPECT_EQ(d.length, 77u);
    EXPECT_EQ(d.addr, 0x40u);
    EXPECT_FALSE(d.is_chain_slot);
}

TEST(ModelCodec, ChainSlotIsRecognised) {
    Descriptor d;
    ASSERT_EQ(decode_chained({0x8000, 0, 0, DMA_DESC_CHAIN, 0, 0}, &d), DMA_ERR_NONE);
    EXPECT_TRUE(d.is_chain_slot);
    EXPECT_EQ(d.src, 0x8000u);
}

TEST(ModelCodec, ChainSlotWithEndIsBad) {
    Descriptor d;
    EXPECT_EQ(decode_chained({0x8000, 0, 0, DMA_DESC_CHAIN | DMA_DESC_END, 0, 0}, &d),
              DMA_ERR_BAD_DESCRIPTOR);
}

TEST(ModelCodec, UnknownFlagBitsAreBad) {
    Descriptor d;
    EXPECT_EQ(decode_chained({0, 0, 8, 0x100, 0, 0}, &d), DMA_ERR_BAD_DESCRIPTOR);
}

TEST(ModelCodec, ZeroLengthDataDescriptorIsAnError) {
    Descriptor d;
    EXPECT_EQ(decode_chained({0, 0, 0, DMA_DESC_END, 0, 0}, &d), DMA_ERR_ZERO_LENGTH);
}

TEST(ModelCodec, LinkedListReservedWordMustBeZero) {
    dma_hw_ll_desc raw{0x100, 0x1000, 0x2000, 64, 0, 0, 0, 1};
    uint8_t bytes[DMA_HW_LL_DESC_SIZE];
    std::memcpy(bytes, &raw, sizeof raw);
    Descriptor d;
    EXPECT_EQ(decode_descriptor(layout_of(DMA_HW_FMT_LINKED_LIST), bytes, 0, &d),
              DMA_ERR_BAD_DESCRIPTOR);
    raw.reserved = 0;
    std::memcpy(bytes, &raw, sizeof raw);
    ASSERT_EQ(decode_descriptor(layout_of(DMA_HW_FMT_LINKED_LIST), bytes, 0, &d), DMA_ERR_NONE);
    EXPECT_EQ(d.next, 0x100u);
}

}  // namespace
}  // namespace dmasim::model
