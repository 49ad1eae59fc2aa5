// support.cc - fixtures and list builders shared by the sglist tests.
#include "support.h"

namespace sgtest {

void SimMemTest::SetUp() {
    ASSERT_EQ(sim_mem_init(kRamBytes, placement(), 1), 0);
    pages_at_start_ = sim_mem_pages_in_use();
}

void SimMemTest::TearDown() {
    EXPECT_EQ(sim_mem_pages_in_use(), pages_at_start_) << "page frames leaked";
    sim_mem_exit();
}

std::vector<page*> pages_at(const std::vector<unsigned long>& pfns) {
    std::vector<page*> pages;
    for (unsigned long pfn : pfns) pages.push_back(pfn_to_page(pfn));
    return pages;
}

FramesTable::FramesTable(const std::vector<unsigned long>& pfns, unsigned offset) {
    auto pages = pages_at(pfns);
    EXPECT_EQ(sg_alloc_table_from_pages(&sgt, pages.data(), pages.size(), offset,
                                        pfns.size() * PAGE_SIZE - offset, GFP_KERNEL),
              0);
}

FramesTable::~FramesTable() { sg_free_table(&sgt); }

std::vector<unsigned long> gapped_pfns(unsigned n) {
    std::vector<unsigned long> pfns;
    for (unsigned i = 0; i < n; i++) pfns.push_back(100 + 2 * i);
    return pfns;
}

std::vector<page*> alloc_page_list(unsigned count) {
    std::vector<page*> pages;
    for (unsigned i = 0; i < count; i++) {
        page* p = alloc_page(GFP_KERNEL);
        EXPECT_NE(p, nullptr) << sim_mem_last_error();
        pages.push_back(p);
    }
    return pages;
}

void free_page_list(const std::vector<page*>& pages) {
    for (page* p : pages) __free_page(p);
}

std::vector<unsigned long> pfn_run(unsigned long first, unsigned count) {
    std::vector<unsigned long> pfns;
    for (unsigned i = 0; i < count; i++) pfns.push_back(first + i);
    return pfns;
}

std::vector<scatterlist*> entries_of(scatterlist* sgl) {
    std::vector<scatterlist*> out;
    for (scatterlist* sg = sgl; sg; sg = sg_next(sg)) out.push_back(sg);
    return out;
}

std::vector<uint8_t> pattern(size_t bytes, uint8_t seed) {
    std::vector<uint8_t> v(bytes);
    for (size_t i = 0; i < bytes; i++)
        v[i] = static_cast<uint8_t>((i * 31 + i / 251 + seed) & 0xff);
    return v;
}

void init_wide_device(device* dev) {
    sim_device_init(dev, "test-dev");
    ASSERT_EQ(dma_set_mask(dev, DMA_BIT_MASK(64)), 0);
    ASSERT_EQ(dma_set_max_seg_size(dev, UINT32_MAX), 0);
}

}  // namespace sgtest
