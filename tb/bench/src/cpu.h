// cpu.h - the CPU side of the testbench: a TLM initiator for register
// accesses (each one a timed transaction) and the interrupt dispatcher
// that runs the driver's handler when the controller's line rises.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>

namespace dmasim::tb {

class Cpu : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Cpu> socket;

    /// Called at each interrupt with the time the line rose; returns
    /// whether anything was pending (IRQ_HANDLED).
    using IrqHandler = std::function<bool(sc_core::sc_time raised)>;

    Cpu(sc_core::sc_module_name name, const sc_core::sc_signal<bool>& irq);

    /// 32-bit register read/write; blocks the calling thread for the
    /// access time the bus annotates. Must be called from an SC_THREAD.
    uint32_t read32(uint64_t addr);
    void write32(uint64_t addr, uint32_t value);

    /// Called (instead of throwing inside a SystemC thread) when a register
    /// access gets an error response; it does not return.
    using BusErrorHandler = std::function<void(const std::string& what)>;

    void set_irq_handler(IrqHandler handler) { handler_ = std::move(handler); }
    void set_bus_error_handler(BusErrorHandler handler) { bus_error_ = std::move(handler); }
    /// Notified whenever a completion is signalled.
    sc_core::sc_event& completion_event() { return completion_event_; }

private:
    void access(tlm::tlm_command cmd, uint64_t addr, uint32_t& value);
    void irq_thread();

    const sc_core::sc_signal<bool>& irq_;
    IrqHandler handler_;
    BusErrorHandler bus_error_;
    sc_core::sc_event completion_event_;
};

}  // namespace dmasim::tb
