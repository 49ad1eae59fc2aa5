// main.cc - dmasim's DMA controller streaming to and from a device of the
// user's own: a loopback FIFO that implements dmasim::model::StreamDevice.
//
// The controller first sends three scattered memory segments to the device
// (mem_to_dev), then reads the stream back into two segments of other
// lengths (dev_to_mem). The device returns what it received, in order,
// each byte `kLatency` cycles after it arrived, at `kRate` bytes per cycle
// each way. The CPU programs the registers and writes the descriptors by
// hand (no driver), and checks that the bytes came back in stream order
// and that the device's timing, not the memory's, paced the transfers.
#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/clock.h>
#include <dmasim/model/dma_controller.h>
#include <dmasim/model/stream_device.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <systemc>
#include <tlm>
#include <vector>

namespace {

using dmasim::model::StreamTiming;

constexpr uint64_t kRate = 4;      // bytes per cycle, each way
constexpr uint64_t kLatency = 50;  // cycles from a byte's arrival to its return

uint64_t cycles_for(uint64_t bytes) { return (bytes + kRate - 1) / kRate; }

// A loopback device: what is pushed comes back, in order, on pull.
class LoopbackDevice : public dmasim::model::StreamDevice {
public:
    StreamTiming push(uint64_t cycle, uint64_t bytes) override {
        const uint64_t start = std::max(cycle, in_free_);
        in_free_ = start + cycles_for(bytes);
        pushed_ += bytes;
        arrivals_.push_back({pushed_, in_free_});
        return {start, in_free_};
    }
    // The chunk starts once its last byte is back from the loop and the
    // output is free. A pull beyond what was pushed starts at once (its
    // bytes are zeros: there is nothing to wait for).
    StreamTiming pull(uint64_t cycle, uint64_t bytes) override {
        pulled_ += bytes;
        while (!arrivals_.empty() && arrivals_.front().end < pulled_) arrivals_.pop_front();
        const uint64_t back = arrivals_.empty() ? 0 : arrivals_.front().at + kLatency;
        const uint64_t start = std::max({cycle, out_free_, back});
        out_free_ = start + cycles_for(bytes);
        return {start, out_free_};
    }
    void consume(const uint8_t* src, uint64_t bytes) override {
        fifo_.insert(fifo_.end(), src, src + bytes);
    }
    void produce(uint8_t* dst, uint64_t bytes) override {
        for (uint64_t i = 0; i < bytes; ++i) {
            dst[i] = fifo_.empty() ? 0 : fifo_.front();
            if (!fifo_.empty()) fifo_.pop_front();
        }
    }

private:
    struct Arrival {
        uint64_t end;  ///< stream offset just past the chunk
        uint64_t at;   ///< cycle its last byte arrived
    };
    std::deque<Arrival> arrivals_;
    std::deque<uint8_t> fifo_;
    uint64_t in_free_ = 0, out_free_ = 0, pushed_ = 0, pulled_ = 0;
};

// A memory that answers every access `kMemLatency` cycles after it is
// issued: fast next to the device, so the device paces the transfers.
constexpr uint64_t kMemLatency = 4;

struct PlainMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<PlainMemory> socket{"socket"};
    const dmasim::model::Clock& clock;
    std::vector<uint8_t> bytes = std::vector<uint8_t>(1 << 20);

    PlainMemory(sc_core::sc_module_name name, const dmasim::model::Clock& c)
        : sc_module(name), clock(c) {
        socket.register_b_transport(this, &PlainMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        delay += clock.at(kMemLatency);
        if (t.get_address() + t.get_data_length() > bytes.size()) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        uint8_t* mem = bytes.data() + t.get_address();
        if (t.is_read())
            std::memcpy(t.get_data_ptr(), mem, t.get_data_length());
        else
            std::memcpy(mem, t.get_data_ptr(), t.get_data_length());
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct Segment {
    uint64_t addr;
    uint32_t length;
};

// The CPU: writes descriptors into memory, programs channel 0, and sleeps
// until the interrupt.
struct Cpu : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Cpu> socket{"socket"};
    sc_core::sc_in<bool> irq{"irq"};
    PlainMemory& memory;

    Cpu(sc_core::sc_module_name name, PlainMemory& m) : sc_module(name), memory(m) {}

    /// One 32-bit register access; returns what a read found.
    uint32_t access(bool write, uint32_t offset, uint32_t value = 0) {
        tlm::tlm_generic_payload t;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(offset);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
        t.set_data_length(4);
        t.set_streaming_width(4);
        socket->b_transport(t, delay);
        sc_core::wait(delay);
        return value;
    }
    void write32(uint32_t offset, uint32_t value) { access(true, offset, value); }
    uint32_t read32(uint32_t offset) { return access(false, offset); }

    // One chained_pages chunk at `table`: a descriptor per segment, the
    // last one ending the transfer and raising the interrupt. Returns the
    // channel's status when it stopped.
    uint32_t transfer(dma_hw_direction dir, uint64_t table, const std::vector<Segment>& segs) {
        for (size_t i = 0; i < segs.size(); ++i) {
            dma_hw_desc d{};
            (dir == DMA_HW_MEM_TO_DEV ? d.src : d.dst) = segs[i].addr;
            d.length = segs[i].length;
            d.flags = i + 1 == segs.size() ? DMA_DESC_END | DMA_DESC_IRQ : 0;
            std::memcpy(memory.bytes.data() + table + i * sizeof d, &d, sizeof d);
        }
        write32(DMA_REG_IRQ_MASK, 1);
        write32(DMA_CH_BASE(0) + DMA_CH_DESC_ADDR_LO, static_cast<uint32_t>(table));
        write32(DMA_CH_BASE(0) + DMA_CH_DESC_ADDR_HI, static_cast<uint32_t>(table >> 32));
        write32(DMA_CH_BASE(0) + DMA_CH_CTRL,
                DMA_CTRL_START | DMA_CTRL_IRQ_EN | (uint32_t{dir} << DMA_CTRL_DIR_SHIFT) |
                    (uint32_t{DMA_HW_FMT_CHAINED_PAGES} << DMA_CTRL_FORMAT_SHIFT));
        if (!irq.read()) sc_core::wait(irq.posedge_event());
        write32(DMA_REG_IRQ_STATUS, 1);
        return read32(DMA_CH_BASE(0) + DMA_CH_STATUS);
    }
};

const std::vector<Segment> kOut = {{0x10000, 3000}, {0x23000, 1000}, {0x31000, 4192}};
const std::vector<Segment> kBack = {{0x80000, 5000}, {0x92000, 3192}};

// Stream byte k of the outbound segments, laid end to end.
uint8_t pattern(uint64_t k) { return static_cast<uint8_t>(k * 7 + (k >> 8)); }

}  // namespace

int sc_main(int, char*[]) {
    dmasim::model::Clock clock(1000);
    LoopbackDevice device;
    dmasim::model::DmaController dma("dma", dmasim::model::DmaParams{},
                                     dmasim::model::BusParams{}, 1000, clock, device);
    PlainMemory memory("memory", clock);
    Cpu cpu("cpu", memory);
    sc_core::sc_signal<bool> irq("irq");
    dma.master.bind(memory.socket);
    cpu.socket.bind(dma.regs);
    dma.irq.bind(irq);
    cpu.irq.bind(irq);

    uint64_t total = 0;
    for (const Segment& s : kOut)
        for (uint32_t i = 0; i < s.length; ++i) memory.bytes[s.addr + i] = pattern(total++);

    uint32_t status[2] = {0, 0};
    uint64_t cycles[2] = {0, 0};
    sc_core::sc_spawn([&] {
        uint64_t begin = clock.now();
        status[0] = cpu.transfer(DMA_HW_MEM_TO_DEV, 0x1000, kOut);
        cycles[0] = clock.now() - begin;
        begin = clock.now();
        status[1] = cpu.transfer(DMA_HW_DEV_TO_MEM, 0x2000, kBack);
        cycles[1] = clock.now() - begin;
        sc_core::sc_stop();
    });
    sc_core::sc_start();

    uint64_t k = 0, wrong = 0;
    for (const Segment& s : kBack)
        for (uint32_t i = 0; i < s.length; ++i) wrong += memory.bytes[s.addr + i] != pattern(k++);
    // Each way the device moves every byte at kRate per cycle, so neither
    // transfer can take fewer cycles than that (the memory alone would
    // move them four times as fast: 16-byte beats).
    const uint64_t floor = cycles_for(total);
    const bool paced = cycles[0] >= floor && cycles[1] >= floor;
    std::printf(
        "embed-stream-device: %llu bytes to the device in %llu cycles and back in %llu "
        "(device floor %llu each way), %llu bytes differ\n",
        static_cast<unsigned long long>(total), static_cast<unsigned long long>(cycles[0]),
        static_cast<unsigned long long>(cycles[1]), static_cast<unsigned long long>(floor),
        static_cast<unsigned long long>(wrong));
    const bool done = status[0] == DMA_STATUS_DONE && status[1] == DMA_STATUS_DONE;
    return done && wrong == 0 && k == total && paced ? 0 : 1;
}
