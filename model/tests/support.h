// support.h - model test support: simulated RAM, a CPU-side test
// initiator, a rig that elaborates one platform per process, and builders
// for descriptor lists in both formats.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/hw/iommu_hw.h>
#include <dmasim/model/platform.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace dmasim::model {
class Memory;
}

namespace dmasim::model::test {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

/// Anonymous MAP_NORESERVE mapping: untouched pages cost nothing.
class SimMemory {
public:
    explicit SimMemory(uint64_t bytes);
    ~SimMemory();
    uint8_t* base() const { return base_; }
    uint64_t size() const { return size_; }

private:
    uint8_t* base_;
    uint64_t size_;
};

/// The CPU: blocking 32-bit accesses that consume their annotated delay.
class TestCpu : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<TestCpu> socket;
    explicit TestCpu(sc_core::sc_module_name name);

    tlm::tlm_response_status access(bool write, uint64_t addr, uint32_t* value);
    uint32_t read32(uint64_t addr);
    void write32(uint64_t addr, uint32_t value);
    uint32_t reg(uint32_t offset) { return read32(DMA_REGS_BASE + offset); }
    void set_reg(uint32_t offset, uint32_t value) { write32(DMA_REGS_BASE + offset, value); }
};

/// Control word for a channel transfer.
uint32_t ctrl_word(dma_hw_direction dir, dma_hw_format fmt, bool irq_en = true);

/// One platform, its RAM and a CPU; run() executes a body as a SystemC
/// thread and simulates until everything is idle.
class Rig {
public:
    explicit Rig(PlatformParams params, uint64_t memory_bytes = 64 * MiB);
    ~Rig();

    void run(std::function<void()> body);
    uint8_t* host(uint64_t addr) { return mem_.base() + addr; }
    Platform& platform() { return *platform_; }
    /// The platform's memory (model/src/memory.h), for white-box tests.
    Memory& memory();
    TestCpu& cpu() { return *cpu_; }
    uint64_t now_cycle() const;

    /// Programs and starts channel ch (call inside run()).
    void start(unsigned ch, uint64_t desc_addr, uint32_t ctrl);
    /// Waits until channel ch is idle or `limit` cycles pass; returns the
    /// cycle it went idle, or 0 on timeout.
    uint64_t wait_idle(unsigned ch, uint64_t limit);
    /// Runs one whole transfer on channel 0 (call outside run()); returns
    /// its cycles from START to idle, or 0 if it did not finish.
    uint64_t transfer(uint64_t desc, uint32_t ctrl, uint64_t limit = 50'000'000);

private:
    SimMemory mem_;
    std::unique_ptr<Platform> platform_;
    std::unique_ptr<TestCpu> cpu_;
    double period_ns_;
};

/// Keeps every trace slice and instant (start and end in cycles) and each
/// counter's deltas.
struct TraceRecorder : TraceSink {
    struct Record {
        TraceTrack track;
        unsigned channel;
        std::string what;
        uint64_t start, end;
        TraceArgs args;
    };
    struct Change {
        TraceCounter counter;
        unsigned channel;
        uint64_t at;
        int64_t delta;
    };
    std::vector<Record> records;
    std::vector<Change> changes;
    void slice(TraceTrack track, unsigned channel, const char* what, uint64_t from, uint64_t to,
               const TraceArgs& args) override;
    void instant(TraceTrack track, unsigned channel, const char* what, uint64_t at) override;
    void counter(TraceCounter counter, unsigned channel, uint64_t at, int64_t delta) override;
    /// Records on `track` of `channel`, named `what` if given.
    unsigned count(TraceTrack track, unsigned channel, const char* what = nullptr) const;
};

struct Seg {
    uint64_t src = 0;
    uint64_t dst = 0;
    uint32_t length = 0;
    uint32_t flags = 0;  ///< extra flags (e.g. DMA_DESC_IRQ); END is added
};

/// Segments of `length` bytes laid end to end from src and dst, `stride` apart.
std::vector<Seg> segments(uint64_t src, uint64_t dst, unsigned count, uint32_t length,
                          uint64_t stride);

/// Data descriptors per chunk when `entries` are split over `depth` chunks
/// (the first entries mod depth chunks get one more: docs/descriptor-formats.md).
std::vector<unsigned> chunk_sizes(unsigned entries, unsigned depth);

/// Writes a chained_pages list over the given chunk addresses, in the
/// layout of dma.descriptor_bytes; returns the first descriptor's address.
uint64_t write_chained(uint8_t* ram, const std::vector<Seg>& segs,
                       const std::vector<uint64_t>& chunks,
                       unsigned descriptor_bytes = DMA_HW_DESC_SIZE);
/// Writes a linked_list over the given chunk addresses.
uint64_t write_linked(uint8_t* ram, const std::vector<Seg>& segs,
                      const std::vector<uint64_t>& chunks,
                      unsigned descriptor_bytes = DMA_HW_DESC_SIZE);
/// The same, in any layout (next inside the slot, APP words left 0).
uint64_t write_chained(uint8_t* ram, const std::vector<Seg>& segs,
                       const std::vector<uint64_t>& chunks, const dma_hw_layout& layout);
uint64_t write_linked(uint8_t* ram, const std::vector<Seg>& segs,
                      const std::vector<uint64_t>& chunks, const dma_hw_layout& layout);

/// A descriptor ring in one page at `at` for dma.submission tail_pointer:
/// a slot per segment (default 32-byte layouts, no END), closed on itself
/// (chained_pages: a chain slot after the last back to the first;
/// linked_list: the last names the first). Returns each data slot's address.
std::vector<uint64_t> write_ring(uint8_t* ram, const std::vector<Seg>& segs, uint64_t at,
                                 dma_hw_format format);

/// A radix tree of page tables in simulated memory, as iommu_hw.h lays it out
/// (written here independently of sglist's IOMMU layer).
class PageTables {
public:
    /// Tables are allocated from `tables_at` on, 4 KiB each.
    PageTables(uint8_t* ram, unsigned levels, uint64_t tables_at)
        : ram_(ram), levels_(levels), next_(tables_at), root_(new_table()) {}
    uint64_t root() const { return root_; }

    /// Maps the 4 KiB page at `iova` to `phys`.
    void map(uint64_t iova, uint64_t phys, bool writable = true) {
        set(slot(iova, 1), phys | IOMMU_PTE_PRESENT | (writable ? IOMMU_PTE_WRITE : 0));
    }
    /// Maps the 2 MiB page at `iova` to `phys` with a level-2 leaf.
    void map_large(uint64_t iova, uint64_t phys, bool writable = true) {
        set(slot(iova, 2),
            phys | IOMMU_PTE_PRESENT | IOMMU_PTE_LEAF | (writable ? IOMMU_PTE_WRITE : 0));
    }
    /// Identity-maps every 4 KiB page of [from, from + bytes).
    void identity(uint64_t from, uint64_t bytes, bool writable = true) {
        const uint64_t page = IOMMU_PT_BYTES;
        for (uint64_t a = from & ~(page - 1); a < from + bytes; a += page) map(a, a, writable);
    }
    /// Clears the leaf entry of the 4 KiB page at `iova`.
    void unmap(uint64_t iova) { set(slot(iova, 1), 0); }

private:
    uint64_t get(uint64_t at) const {
        uint64_t v;
        std::memcpy(&v, ram_ + at, 8);
        return v;
    }
    void set(uint64_t at, uint64_t v) { std::memcpy(ram_ + at, &v, 8); }
    uint64_t new_table() {
        uint64_t t = next_;
        next_ += IOMMU_PT_BYTES;
        std::memset(ram_ + t, 0, IOMMU_PT_BYTES);
        return t;
    }
    /// Address of the level-`level` entry for iova, creating the tables above it.
    uint64_t slot(uint64_t iova, unsigned level) {
        uint64_t table = root_;
        for (unsigned l = levels_; l > level; --l) {
            uint64_t at = table + 8 * IOMMU_PT_INDEX(iova, l);
            if (!(get(at) & IOMMU_PTE_PRESENT)) set(at, new_table() | IOMMU_PTE_PRESENT);
            table = get(at) & IOMMU_PTE_ADDR_MASK;
        }
        return table + 8 * IOMMU_PT_INDEX(iova, level);
    }

    uint8_t* ram_;
    unsigned levels_;
    uint64_t next_;
    uint64_t root_;
};

/// Fills n bytes with a seed-dependent pattern.
void fill_pattern(uint8_t* p, uint64_t n, uint32_t seed);
/// FNV-1a digest of a byte range.
uint64_t digest(const uint8_t* p, uint64_t n);

}  // namespace dmasim::model::test
