// bus_port.cc - choosing the path behind the master socket, and the
// foreign path's timed transactions.
#include "bus_port.h"

#include <algorithm>
#include <cstring>

#include "burst.h"

namespace dmasim::model {

namespace {
constexpr const char* kMsgType = "dmasim/dma";

BusFault fault_of(const tlm::tlm_generic_payload& trans) {
    if (trans.is_response_ok()) return BusFault::none;
    return trans.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE ? BusFault::address
                                                                          : BusFault::other;
}
}  // namespace

BusPort::BusPort(tlm::tlm_initiator_socket<>& socket, const Clock& clock, const BusParams& bus)
    : socket_(socket),
      clock_(clock),
      latency(bus.interconnect_latency_cycles),
      width(bus.width_bytes),
      pcie_(bus.kind == BusKind::pcie ? std::optional(bus.pcie) : std::nullopt) {}

BusPort::~BusPort() = default;

// One DMI request at bus address 0 both finds dmasim's Memory (through
// the extension) and gives the fast path its host pointer.
void BusPort::connect() {
    MemoryTimingExtension ext;
    tlm::tlm_generic_payload trans;
    tlm::tlm_dmi grant;
    trans.set_address(0);
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_extension(&ext);
    bool ok = socket_->get_direct_mem_ptr(trans, grant);
    trans.clear_extension(&ext);
    memory_ = ext.memory;
    ok = ok && grant.is_read_write_allowed() && grant.get_start_address() == 0;
    dmi_ = memory_ && ok ? grant.get_dmi_ptr() : nullptr;
    dmi_end_ = memory_ && ok ? grant.get_end_address() + 1 : 0;
    foreign_dmi_valid_ = !memory_ && ok;
    if (foreign_dmi_valid_) foreign_dmi_ = grant;
    if (memory_ && pcie_ && !link_)
        link_ = std::make_unique<PcieLink>(*pcie_, *memory_, width, clock_);
}

void BusPort::invalidate(uint64_t start, uint64_t end) {
    if (!foreign_dmi_valid_) return;
    if (start <= foreign_dmi_.get_end_address() && end >= foreign_dmi_.get_start_address())
        foreign_dmi_valid_ = false;
}

PortBurst BusPort::handshakes(bool write, uint64_t t, uint64_t addr, uint64_t bytes,
                              const BusAccess& a) const {
    PortBurst b;
    b.write = write;
    b.address = addr;
    b.beats = beats_of(addr, bytes, width);
    b.request = t + latency;
    if (write) {
        b.accepted = b.data = a.data - memory_->occupancy(b.beats);
        b.data_end = a.data;
    } else {
        b.accepted = a.data - memory_->read_latency();
        b.data = a.data;
        b.data_end = a.done;
    }
    b.response = a.done;
    return b;
}

uint64_t BusPort::fault_cycles(uint64_t issue) {
    if (fast()) return memory_->read_burst(issue + latency, 0, 1, width).done - issue;
    uint8_t scratch[128];  // width is at most 128 bytes
    return foreign_read(issue, 0, width, scratch).done - issue;
}

ProbeResult BusPort::probe(uint64_t addr, bool write) {
    uint8_t byte = 0;
    uint8_t enable = TLM_BYTE_DISABLED;
    tlm::tlm_generic_payload trans;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(addr);
    trans.set_data_ptr(&byte);
    trans.set_data_length(1);
    trans.set_streaming_width(1);
    trans.set_byte_enable_ptr(&enable);
    trans.set_byte_enable_length(1);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket_->b_transport(trans, delay);
    uint64_t cycles = clock_.cycle_at_or_after(delay);
    if (trans.is_response_ok())
        SC_REPORT_WARNING(kMsgType, "access outside DMI answered OK; treated as a bus error");
    return {trans.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE, cycles};
}

dma_hw_error BusPort::classify(uint64_t addr, bool write, bool descriptor, uint64_t* cycles) {
    ProbeResult r = probe(first_outside(addr), write);
    *cycles = r.cycles;
    return error_of(r.address_error ? BusFault::address : BusFault::other, descriptor);
}

dma_hw_error BusPort::error_of(BusFault fault, bool descriptor) {
    if (descriptor) return fault == BusFault::address ? DMA_ERR_DESC_ADDRESS : DMA_ERR_DESC_BUS;
    return fault == BusFault::address ? DMA_ERR_DATA_ADDRESS : DMA_ERR_DATA_BUS;
}

// ---- foreign path ----------------------------------------------------------

bool BusPort::foreign_dmi(uint64_t addr, uint64_t bytes, bool write) {
    if (!foreign_dmi_valid_) return false;
    bool allowed = write ? foreign_dmi_.is_write_allowed() : foreign_dmi_.is_read_allowed();
    uint64_t first = foreign_dmi_.get_start_address(), last = foreign_dmi_.get_end_address();
    return allowed && addr >= first && addr <= last && bytes - 1 <= last - addr;
}

BusAccess BusPort::foreign_read(uint64_t issue, uint64_t addr, uint64_t bytes, uint8_t* into) {
    if (!foreign_dmi(addr, bytes, false))
        return transport(tlm::TLM_READ_COMMAND, issue, addr, bytes, into);
    // Through DMI: the grant's read latency, then one beat per cycle.
    std::memcpy(into, foreign_dmi_.get_dmi_ptr() + (addr - foreign_dmi_.get_start_address()),
                bytes);
    uint64_t data = issue + clock_.cycle_at_or_after(foreign_dmi_.get_read_latency());
    return {data, data + beats_of(addr, bytes, width)};
}

BusAccess BusPort::foreign_write(uint64_t issue, uint64_t addr, uint64_t bytes,
                                 const uint8_t* from) {
    if (!foreign_dmi(addr, bytes, true))
        return transport(tlm::TLM_WRITE_COMMAND, issue, addr, bytes, const_cast<uint8_t*>(from));
    // Through DMI: one beat per cycle, then the grant's write latency.
    std::memcpy(foreign_dmi_.get_dmi_ptr() + (addr - foreign_dmi_.get_start_address()), from,
                bytes);
    uint64_t data = issue + beats_of(addr, bytes, width);
    return {data, data + clock_.cycle_at_or_after(foreign_dmi_.get_write_latency())};
}

// One b_transport per burst. The engine plans ahead of SystemC time, so
// the issue cycle goes out as the annotated delay (temporal decoupling);
// the delay that comes back is the completion. A read's beats are taken to
// arrive in the last cycles before completion, a write's to leave in the
// first cycles after issue.
BusAccess BusPort::transport(tlm::tlm_command cmd, uint64_t issue, uint64_t addr, uint64_t bytes,
                             uint8_t* data) {
    tlm::tlm_generic_payload trans;
    trans.set_command(cmd);
    trans.set_address(addr);
    trans.set_data_ptr(data);
    trans.set_data_length(static_cast<unsigned>(bytes));
    trans.set_streaming_width(static_cast<unsigned>(bytes));
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    const sc_core::sc_time issue_at = clock_.at(issue);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (issue_at > sc_core::sc_time_stamp()) delay = issue_at - sc_core::sc_time_stamp();
    socket_->b_transport(trans, delay);
    uint64_t done = std::max(issue, clock_.cycle_at_or_after(sc_core::sc_time_stamp() + delay));
    uint64_t beats = beats_of(addr, bytes, width);
    BusFault fault = fault_of(trans);
    if (fault == BusFault::none && trans.is_dmi_allowed() && !foreign_dmi_valid_) {
        trans.set_address(addr);
        foreign_dmi_valid_ = socket_->get_direct_mem_ptr(trans, foreign_dmi_);
    }
    if (cmd == tlm::TLM_READ_COMMAND)
        return {done > issue + beats ? done - beats : issue, done, fault};
    return {std::min(issue + beats, done), done, fault};
}

}  // namespace dmasim::model
