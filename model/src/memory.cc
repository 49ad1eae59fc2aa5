// memory.cc - RAM target: TLM access, DMI and channel timing.
#include "memory.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "burst.h"

namespace dmasim::model {

Memory::Memory(sc_core::sc_module_name name, const MemoryParams& params, unsigned width_bytes,
               const Clock& clock)
    : sc_module(name),
      socket("socket"),
      params_(params),
      width_(width_bytes),
      clock_(clock),
      fault_from_(params.size_bytes),
      dram_(params.kind == MemoryKind::dram
                ? std::make_unique<DramController>(params, 1e-6 / clock.period().to_seconds())
                : nullptr) {
    if (params.backing == nullptr || params.size_bytes == 0)
        throw std::invalid_argument("memory: backing and size_bytes must be set");
    if (params.bandwidth_bytes_per_cycle != 0 &&
        !(params.bandwidth_bytes_per_cycle >= kMinBandwidthBytesPerCycle))
        throw std::invalid_argument("memory: bandwidth_bytes_per_cycle must be 0 or >= 0.001");
    socket.register_b_transport(this, &Memory::b_transport);
    socket.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &Memory::transport_dbg);
}

uint64_t Memory::settle_point() const {
    const uint64_t now = clock_.cycle_of(sc_core::sc_time_stamp());
    return floor_ ? std::min(now, floor_()) : now;
}

uint64_t Memory::late_bookings() const {
    return read_.late_bookings() + write_.late_bookings() + (dram_ ? dram_->late_bookings() : 0);
}

uint64_t Memory::occupancy(uint64_t beats) const {
    double bw = params_.bandwidth_bytes_per_cycle;
    if (bw <= 0 || bw >= width_) return beats;
    return static_cast<uint64_t>(std::ceil(static_cast<double>(beats) * width_ / bw));
}

Memory::ReadTiming Memory::read_burst(uint64_t t, uint64_t addr, uint64_t beats, uint64_t bytes) {
    if (read_.wants_settle()) read_.settle(settle_point());
    if (dram_) return dram_read(t, addr, beats, bytes);
    uint64_t occ = occupancy(beats);
    uint64_t start = read_.book(t, occ, bytes);
    uint64_t data_start = start + params_.read_latency_cycles;
    trace_access(TraceTrack::ram_read, "read", data_start, data_start + occ, beats, bytes);
    return {data_start, data_start + occ};
}

// The channel's beats start with the DRAM's first data and end no earlier
// than its last (a DRAM slower than the channel paces them).
Memory::ReadTiming Memory::dram_read(uint64_t t, uint64_t addr, uint64_t beats, uint64_t bytes) {
    if (dram_->wants_settle()) dram_->settle(settle_point());
    const uint64_t occupancy = this->occupancy(beats);
    const DramController::Timing d = dram_->read(t + params_.read_latency_cycles, addr, bytes);
    const uint64_t paced = d.data_end > occupancy ? d.data_end - occupancy : 0;
    const uint64_t start = read_.book(std::max(d.data_start, paced), occupancy, bytes);
    trace_access(TraceTrack::ram_read, "read", start, start + occupancy, beats, bytes);
    return {start, start + occupancy, d.dram_wait};
}

Memory::WriteTiming Memory::write_burst(uint64_t t, uint64_t addr, uint64_t beats, uint64_t bytes) {
    if (write_.wants_settle()) write_.settle(settle_point());
    uint64_t occ = occupancy(beats);
    uint64_t start = write_.book(t, occ, bytes);
    trace_access(TraceTrack::ram_write, "write", start, start + occ, beats, bytes);
    const uint64_t data_end = start + occ;
    if (!dram_) return {data_end, data_end + params_.write_latency_cycles};
    if (dram_->wants_settle()) dram_->settle(settle_point());
    const uint64_t queued = dram_->write(data_end, addr, bytes);
    return {data_end, queued + params_.write_latency_cycles, queued - data_end};
}

void Memory::trace_access(TraceTrack track, const char* what, uint64_t from, uint64_t to,
                          uint64_t beats, uint64_t bytes) const {
    if (!trace_) return;
    TraceArgs args;
    args.bytes = bytes;
    args.beats = beats;
    trace_->slice(track, 0, what, from, to, args);
}

void Memory::inject_fault_from(uint64_t from) { fault_from_ = from; }

void Memory::reset_stats() {
    read_.reset_stats();
    write_.reset_stats();
    if (dram_) dram_->reset_stats();
}

// Copies the payload, honouring byte enables (a write with all enables
// off moves no data: the background traffic master uses that).
bool Memory::copy_data(tlm::tlm_generic_payload& trans) {
    uint64_t addr = trans.get_address();
    unsigned len = trans.get_data_length();
    if (len == 0 || addr >= params_.size_bytes || len > params_.size_bytes - addr) return false;
    if (addr + len > fault_from_) return false;
    uint8_t* mem = params_.backing + addr;
    uint8_t* data = trans.get_data_ptr();
    const uint8_t* be = trans.get_byte_enable_ptr();
    bool is_read = trans.is_read();
    if (be == nullptr) {
        std::memcpy(is_read ? data : mem, is_read ? mem : data, len);
        return true;
    }
    unsigned be_len = trans.get_byte_enable_length();
    for (unsigned i = 0; i < len; ++i) {
        if (be[i % be_len] != TLM_BYTE_ENABLED) continue;
        (is_read ? data[i] : mem[i]) = is_read ? mem[i] : data[i];
    }
    return true;
}

void Memory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    uint64_t addr = trans.get_address();
    if (addr >= params_.size_bytes) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (!copy_data(trans)) {
        bool beyond = trans.get_data_length() > params_.size_bytes - addr;
        trans.set_response_status(beyond ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                         : tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    uint64_t t = clock_.cycle_at_or_after(sc_core::sc_time_stamp() + delay);
    uint64_t beats = beats_of(addr, trans.get_data_length(), width_);
    uint64_t done = trans.is_read() ? read_burst(t, addr, beats, trans.get_data_length()).done
                                    : write_burst(t, addr, beats, trans.get_data_length()).response;
    delay = clock_.at(done) - sc_core::sc_time_stamp();
    trans.set_dmi_allowed(fault_from_ > 0);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool Memory::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    if (auto* ext = trans.get_extension<MemoryTimingExtension>()) ext->memory = this;
    if (trans.get_address() >= fault_from_ || fault_from_ == 0) return false;
    dmi.set_dmi_ptr(params_.backing);
    dmi.set_start_address(0);
    dmi.set_end_address(fault_from_ - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(clock_.period() * static_cast<double>(params_.read_latency_cycles));
    dmi.set_write_latency(clock_.period() * static_cast<double>(params_.write_latency_cycles));
    return true;
}

unsigned Memory::transport_dbg(tlm::tlm_generic_payload& trans) {
    return copy_data(trans) ? trans.get_data_length() : 0;
}

}  // namespace dmasim::model
