// interconnect.h - routes the bus masters (CPU, DMA controller, background
// traffic) to RAM and to the controller's register window.
//
//   cpu_in ─────┐            ┌─> mem_out   RAM      [0, memory size)
//   dma_in ─────┼─ address ──┤
//   traffic_in ─┘  decoder   └─> regs_out  registers [DMA_REGS_BASE, +DMA_REGS_SIZE)
//
// Only the CPU reaches the registers; any other master reaching them, or
// any master reaching an unmapped address, gets TLM_ADDRESS_ERROR_RESPONSE.
// Every routed request pays interconnect_latency_cycles. Contention between
// masters is resolved by the RAM channels' next-free times, in request
// order (see docs/timing-model.md).
#pragma once

#include <dmasim/model/clock.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

namespace dmasim::model {

class Interconnect : public sc_core::sc_module {
public:
    enum Master { kCpu = 0, kDma = 1, kTraffic = 2 };

    tlm_utils::simple_target_socket_tagged<Interconnect> cpu_in;
    tlm_utils::simple_target_socket_tagged<Interconnect> dma_in;
    tlm_utils::simple_target_socket_tagged<Interconnect> traffic_in;
    tlm_utils::simple_initiator_socket<Interconnect> mem_out;
    tlm_utils::simple_initiator_socket<Interconnect> regs_out;

    Interconnect(sc_core::sc_module_name name, uint64_t memory_size, unsigned latency_cycles,
                 const Clock& clock);

    unsigned latency_cycles() const { return latency_; }

private:
    enum class Route { memory, registers, none };
    Route decode(int master, uint64_t addr) const;
    void b_transport(int master, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(int master, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    unsigned transport_dbg(int master, tlm::tlm_generic_payload& trans);

    uint64_t memory_size_;
    unsigned latency_;
    const Clock& clock_;
};

}  // namespace dmasim::model
