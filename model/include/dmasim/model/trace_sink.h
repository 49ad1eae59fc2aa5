// trace_sink.h - what the model reports of its activity as it plans it,
// for a trace writer: the tracks and counters it draws on, and the
// interface a writer implements (Platform::set_trace). Plain C++, no
// SystemC.
#pragma once

#include <cstdint>

namespace dmasim::model {

/// Where a traced activity happens: a stage of one channel, or a shared
/// resource (then the channel number is 0 and means nothing).
enum class TraceTrack : uint8_t {
    fetch,          ///< descriptor fetch bursts
    decode,         ///< descriptor decode and chain links
    read,           ///< data read bursts
    write,          ///< data write bursts
    writeback,      ///< status write-backs
    irq,            ///< interrupts raised
    ram_read,       ///< RAM read channel: data beats
    ram_write,      ///< RAM write channel: data beats
    device_source,  ///< device stream port, device to memory
    device_sink,    ///< device stream port, memory to device
    background,     ///< background traffic master's bursts
};
/// Per-channel levels a trace can plot over time (changed by deltas).
enum class TraceCounter : uint8_t {
    reads_in_flight,
    writes_in_flight,
    buffer_bytes,     ///< bytes read and not yet written out
    descriptor_fifo,  ///< decoded descriptors waiting for the data mover
    bytes_moved,      ///< payload bytes whose writes completed
    /// requests the driver submitted and the channel has not completed
    /// (a driver's ring: the testbench counts them, ScenarioBench::count_queued)
    requests_queued,
};
/// What a traced activity touched; kUnset fields are left out of the trace.
struct TraceArgs {
    static constexpr uint64_t kUnset = ~uint64_t(0);
    uint64_t address = kUnset;
    uint64_t bytes = kUnset;
    uint64_t beats = kUnset;
    uint64_t descriptor = kUnset;       ///< data descriptor index since START
    uint64_t chunk = kUnset;            ///< descriptor chunk (chain links followed before it)
    uint64_t slots = kUnset;            ///< fetch: descriptor slots read
    uint64_t over_prefetched = kUnset;  ///< fetch: slots read past an END or CHAIN slot
};

/// One access on a channel's master port as an AXI-like bus sees it, in
/// cycles: the address is offered at `request` and accepted at `accepted`;
/// its beats hold the data channel during [data, data_end) (a read's R
/// beats, a write's W beats); `response` is a write's B cycle (a read's is
/// data_end). Reported only where dmasim's own memory times the on-chip bus.
struct PortBurst {
    bool write = false;
    uint64_t address = 0;
    uint64_t beats = 0;
    uint64_t request = 0;
    uint64_t accepted = 0;
    uint64_t data = 0;
    uint64_t data_end = 0;
    uint64_t response = 0;
};

/// Receives the model's activity, in cycles of the platform clock. Calls
/// arrive in planning order, not time order. The model makes no call (and
/// builds no arguments) while no sink is attached.
class TraceSink {
public:
    virtual ~TraceSink() = default;
    /// Activity during [from, to) on `track` (of `channel`, for channel tracks).
    virtual void slice(TraceTrack track, unsigned channel, const char* what, uint64_t from,
                       uint64_t to, const TraceArgs& args) = 0;
    virtual void instant(TraceTrack track, unsigned channel, const char* what, uint64_t at) = 0;
    /// `counter` of `channel` changes by `delta` at cycle `at`.
    virtual void counter(TraceCounter counter, unsigned channel, uint64_t at, int64_t delta) = 0;
    /// A burst on `channel`'s master port (descriptor fetch, data or
    /// write-back); a sink that draws no bus handshakes ignores it.
    virtual void port_burst(unsigned /*channel*/, const PortBurst& /*burst*/) {}
};

}  // namespace dmasim::model
