// memory.h - the RAM target: simulated physical memory at bus address 0
// with AXI-like independent read and write channels (docs/timing-model.md, "Equations").
//
// Timing of one burst of b beats accepted at cycle t (L = read latency,
// WL = write latency, o = occupancy = b, or more under a bandwidth cap):
//   read:  start = max(t, read.free_at); data on the read channel during
//          [start + L, start + L + o); complete at start + L + o.
//   write: start = max(t, write.free_at); beats during [start, start + o);
//          response at start + o + WL.
// With memory.kind dram (dram_controller.h) a read reaches the DRAM L after
// t and its channel beats follow the DRAM's data; a write's last beat goes
// into the DRAM's write queue, and the response is WL after it is taken.
// The bytes live in MemoryParams::backing (sglist's linear map); DMI hands
// the host pointer to masters so data moves by memcpy.
#pragma once

#include <dmasim/model/clock.h>
#include <dmasim/model/params.h>
#include <dmasim/model/trace_sink.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>

#include "dram_controller.h"
#include "resource.h"

namespace dmasim::model {

class Memory;

/// Rides on the controller's DMI request: dmasim's Memory names itself in
/// it, so the controller knows it may use the memory's timing arithmetic
/// (the fast path of bus_port.h) instead of timed transactions.
struct MemoryTimingExtension : tlm::tlm_extension<MemoryTimingExtension> {
    Memory* memory = nullptr;
    tlm::tlm_extension_base* clone() const override { return new MemoryTimingExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        memory = static_cast<const MemoryTimingExtension&>(other).memory;
    }
};

class Memory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<Memory> socket;

    Memory(sc_core::sc_module_name name, const MemoryParams& params, unsigned width_bytes,
           const Clock& clock);

    struct ReadTiming {
        uint64_t data_start;  ///< first data beat on the read channel
        uint64_t done;        ///< last beat delivered
        uint64_t dram_wait = 0;  ///< of the wait for data_start, DRAM timing beyond a row hit
    };
    struct WriteTiming {
        uint64_t data_end;  ///< last beat accepted (write buffer space freed)
        uint64_t response;  ///< write response
        uint64_t dram_wait = 0;  ///< of data_end to response, a full DRAM write queue
    };
    /// Books a read burst of `beats` beats at `addr` requested at cycle t.
    ReadTiming read_burst(uint64_t t, uint64_t addr, uint64_t beats, uint64_t bytes);
    /// Books a write burst of `beats` beats at `addr` whose first beat is ready at t.
    WriteTiming write_burst(uint64_t t, uint64_t addr, uint64_t beats, uint64_t bytes);
    /// Cycles a burst of `beats` beats holds a channel: `beats`, or more
    /// when memory.bandwidth_bytes_per_cycle is below the width.
    uint64_t occupancy(uint64_t beats) const;

    /// Accesses at or above `from` (inside RAM) answer TLM_GENERIC_ERROR_RESPONSE
    /// and DMI stops below it: a faulty region for error-path tests.
    void inject_fault_from(uint64_t from);

    uint64_t size() const { return params_.size_bytes; }
    /// Cycles from a read request to its first beat on an idle memory
    /// (with a DRAM: to an open row).
    uint64_t read_latency() const {
        return params_.read_latency_cycles + (dram_ ? dram_->hit_latency() : 0);
    }
    /// memory.kind dram: the DRAM's counters.
    const DramController* dram() const { return dram_.get(); }
    uint8_t* backing() const { return params_.backing; }
    const Resource& read_channel() const { return read_; }
    const Resource& write_channel() const { return write_; }
    /// For marks and holds (Resource::mark); booking goes through the bursts above.
    Resource& read_channel() { return read_; }
    Resource& write_channel() { return write_; }
    void reset_stats();
    /// The earliest cycle an initiator that plans behind SystemC time (the
    /// DMA engine: its fetches, writes and write-backs are booked lazily,
    /// at cycles already past) may still ask for. Settling folds bookings
    /// only before it; without one, before SystemC time, which a loosely
    /// timed initiator never asks before.
    void set_request_floor(std::function<uint64_t()> floor) { floor_ = std::move(floor); }
    /// Resource::late_bookings() of the channels and the DRAM: 0 while
    /// the floor holds.
    uint64_t late_bookings() const;
    /// Where each channel's data beats are traced; null = off.
    void set_trace(TraceSink* sink) { trace_ = sink; }

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    bool copy_data(tlm::tlm_generic_payload& trans);
    /// Reads the channel and books what the DRAM says of the burst.
    ReadTiming dram_read(uint64_t t, uint64_t addr, uint64_t beats, uint64_t bytes);
    void trace_access(TraceTrack track, const char* what, uint64_t from, uint64_t to,
                      uint64_t beats, uint64_t bytes) const;
    /// The cycle to settle at: SystemC time, or the request floor if lower.
    uint64_t settle_point() const;

    MemoryParams params_;
    unsigned width_;
    const Clock& clock_;
    uint64_t fault_from_;
    Resource read_;
    Resource write_;
    std::unique_ptr<DramController> dram_;  ///< memory.kind dram
    std::function<uint64_t()> floor_;
    TraceSink* trace_ = nullptr;
};

}  // namespace dmasim::model
