// main.cc - dmasim's DMA controller in a user's own SystemC platform.
//
// Nothing of dmasim's platform is used: the memory is this file's own
// TLM-2.0 target (with its own fixed latency), the CPU is this file's own
// thread, and the kernel-style C driver programs the controller through
// it. The memory's bytes are sglist's simulated physical memory, because
// the driver allocates and maps its buffers there (bus address = offset).
#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/model/clock.h>
#include <dmasim/model/device_port.h>
#include <dmasim/model/dma_controller.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <systemc>
#include <tlm>

namespace {

constexpr unsigned kLatencyCycles = 40;  // this memory's answer time
constexpr unsigned kBeatBytes = 16;      // its data path moves 16 bytes per cycle
constexpr uint64_t kRamBytes = 64ull << 20;

// A loosely-timed memory with one read and one write port: an access
// starts when it arrives (now + delay) or when its port is free, holds the
// port one cycle per 16 bytes and completes kLatencyCycles later.
struct MyMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<MyMemory> socket{"socket"};
    const dmasim::model::Clock& clock;
    uint64_t read_free = 0, write_free = 0;

    MyMemory(sc_core::sc_module_name name, const dmasim::model::Clock& c)
        : sc_module(name), clock(c) {
        socket.register_b_transport(this, &MyMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        uint64_t arrival = clock.cycle_at_or_after(sc_core::sc_time_stamp() + delay);
        uint64_t& free = t.is_read() ? read_free : write_free;
        uint64_t start = std::max(arrival, free);
        free = start + (t.get_data_length() + kBeatBytes - 1) / kBeatBytes;
        delay = clock.at(free + kLatencyCycles) - sc_core::sc_time_stamp();
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
// interrupt thread that runs the driver's handler on each rising edge.
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
    void interrupts() {
        for (;;) {
            sc_core::wait(irq.posedge_event());
            dmasim_irq_handler(0, &dd);
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

// 64 segments of 1500 bytes, mem_to_mem, chained_pages in 4 chunks.
int transfer(MyCpu& cpu, const dmasim::model::Clock& clock) {
    struct device dev;
    sim_device_init(&dev, "embedded-dma");
    if (dmasim_probe(&cpu.dd, 0, &dev) != 0) return std::puts("no controller"), 1;
    dmasim_xfer_spec spec{};
    spec.dir = DMA_HW_MEM_TO_MEM;
    spec.format = DMA_HW_FMT_CHAINED_PAGES;
    spec.entries = 64;
    spec.chain_depth = 4;
    spec.seg.dist = DMASIM_SEG_FIXED;
    spec.seg.bytes = 1500;
    spec.seg.layout = DMASIM_BUF_PAGES;
    dmasim_xfer* x = nullptr;
    if (dmasim_xfer_prep(&cpu.dd, &spec, &x) != 0) return std::puts("prep failed"), 1;
    scatterlist* sg;
    unsigned i;
    for_each_sg(x->src.sgl, sg, x->src.nents, i)
        std::memset(sg_virt(sg), static_cast<int>(i * 13 + 1), sg->length);

    uint64_t start = clock.now();
    dmasim_xfer_submit(&cpu.dd.chan[0], x);
    dmasim_xfer_wait(&cpu.dd.chan[0]);
    uint64_t cycles = clock.now() - start;

    bool same = x->status == DMA_STATUS_DONE;
    scatterlist* d = x->dst.sgl;
    for_each_sg(x->src.sgl, sg, x->src.nents, i) {
        same = same && d && d->length == sg->length &&
               std::memcmp(sg_virt(d), sg_virt(sg), sg->length) == 0;
        d = d ? sg_next(d) : nullptr;
    }
    std::printf("embed-systemc: %llu bytes in %llu cycles, %s\n",
                static_cast<unsigned long long>(x->bytes), static_cast<unsigned long long>(cycles),
                same ? "bytes verified" : "BYTES DIFFER");
    dmasim_xfer_free(&cpu.dd, x);
    dmasim_remove(&cpu.dd);
    return same ? 0 : 1;
}

}  // namespace

int sc_main(int, char*[]) {
    if (sim_mem_init(kRamBytes, SIM_MEM_SCATTERED, 7) != 0) return 1;
    dmasim::model::Clock clock(1000);
    dmasim::model::DevicePort device(dmasim::model::DeviceParams{});
    dmasim::model::DmaController dma("dma", dmasim::model::DmaParams{}, dmasim::model::BusParams{},
                                     1000, clock, device);
    MyMemory memory("memory", clock);
    MyCpu cpu("cpu");
    sc_core::sc_signal<bool> irq("irq");
    the_cpu = &cpu;
    dma.master.bind(memory.socket);
    cpu.socket.bind(dma.regs);
    dma.irq.bind(irq);
    cpu.irq.bind(irq);

    int status = 1;
    sc_core::sc_spawn([&] {
        status = transfer(cpu, clock);
        sc_core::sc_stop();
    });
    sc_core::sc_start();
    sim_mem_exit();
    return status;
}
