// io.cc - the driver's kernel services (<dmasim/driver/io.h>) on top of
// the testbench CPU: MMIO through TLM, completions through an sc_event.
#include <dmasim/driver/io.h>

#include "cpu.h"
#include "io_bind.h"

namespace dmasim::tb {
namespace {
Cpu* io_cpu = nullptr;  // one simulation per process, so one CPU
}

void bind_io(Cpu* cpu) { io_cpu = cpu; }

}  // namespace dmasim::tb

extern "C" {

uint32_t dmasim_io_read32(uint64_t bus_addr) { return dmasim::tb::io_cpu->read32(bus_addr); }

void dmasim_io_write32(uint32_t value, uint64_t bus_addr) {
    dmasim::tb::io_cpu->write32(bus_addr, value);
}

void dmasim_completion_wait(struct completion* x) {
    while (x->done == 0) sc_core::wait(dmasim::tb::io_cpu->completion_event());
    x->done--;
}

void dmasim_completion_signal(struct completion* x) {
    x->done++;
    dmasim::tb::io_cpu->completion_event().notify(sc_core::SC_ZERO_TIME);
}

}  // extern "C"
