// dma_controller.h - the scatter-gather DMA controller.
//
//            regs (target) ┌──────────────────────────────┐ master (initiator)
//   CPU ──> registers ────>│ ch0: walker -> data mover    │────> interconnect ──> RAM
//                          │ ch1: walker -> data mover    │
//                          │ ...   engine (one SC_THREAD) │────> device stream port
//   irq <──────────────────│ IRQ_STATUS & IRQ_MASK        │
//                          └──────────────────────────────┘
// Registers: dma_registers.h / docs/registers.md. The engine thread plans
// every active channel's fetches and bursts arithmetically up to one
// quantum ahead of SystemC time, picking the channel that is furthest
// behind (round robin on ties), and sleeps until the next status event,
// the end of the quantum, or a register write. After a register write the
// planning window restarts at mmio_latency_cycles and doubles per engine
// step up to the quantum, so software that starts several channels in a
// row sees them share the bus from their start.
#pragma once

#include <dmasim/model/clock.h>
#include <dmasim/model/params.h>
#include <dmasim/model/stream_device.h>
#include <dmasim/model/trace_sink.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

namespace dmasim::model {

class BusPort;
class DmaChannel;
class Iommu;
struct RegisterInfo;

class DmaController : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(DmaController);

    tlm_utils::simple_target_socket<DmaController> regs;  ///< register window
    /// Descriptor fetches, data bursts and status write-backs (each
    /// channel's master_port.h, over bus_port.h).
    tlm_utils::simple_initiator_socket<DmaController> master;
    /// High while IRQ_STATUS & IRQ_MASK != 0; must be bound.
    sc_core::sc_out<bool> irq;
    using BusyPort =
        sc_core::sc_port<sc_core::sc_signal_inout_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
    /// High while the channel is busy; binding is optional.
    sc_core::sc_vector<BusyPort> busy;

    /// bus.interconnect_latency_cycles is added per request on the fast
    /// path (dmasim's Memory behind `master`); a foreign path is timed by
    /// its targets' annotated delays.
    /// `iommu`: an IOMMU in front of `master` (none by default).
    DmaController(sc_core::sc_module_name name, const DmaParams& params, const BusParams& bus,
                  uint64_t quantum_cycles, const Clock& clock, StreamDevice& device,
                  const IommuParams& iommu = {});
    ~DmaController() override;

    /// Notified when a channel starts.
    const sc_core::sc_event& activity() const { return activity_; }
    bool any_busy() const;
    /// The earliest cycle any channel, started now or later, may still
    /// ask memory for (Memory::set_request_floor).
    uint64_t earliest_request() const;
    /// The same for the device's source (pulls) or sink (pushes).
    uint64_t earliest_stream_request(bool source) const;

    unsigned channels() const { return static_cast<unsigned>(channels_.size()); }
    /// Channel i's counters and cycle timelines since the last reset_stats().
    const ChannelStats& channel_stats(unsigned i) const;
    const CycleTimeline& channel_timeline(unsigned i) const;
    void reset_stats();
    /// The IOMMU's counters (zero without one).
    const IommuStats& iommu_stats() const;
    void set_trace(TraceSink* sink) { trace_ = sink; }

private:
    /// The register map (dma_registers.h); its handlers reach the state below.
    friend const std::vector<RegisterInfo>& register_table();

    void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);
    /// The least of now and `floor(channel)` over the channels.
    template <typename Floor>
    uint64_t earliest(Floor floor) const;

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    bool access(tlm::tlm_generic_payload& trans, uint64_t cycle);
    const RegisterInfo* find_register(uint32_t offset, unsigned* channel) const;
    void write_ctrl(DmaChannel& c, uint32_t value, uint64_t cycle);
    uint32_t caps() const;
    void update_signals();

    void engine();
    void retire_events(uint64_t now);
    void plan_until(uint64_t horizon);
    uint64_t next_wakeup(uint64_t horizon) const;

    DmaParams params_;
    unsigned mmio_latency_;
    uint64_t quantum_;
    uint64_t window_;  ///< planning horizon: doubles up to quantum_ after each register write
    const Clock& clock_;
    std::unique_ptr<BusPort> bus_;  ///< the channels' and the IOMMU's way through `master`
    std::unique_ptr<Iommu> iommu_;  ///< translates every channel's addresses when enabled
    std::vector<std::unique_ptr<DmaChannel>> channels_;
    sc_core::sc_event wake_;
    sc_core::sc_event activity_;
    uint32_t irq_status_ = 0;
    uint32_t irq_mask_ = 0;
    unsigned rr_next_ = 0;  ///< round-robin pointer among channels
    TraceSink* trace_ = nullptr;
};

}  // namespace dmasim::model
