// cpu.cc - register accesses as TLM transactions and interrupt dispatch.
#include "cpu.h"

#include <fmt/format.h>

namespace dmasim::tb {

Cpu::Cpu(sc_core::sc_module_name name, const sc_core::sc_signal<bool>& irq)
    : sc_module(name), socket("socket"), irq_(irq) {
    SC_HAS_PROCESS(Cpu);
    SC_THREAD(irq_thread);
}

void Cpu::access(tlm::tlm_command cmd, uint64_t addr, uint32_t& value) {
    tlm::tlm_generic_payload trans;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    trans.set_command(cmd);
    trans.set_address(addr);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    trans.set_data_length(sizeof value);
    trans.set_streaming_width(sizeof value);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(trans, delay);
    // Register accesses are synchronous for the CPU: it stalls until done.
    wait(delay);
    if (trans.is_response_error() && bus_error_)
        bus_error_(fmt::format("MMIO {} at {:#x} failed: {}",
                               cmd == tlm::TLM_READ_COMMAND ? "read" : "write", addr,
                               trans.get_response_string()));
}

uint32_t Cpu::read32(uint64_t addr) {
    uint32_t value = 0;
    access(tlm::TLM_READ_COMMAND, addr, value);
    return value;
}

void Cpu::write32(uint64_t addr, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, addr, value); }

// The line is level-triggered: keep calling the handler while it is high
// and the handler finds work; a line nobody claims is waited out.
void Cpu::irq_thread() {
    for (;;) {
        if (!irq_.read()) wait(irq_.posedge_event());
        const sc_core::sc_time raised = sc_core::sc_time_stamp();
        const bool handled = handler_ && handler_(raised);
        if (!handled && irq_.read())
            wait(irq_.negedge_event());
        else if (irq_.read())
            wait(sc_core::SC_ZERO_TIME);  // let the acknowledge settle
    }
}

}  // namespace dmasim::tb
