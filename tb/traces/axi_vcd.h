// axi_vcd.h - a VCD of each channel's master port as AXI-like channel
// handshakes (ar/r/aw/w/b: valid, ready, last, len, addr), drawn from the
// bursts the model books (model::PortBurst), to line up against an RTL
// simulator's waveform. No event per beat: each burst becomes a few level
// changes, written in time order once no later burst can come before them.
#pragma once

#include <dmasim/files/atomic_file.h>
#include <dmasim/model/clock.h>
#include <dmasim/model/trace_sink.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

namespace dmasim::tb {

class AxiVcd : public model::TraceSink {
public:
    /// Creates the file (throws OutputError); `channels` master ports, times
    /// in picoseconds of `clock`; the file stops growing near `max_bytes`.
    AxiVcd(const std::string& path, const model::Clock& clock, unsigned channels,
           uint64_t max_bytes);

    void slice(model::TraceTrack, unsigned, const char*, uint64_t, uint64_t,
               const model::TraceArgs&) override {}
    void instant(model::TraceTrack, unsigned, const char*, uint64_t) override {}
    void counter(model::TraceCounter, unsigned, uint64_t, int64_t) override {}
    void port_burst(unsigned channel, const model::PortBurst& burst) override;

    /// Writes what is left and moves the file into place; returns why it
    /// could not, or "".
    std::string finish();
    /// Why the VCD is short of the run, or "".
    std::string cap_note() const;

    /// Signals of one master port, in declaration order.
    enum Signal : unsigned {
        arvalid,
        arready,
        araddr,
        arlen,
        rvalid,
        rready,
        rlast,
        awvalid,
        awready,
        awaddr,
        awlen,
        wvalid,
        wready,
        wlast,
        bvalid,
        bready,
        kSignals
    };

private:
    /// A change of one signal at a cycle: a level moves by `value` (valid,
    /// ready and last are high while their count is above 0, so the
    /// pulses of back-to-back bursts add up), a bus takes `value`.
    struct Change {
        uint64_t at;
        unsigned signal;  ///< channel * kSignals + Signal
        int64_t value;
        bool operator>(const Change& o) const { return at > o.at; }
    };
    /// One address channel (read or write) of one port: bursts not yet
    /// placed, and the last address handshake of those placed.
    struct Lane {
        std::vector<model::PortBurst> waiting;
        uint64_t last_accepted = 0;
        bool any = false;
    };

    void declare(unsigned channels);
    void place(unsigned channel, Lane& lane, uint64_t horizon);
    void place_burst(unsigned channel, Lane& lane, const model::PortBurst& b);
    void change(uint64_t at, unsigned channel, Signal s, int64_t value);
    void flush(uint64_t horizon);
    void write_until(uint64_t until);
    void emit(const std::string& text);

    AtomicFile file_;
    model::Clock clock_;
    uint64_t period_ps_;
    uint64_t max_bytes_;
    uint64_t written_bytes_ = 0;
    std::vector<Lane> lanes_;  ///< 2 per channel: reads, writes
    std::priority_queue<Change, std::vector<Change>, std::greater<>> changes_;
    std::vector<int64_t> level_;    ///< per signal: count or bus value
    std::vector<int64_t> shown_;    ///< per signal: value last written
    std::vector<std::string> ids_;  ///< per signal: VCD identifier
    uint64_t written_until_ = 0;    ///< changes before this cycle are written
    uint64_t arrivals_ = 0;
    uint64_t max_lag_ = 0;    ///< furthest a burst asked behind SystemC time
    uint64_t late_ = 0;       ///< bursts offered before written_until_
    uint64_t capped_at_ = 0;  ///< cycle the size cap stopped the file, 0 if none
};

}  // namespace dmasim::tb
