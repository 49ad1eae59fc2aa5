// main.cc - dmasim's DMA controller in a user's own SystemC platform.
//
// Nothing of dmasim's platform is used: the memory is this file's own
// TLM-2.0 target (with its own timing), the CPU is this file's own
// thread, and the kernel-style C driver programs the controller through
// it. The memory's bytes are sglist's simulated physical memory, because
// the driver allocates and maps its buffers there (bus address = offset).
//
// Usage: embed_systemc [LATENCY_CYCLES BYTES_PER_CYCLE]  (default 40 16).
// "0 0" is a memory that answers at once with unbounded bandwidth, the
// fastest target the controller can meet; ctest examples_from_install
// runs both.
#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/model/clock.h>
#include <dmasim/model/device_port.h>
#include <dmasim/model/dma_controller.h>
#include <dmasim/workload/workload.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <systemc>
#include <tlm>

namespace {

constexpr uint64_t kRamBytes = 64ull << 20;

// A loosely-timed memory with one read and one write port: an access
// starts when it arrives (now + delay) or when its port is free, holds the
// port one cycle per `beat_bytes` and completes `latency` cycles later.
// With beat_bytes 0 there are no ports to wait for (unbounded bandwidth).
struct MyMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<MyMemory> socket{"socket"};
    const dmasim::model::Clock& clock;
    const unsigned latency, beat_bytes;
    uint64_t read_free = 0, write_free = 0;

    MyMemory(sc_core::sc_module_name name, const dmasim::model::Clock& c, unsigned latency_cycles,
             unsigned bytes_per_cycle)
        : sc_module(name), clock(c), latency(latency_cycles), beat_bytes(bytes_per_cycle) {
        socket.register_b_transport(this, &MyMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        if (beat_bytes == 0) {
            delay += clock.period() * static_cast<double>(latency);
        } else {
            uint64_t arrival = clock.cycle_at_or_after(sc_core::sc_time_stamp() + delay);
            uint64_t& free = t.is_read() ? read_free : write_free;
            uint64_t start = std::max(arrival, free);
            free = start + (t.get_data_length() + beat_bytes - 1) / beat_bytes;
            delay = clock.at(free + latency) - sc_core::sc_time_stamp();
        }
        if (t.get_address() + t.get_data_length() > sim_mem_size()) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        auto* mem = static_cast<uint8_t*>(sim_mem_base()) + t.get_address();
        std::memcpy(t.is_read() ? t.get_data_ptr() : mem, t.is_read() ? mem : t.get_data_ptr(),
                    t.get_data_length());
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// The CPU: register accesses for the driver's readl/writel, and an
// interrupt thread that runs the driver's handler.
struct MyCpu : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<MyCpu> socket{"socket"};
    sc_core::sc_in<bool> irq{"irq"};
    sc_core::sc_event completion;
    struct dmasim_dev dd {};

    SC_HAS_PROCESS(MyCpu);
    explicit MyCpu(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(interrupts); }
    uint32_t access(bool write, uint64_t addr, uint32_t value) {
        tlm::tlm_generic_payload t;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
        t.set_data_length(4);
        t.set_streaming_width(4);
        socket->b_transport(t, delay);
        sc_core::wait(delay);
        return value;
    }
    // The line is level-triggered: high while any unmasked channel's bit in
    // IRQ_STATUS is set. A channel that completes while the handler is
    // acknowledging another keeps it high, with no new rising edge, so wait
    // only while the line is low and run the handler for as long as it is
    // high (a rising-edge wait would sleep through that completion).
    void interrupts() {
        for (;;) {
            if (!irq.read()) sc_core::wait(irq.posedge_event());
            if (dmasim_irq_handler(0, &dd) == IRQ_NONE && irq.read())
                sc_core::wait(irq.negedge_event());  // not ours: wait until it is cleared
        }
    }
};

MyCpu* the_cpu = nullptr;

}  // namespace

// The driver's kernel services (dmasim/driver/io.h), on this CPU.
extern "C" {
uint32_t dmasim_io_read32(uint64_t addr) { return the_cpu->access(false, addr, 0); }
void dmasim_io_write32(uint32_t value, uint64_t addr) { the_cpu->access(true, addr, value); }
void dmasim_completion_wait(struct completion* x) {
    while (x->done == 0) sc_core::wait(the_cpu->completion);
    x->done--;
}
void dmasim_completion_signal(struct completion* x) {
    x->done++;
    the_cpu->completion.notify(sc_core::SC_ZERO_TIME);
}
}

namespace {

// A prepared mem_to_mem transfer of `entries` segments of `seg_bytes` in
// chained_pages chunks, its source patterned. The workload library
// allocates the buffers and hands them to the driver.
dmasim_xfer* prepare(MyCpu& cpu, unsigned entries, unsigned chunks, unsigned seg_bytes) {
    dmasim_load_spec spec{};
    spec.xfer.dir = DMA_HW_MEM_TO_MEM;
    spec.xfer.format = DMA_HW_FMT_CHAINED_PAGES;
    spec.xfer.entries = entries;
    spec.xfer.chain_depth = chunks;
    spec.seg.dist = DMASIM_SEG_FIXED;
    spec.seg.bytes = seg_bytes;
    spec.seg.layout = DMASIM_BUF_PAGES;
    dmasim_xfer* x = nullptr;
    if (dmasim_load_prep(&cpu.dd, &spec, &x) != 0) return nullptr;
    scatterlist* sg;
    unsigned i;
    for_each_sg(x->src.sgl, sg, x->src.nents, i)
        std::memset(sg_virt(sg), static_cast<int>(i * 13 + seg_bytes), sg->length);
    return x;
}

// True if `x` finished and every destination byte equals its source byte.
bool verified(const dmasim_xfer* x) {
    bool same = x->status == DMA_STATUS_DONE;
    scatterlist *sg, *d = x->dst.sgl;
    unsigned i;
    for_each_sg(x->src.sgl, sg, x->src.nents, i) {
        same = same && d && d->length == sg->length &&
               std::memcmp(sg_virt(d), sg_virt(sg), sg->length) == 0;
        d = d ? sg_next(d) : nullptr;
    }
    return same;
}

// Rounds of two transfers: 16 segments of 512 bytes on channel 0 and,
// `k` cycles after it, one of 64 bytes on channel 1. `k` grows by
// kStepCycles a round, so channel 1's interrupt walks across channel 0's,
// and in some rounds rises while the handler is still acknowledging
// channel 0 (with the fastest memory, in the first rounds): a CPU that
// waited for rising edges would sleep through it. Counts the transfers
// verified and their bytes.
constexpr unsigned kRounds = 100, kStepCycles = 2;

void rounds(MyCpu& cpu, const dmasim::model::Clock& clock, unsigned& good, uint64_t& bytes) {
    for (unsigned k = 0; k < kRounds; ++k) {
        dmasim_xfer* x[2] = {prepare(cpu, 16, 2, 512), prepare(cpu, 1, 1, 64)};
        if (!x[0] || !x[1]) return;
        dmasim_xfer_submit(&cpu.dd.chan[0], x[0]);
        sc_core::wait(clock.period() * (k * kStepCycles));
        dmasim_xfer_submit(&cpu.dd.chan[1], x[1]);
        for (unsigned ch = 0; ch < 2; ++ch) {
            dmasim_xfer_wait(&cpu.dd.chan[ch]);
            if (verified(x[ch])) good++, bytes += x[ch]->bytes;
            dmasim_load_free(&cpu.dd, x[ch], DMASIM_BUF_PAGES);
        }
    }
}

}  // namespace

int sc_main(int argc, char* argv[]) {
    unsigned latency = 40, bytes_per_cycle = 16;
    if (argc == 3) {
        latency = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
        bytes_per_cycle = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
    } else if (argc != 1) {
        std::fprintf(stderr, "usage: %s [LATENCY_CYCLES BYTES_PER_CYCLE]\n", argv[0]);
        return 2;
    }
    if (sim_mem_init(kRamBytes, SIM_MEM_SCATTERED, 7) != 0) return 1;
    dmasim::model::Clock clock(1000);
    dmasim::model::DevicePort device(dmasim::model::DeviceParams{});
    dmasim::model::DmaParams params;
    params.channels = 2;
    dmasim::model::DmaController dma("dma", params, dmasim::model::BusParams{}, 1000, clock,
                                     device);
    MyMemory memory("memory", clock, latency, bytes_per_cycle);
    MyCpu cpu("cpu");
    sc_core::sc_signal<bool> irq("irq");
    the_cpu = &cpu;
    dma.master.bind(memory.socket);
    cpu.socket.bind(dma.regs);
    dma.irq.bind(irq);
    cpu.irq.bind(irq);

    unsigned good = 0;
    uint64_t bytes = 0;
    bool finished = false;
    sc_core::sc_spawn([&] {
        struct device dev;
        sim_device_init(&dev, "embedded-dma");
        if (dmasim_probe(&cpu.dd, 0, &dev) != 0) return;
        rounds(cpu, clock, good, bytes);
        dmasim_remove(&cpu.dd);
        finished = true;
        sc_core::sc_stop();
    });
    // Returns at sc_stop(), or earlier if the driver waits for an
    // interrupt that never comes (nothing is left to simulate).
    sc_core::sc_start();
    std::printf(
        "embed-systemc: %u of %u transfers on 2 channels verified, %llu bytes in %llu "
        "cycles%s\n",
        good, 2 * kRounds, static_cast<unsigned long long>(bytes),
        static_cast<unsigned long long>(clock.now()),
        finished ? "" : "; the driver still waits for an interrupt");
    sim_mem_exit();
    return good == 2 * kRounds ? 0 : 1;
}
