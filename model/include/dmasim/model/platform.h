// platform.h - the simulated SoC: memory, interconnect, DMA controller,
// device stream port and an optional background traffic master, wired
// together and parameterised by the plain structs of params.h (no YAML,
// no CLI here).
//
// CONTRACT between model/ and tb/: the names below are used by the
// testbench. The model may add members; it must not rename these.
#pragma once

#include <dmasim/model/params.h>
#include <dmasim/model/trace_sink.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

namespace dmasim::model {

class Clock;
class DevicePort;
class DmaController;

class Platform : public sc_core::sc_module {
public:
    Platform(sc_core::sc_module_name name, const PlatformParams& params);
    ~Platform() override;

    /// The CPU's initiator socket binds here; it reaches registers and RAM.
    tlm::tlm_target_socket<>& cpu_target();
    /// The controller's interrupt line: high while IRQ_STATUS & IRQ_MASK != 0.
    const sc_core::sc_signal<bool>& irq() const;
    /// High while the channel is busy (for VCD traces).
    const sc_core::sc_signal<bool>& busy(unsigned channel) const;

    /// Channel's counters, by reference: they hold every descriptor
    /// latency's count (up to 512 KiB), which a copy per interrupt had made
    /// most of a long run's cost.
    const ChannelStats& channel_stats(unsigned channel) const;
    /// The channel's cycle timelines since the last reset_statistics().
    const CycleTimeline& channel_timeline(unsigned channel) const;
    ResourceStats read_channel_stats() const;
    ResourceStats write_channel_stats() const;
    /// Bookings of memory and device streams that asked for a cycle their
    /// resource had already settled past, so that where they landed hung
    /// on host batching: a model bug, 0 in every sound run.
    uint64_t late_bookings() const;
    /// The IOMMU's counters (all zero without iommu.enabled).
    IommuStats iommu_stats() const;
    /// Names a cycle the bus data channels count their busy cycles before
    /// (mark_bus()).
    struct BusMark {
        uint32_t read = 0, write = 0;
    };
    /// Starts counting the bus data channels' busy cycles in [0, cycle),
    /// exact however late a burst is booked before `cycle`: a measured
    /// window marks where it opens and where it closes and reads the
    /// counts when the run is over. `cycle` is the current one or later,
    /// or one a BusHold keeps; throws std::logic_error otherwise.
    BusMark mark_bus(uint64_t cycle);
    BusBusy bus_busy_before(BusMark mark) const;
    void unmark_bus(BusMark mark);
    /// While it lives, a mark can be placed at any cycle from `cycle` on
    /// (the current one or later): for a cycle known only later, such as
    /// the end of CPU work that began at `cycle`.
    class BusHold {
    public:
        BusHold(Platform& platform, uint64_t cycle);
        ~BusHold();
        BusHold(const BusHold&) = delete;
        BusHold& operator=(const BusHold&) = delete;

    private:
        Platform& platform_;
        uint64_t cycle_;
    };
    /// The platform clock (its period is a whole number of time units).
    const Clock& clock() const;
    /// Every counter of every component, for reports.
    std::vector<StatGroup> statistics() const;

    /// Where bursts, descriptor fetches and interrupts are traced; null = off.
    void set_trace(TraceSink* sink);
    const PlatformParams& params() const;

    /// Zeroes every statistic (e.g. between transfers of a benchmark).
    void reset_statistics();
    /// The components, for integrity checks and an embedder's own wiring.
    DevicePort& device();
    DmaController& controller();

private:
    struct Impl;
    Impl* impl_;
};

}  // namespace dmasim::model
