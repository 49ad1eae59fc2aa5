// interconnect.cc - address decoding and forwarding.
#include "interconnect.h"

#include <dmasim/hw/dma_hw.h>

namespace dmasim::model {

Interconnect::Interconnect(sc_core::sc_module_name name, uint64_t memory_size,
                           unsigned latency_cycles, const Clock& clock)
    : sc_module(name),
      cpu_in("cpu_in"),
      dma_in("dma_in"),
      traffic_in("traffic_in"),
      mem_out("mem_out"),
      regs_out("regs_out"),
      memory_size_(memory_size),
      latency_(latency_cycles),
      clock_(clock) {
    tlm_utils::simple_target_socket_tagged<Interconnect>* ins[] = {&cpu_in, &dma_in, &traffic_in};
    for (int m = kCpu; m <= kTraffic; ++m) {
        ins[m]->register_b_transport(this, &Interconnect::b_transport, m);
        ins[m]->register_get_direct_mem_ptr(this, &Interconnect::get_direct_mem_ptr, m);
        ins[m]->register_transport_dbg(this, &Interconnect::transport_dbg, m);
    }
}

Interconnect::Route Interconnect::decode(int master, uint64_t addr) const {
    if (addr < memory_size_) return Route::memory;
    bool in_regs = addr >= DMA_REGS_BASE && addr - DMA_REGS_BASE < DMA_REGS_SIZE;
    return in_regs && master == kCpu ? Route::registers : Route::none;
}

void Interconnect::b_transport(int master, tlm::tlm_generic_payload& trans,
                               sc_core::sc_time& delay) {
    Route route = decode(master, trans.get_address());
    if (route == Route::none) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    delay += clock_.period() * static_cast<double>(latency_);
    if (route == Route::memory) {
        mem_out->b_transport(trans, delay);
        return;
    }
    trans.set_address(trans.get_address() - DMA_REGS_BASE);
    regs_out->b_transport(trans, delay);
    trans.set_address(trans.get_address() + DMA_REGS_BASE);
}

bool Interconnect::get_direct_mem_ptr(int master, tlm::tlm_generic_payload& trans,
                                      tlm::tlm_dmi& dmi) {
    if (decode(master, trans.get_address()) != Route::memory) return false;
    return mem_out->get_direct_mem_ptr(trans, dmi);
}

unsigned Interconnect::transport_dbg(int master, tlm::tlm_generic_payload& trans) {
    Route route = decode(master, trans.get_address());
    if (route == Route::memory) return mem_out->transport_dbg(trans);
    if (route == Route::none) return 0;
    trans.set_address(trans.get_address() - DMA_REGS_BASE);
    unsigned n = regs_out->transport_dbg(trans);
    trans.set_address(trans.get_address() + DMA_REGS_BASE);
    return n;
}

}  // namespace dmasim::model
