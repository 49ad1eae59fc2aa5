// support.h - fixtures and list builders shared by the sglist tests.
#pragma once

#include <gtest/gtest.h>
#include <sglist/dma-mapping.h>
#include <sglist/mm.h>
#include <sglist/scatterlist.h>

#include <cstdint>
#include <vector>

namespace sgtest {

/// Simulated RAM for one test: 256 MiB, created in SetUp and released in
/// TearDown, which fails the test if any page frame was left allocated
/// (LeakSanitizer cannot see inside the simulated RAM).
class SimMemTest : public ::testing::Test {
protected:
    static constexpr uint64_t kRamBytes = 256ull << 20;

    virtual sim_mem_placement placement() const { return SIM_MEM_CONTIGUOUS; }
    void SetUp() override;
    void TearDown() override;

    unsigned long pages_at_start_ = 0;
};

/// Same, with scattered placement (seed 1).
class ScatteredMemTest : public SimMemTest {
protected:
    sim_mem_placement placement() const override { return SIM_MEM_SCATTERED; }
};

/// struct page pointers for the given page frame numbers (not allocated:
/// enough for tests that only look at addresses).
std::vector<page*> pages_at(const std::vector<unsigned long>& pfns);

/// A table over the given page frames, each a separate full-page entry
/// unless frames are consecutive (then merged, as from_pages does); the
/// first starts `offset` bytes into its page.
struct FramesTable {
    sg_table sgt{};
    explicit FramesTable(const std::vector<unsigned long>& pfns, unsigned offset = 0);
    ~FramesTable();
    FramesTable(const FramesTable&) = delete;
    FramesTable& operator=(const FramesTable&) = delete;
};

/// Frames that never touch: 100, 102, 104, ... (n of them).
std::vector<unsigned long> gapped_pfns(unsigned n);

/// Allocated pages, to be freed with free_page_list().
std::vector<page*> alloc_page_list(unsigned count);
void free_page_list(const std::vector<page*>& pages);

/// Page frame numbers of consecutive frames first, first+1, ...
std::vector<unsigned long> pfn_run(unsigned long first, unsigned count);

/// The data entries of a list, following chain links.
std::vector<scatterlist*> entries_of(scatterlist* sgl);

/// A byte pattern that does not repeat from one page to the next, so a
/// misplaced or reordered page shows.
std::vector<uint8_t> pattern(size_t bytes, uint8_t seed = 1);

/// A DMA-capable device with a 64-bit mask and no segment limits that
/// would get in the way of a test (4 GiB segments, no boundary).
void init_wide_device(device* dev);

}  // namespace sgtest
