// support.cc - model test support.
#include "support.h"

#include <dmasim/model/device_port.h>
#include <sys/mman.h>

#include <cstring>
#include <stdexcept>

#include "descriptor_codec.h"
#include "memory.h"

// libsystemc's main() needs this symbol; gtest's main() is the one linked.
int sc_main(int, char**) { return 0; }

namespace dmasim::model::test {

SimMemory::SimMemory(uint64_t bytes) : size_(bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap of simulated RAM failed");
    base_ = static_cast<uint8_t*>(p);
}

SimMemory::~SimMemory() { munmap(base_, size_); }

TestCpu::TestCpu(sc_core::sc_module_name name) : sc_module(name), socket("socket") {}

tlm::tlm_response_status TestCpu::access(bool write, uint64_t addr, uint32_t* value) {
    tlm::tlm_generic_payload trans;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(addr);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(value));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, delay);
    sc_core::wait(delay);
    return trans.get_response_status();
}

uint32_t TestCpu::read32(uint64_t addr) {
    uint32_t v = 0;
    if (access(false, addr, &v) != tlm::TLM_OK_RESPONSE)
        throw std::runtime_error("test cpu: read failed");
    return v;
}

void TestCpu::write32(uint64_t addr, uint32_t value) {
    if (access(true, addr, &value) != tlm::TLM_OK_RESPONSE)
        throw std::runtime_error("test cpu: write failed");
}

uint32_t ctrl_word(dma_hw_direction dir, dma_hw_format fmt, bool irq_en) {
    return (uint32_t(dir) << DMA_CTRL_DIR_SHIFT) | (uint32_t(fmt) << DMA_CTRL_FORMAT_SHIFT) |
           (irq_en ? DMA_CTRL_IRQ_EN : 0);
}

Rig::Rig(PlatformParams params, uint64_t memory_bytes) : mem_(memory_bytes) {
    params.memory.backing = mem_.base();
    params.memory.size_bytes = memory_bytes;
    period_ns_ = 1000.0 / params.clock_mhz;
    platform_ = std::make_unique<Platform>("platform", params);
    cpu_ = std::make_unique<TestCpu>("cpu");
    cpu_->socket.bind(platform_->cpu_target());
}

Rig::~Rig() = default;

// The platform keeps its memory private (an internal type); it is the
// child module "memory" of platform.cc, so a white-box test finds it by name.
Memory& Rig::memory() {
    const std::string path = std::string(platform_->name()) + ".memory";
    auto* memory = dynamic_cast<Memory*>(sc_core::sc_find_object(path.c_str()));
    if (!memory) throw std::logic_error("test rig: no Memory at " + path);
    return *memory;
}

void Rig::run(std::function<void()> body) {
    sc_core::sc_spawn(std::move(body), "test_body");
    sc_core::sc_start();
}

uint64_t Rig::now_cycle() const {
    return static_cast<uint64_t>(sc_core::sc_time_stamp().to_seconds() * 1e9 / period_ns_ + 0.5);
}

void Rig::start(unsigned ch, uint64_t desc_addr, uint32_t ctrl) {
    cpu_->set_reg(DMA_CH_BASE(ch) + DMA_CH_DESC_ADDR_LO, static_cast<uint32_t>(desc_addr));
    cpu_->set_reg(DMA_CH_BASE(ch) + DMA_CH_DESC_ADDR_HI, static_cast<uint32_t>(desc_addr >> 32));
    cpu_->set_reg(DMA_CH_BASE(ch) + DMA_CH_CTRL, ctrl | DMA_CTRL_START);
}

uint64_t Rig::wait_idle(unsigned ch, uint64_t limit) {
    const auto& busy = platform_->busy(ch);
    uint64_t deadline = now_cycle() + limit;
    while (busy.read() && now_cycle() < deadline)
        sc_core::wait(sc_core::sc_time(period_ns_ * double(deadline - now_cycle()), sc_core::SC_NS),
                      busy.negedge_event());
    return busy.read() ? 0 : now_cycle();
}

uint64_t Rig::transfer(uint64_t desc, uint32_t ctrl, uint64_t limit) {
    uint64_t cycles = 0;
    run([&] {
        start(0, desc, ctrl);
        uint64_t t0 = now_cycle();
        uint64_t idle = wait_idle(0, limit);
        cycles = idle == 0 ? 0 : idle - t0;
    });
    return cycles;
}

void TraceRecorder::slice(TraceTrack track, unsigned channel, const char* what, uint64_t from,
                          uint64_t to, const TraceArgs& args) {
    records.push_back({track, channel, what, from, to, args});
}

void TraceRecorder::instant(TraceTrack track, unsigned channel, const char* what, uint64_t at) {
    records.push_back({track, channel, what, at, at, {}});
}

void TraceRecorder::counter(TraceCounter counter, unsigned channel, uint64_t at, int64_t delta) {
    changes.push_back({counter, channel, at, delta});
}

unsigned TraceRecorder::count(TraceTrack track, unsigned channel, const char* what) const {
    unsigned n = 0;
    for (const Record& r : records)
        n += r.track == track && r.channel == channel && (what == nullptr || r.what == what);
    return n;
}

std::vector<Seg> segments(uint64_t src, uint64_t dst, unsigned count, uint32_t length,
                          uint64_t stride) {
    std::vector<Seg> v;
    for (unsigned i = 0; i < count; ++i) v.push_back({src + i * stride, dst + i * stride, length});
    return v;
}

std::vector<unsigned> chunk_sizes(unsigned entries, unsigned depth) {
    std::vector<unsigned> sizes;
    for (unsigned i = 0; i < depth; ++i) sizes.push_back(entries / depth + (i < entries % depth));
    return sizes;
}

namespace {

// Writes a descriptor in the layout of the given slot size (dma_hw.h); the
// 64-byte layouts are the 32/48-byte ones plus ignored bytes.
void put_chained(uint8_t* ram, uint64_t at, unsigned bytes, uint64_t src, uint64_t dst,
                 uint32_t len, uint32_t flags) {
    if (bytes == DMA_HW_DESC16_SIZE) {
        dma_hw_desc16 d{uint32_t(src), uint32_t(dst), len, uint16_t(flags), 0};
        std::memcpy(ram + at, &d, sizeof d);
        return;
    }
    dma_hw_desc d{src, dst, len, flags, 0, 0};
    std::memcpy(ram + at, &d, sizeof d);
}

void put_linked(uint8_t* ram, uint64_t at, const dma_hw_layout& layout, uint64_t next, const Seg& s,
                uint32_t flags) {
    if (dma_hw_layout_is_ll32(&layout)) {
        dma_hw_ll_desc32 d{next, s.src, s.dst, s.length, uint16_t(flags), 0};
        std::memcpy(ram + at, &d, sizeof d);
        return;
    }
    if (layout.slot_bytes == DMA_HW_DESC16_SIZE) {
        dma_hw_ll_desc24 d{
            uint32_t(next), uint32_t(s.src), uint32_t(s.dst), s.length, uint16_t(flags), 0, 0};
        std::memcpy(ram + at, &d, sizeof d);
        return;
    }
    dma_hw_ll_desc d{next, s.src, s.dst, s.length, flags, 0, 0, 0};
    std::memcpy(ram + at, &d, sizeof d);
}

dma_hw_layout slot_layout(dma_hw_format f, unsigned descriptor_bytes) {
    DmaParams p;
    p.descriptor_bytes = descriptor_bytes;
    return layout_of(f, p);
}

}  // namespace

uint64_t write_chained(uint8_t* ram, const std::vector<Seg>& segs,
                       const std::vector<uint64_t>& chunks, unsigned descriptor_bytes) {
    return write_chained(ram, segs, chunks,
                         slot_layout(DMA_HW_FMT_CHAINED_PAGES, descriptor_bytes));
}

uint64_t write_chained(uint8_t* ram, const std::vector<Seg>& segs,
                       const std::vector<uint64_t>& chunks, const dma_hw_layout& layout) {
    const unsigned size = descriptor_stride(layout), slot = layout.slot_bytes;
    std::vector<unsigned> sizes =
        chunk_sizes(static_cast<unsigned>(segs.size()), static_cast<unsigned>(chunks.size()));
    size_t k = 0;
    for (size_t c = 0; c < chunks.size(); ++c) {
        uint64_t at = chunks[c];
        for (unsigned i = 0; i < sizes[c]; ++i, ++k, at += size) {
            uint32_t flags = segs[k].flags | (k + 1 == segs.size() ? DMA_DESC_END : 0);
            put_chained(ram, at, slot, segs[k].src, segs[k].dst, segs[k].length, flags);
        }
        if (c + 1 < chunks.size()) put_chained(ram, at, slot, chunks[c + 1], 0, 0, DMA_DESC_CHAIN);
    }
    return chunks[0];
}

uint64_t write_linked(uint8_t* ram, const std::vector<Seg>& segs,
                      const std::vector<uint64_t>& chunks, unsigned descriptor_bytes) {
    return write_linked(ram, segs, chunks, slot_layout(DMA_HW_FMT_LINKED_LIST, descriptor_bytes));
}

uint64_t write_linked(uint8_t* ram, const std::vector<Seg>& segs,
                      const std::vector<uint64_t>& chunks, const dma_hw_layout& layout) {
    const unsigned size = descriptor_stride(layout);
    std::vector<unsigned> sizes =
        chunk_sizes(static_cast<unsigned>(segs.size()), static_cast<unsigned>(chunks.size()));
    std::vector<uint64_t> addr;
    for (size_t c = 0; c < chunks.size(); ++c)
        for (unsigned i = 0; i < sizes[c]; ++i) addr.push_back(chunks[c] + i * size);
    size_t k = 0;
    for (size_t c = 0; c < chunks.size(); ++c) {
        for (unsigned i = 0; i < sizes[c]; ++i, ++k) {
            bool last = k + 1 == segs.size();
            bool chunk_end = i + 1 == sizes[c] && !last;
            uint32_t flags =
                segs[k].flags | (last ? DMA_DESC_END : 0) | (chunk_end ? DMA_DESC_CHAIN : 0);
            put_linked(ram, addr[k], layout, last ? 0 : addr[k + 1], segs[k], flags);
        }
    }
    return chunks[0];
}

std::vector<uint64_t> write_ring(uint8_t* ram, const std::vector<Seg>& segs, uint64_t at,
                                 dma_hw_format format) {
    const dma_hw_layout layout = slot_layout(format, DMA_HW_DESC_SIZE);
    const unsigned stride = descriptor_stride(layout);
    std::vector<uint64_t> slots;
    for (size_t k = 0; k < segs.size(); ++k) slots.push_back(at + k * stride);
    for (size_t k = 0; k < segs.size(); ++k) {
        if (format == DMA_HW_FMT_LINKED_LIST)
            put_linked(ram, slots[k], layout, slots[(k + 1) % slots.size()], segs[k],
                       segs[k].flags);
        else
            put_chained(ram, slots[k], layout.slot_bytes, segs[k].src, segs[k].dst, segs[k].length,
                        segs[k].flags);
    }
    if (format == DMA_HW_FMT_CHAINED_PAGES)
        put_chained(ram, at + segs.size() * stride, layout.slot_bytes, at, 0, 0, DMA_DESC_CHAIN);
    return slots;
}

void fill_pattern(uint8_t* p, uint64_t n, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 1;
    for (uint64_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = static_cast<uint8_t>(x);
    }
}

uint64_t digest(const uint8_t* p, uint64_t n) { return DevicePort::digest_of(p, n); }

}  // namespace dmasim::model::test
