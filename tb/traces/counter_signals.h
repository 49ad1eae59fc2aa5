// counter_signals.h - per-channel levels as SystemC signals, for the VCD:
// reads and writes in flight, buffer bytes held and an IRQ pulse. The model
// plans ahead of SystemC time and reports each change with its cycle; a
// thread here applies the changes when simulated time reaches them.
#pragma once

#include <dmasim/model/clock.h>
#include <dmasim/model/platform.h>

#include <array>
#include <cstdint>
#include <memory>
#include <queue>
#include <systemc>
#include <vector>

namespace dmasim::tb {

class CounterSignals : public sc_core::sc_module, public model::TraceSink {
public:
    SC_HAS_PROCESS(CounterSignals);
    CounterSignals(sc_core::sc_module_name name, double clock_mhz, unsigned channels);

    struct Channel {
        sc_core::sc_signal<uint32_t> reads_in_flight, writes_in_flight, buffer_bytes;
        sc_core::sc_signal<bool> irq;
    };
    const Channel& channel(unsigned ch) const { return *channels_[ch]; }

    void slice(model::TraceTrack, unsigned, const char*, uint64_t, uint64_t,
               const model::TraceArgs&) override {}
    void instant(model::TraceTrack track, unsigned channel, const char* what, uint64_t at) override;
    void counter(model::TraceCounter counter, unsigned channel, uint64_t at,
                 int64_t delta) override;

private:
    enum class Level : uint8_t { reads, writes, buffer, irq };
    struct Change {
        uint64_t at;
        uint64_t order;  ///< arrival, so equal cycles apply in the order reported
        unsigned channel;
        Level level;
        int64_t delta;
        bool operator>(const Change& o) const { return at != o.at ? at > o.at : order > o.order; }
    };
    void push(uint64_t at, unsigned channel, Level level, int64_t delta);
    void replay();

    model::Clock clock_;
    std::vector<std::unique_ptr<Channel>> channels_;
    std::vector<std::array<int64_t, 4>> levels_;
    std::priority_queue<Change, std::vector<Change>, std::greater<>> pending_;
    uint64_t arrivals_ = 0;
    sc_core::sc_event pushed_;
};

}  // namespace dmasim::tb
