// device_port.h - the shipped StreamDevice: a byte stream with its own
// rate, independent in each direction.
//
// Timing: a chunk of n bytes requested at cycle t starts at
// max(t, free_at) and takes ceil(n / rate) cycles; no latency.
// Data: the source emits a fixed pattern (byte k of the stream is
// pattern_byte(k)) and the sink folds what it receives into an FNV-1a
// digest, so a testbench can check integrity in either direction without
// keeping a copy of the stream.
#pragma once

#include <dmasim/model/params.h>
#include <dmasim/model/stats.h>
#include <dmasim/model/stream_device.h>
#include <dmasim/model/trace_sink.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace dmasim::model {

class DevicePort : public StreamDevice {
public:
    explicit DevicePort(const DeviceParams& params);
    ~DevicePort() override;

    /// Books the source (device to memory) for n bytes asked for at cycle t.
    StreamTiming pull(uint64_t cycle, uint64_t bytes) override;
    /// Books the sink (memory to device) for n bytes offered at cycle t.
    StreamTiming push(uint64_t cycle, uint64_t bytes) override;
    /// Writes the next n bytes of the source stream to dst.
    void produce(uint8_t* dst, uint64_t bytes) override;
    /// Folds n received bytes into the sink digest.
    void consume(const uint8_t* src, uint64_t bytes) override;

    static uint8_t pattern_byte(uint64_t stream_offset);
    static constexpr uint64_t kDigestSeed = 0xcbf29ce484222325ull;
    /// FNV-1a of bytes, continuing from `digest`.
    static uint64_t digest_of(const uint8_t* bytes, uint64_t n, uint64_t digest = kDigestSeed);

    uint64_t produced() const { return produced_; }
    uint64_t consumed() const { return consumed_; }
    uint64_t sink_digest() const { return digest_; }
    ResourceStats source_stats() const;
    ResourceStats sink_stats() const;
    /// Bookings each stream still lists (not yet folded into its busy
    /// count): those booked ahead of SystemC time (a quantum's worth) and
    /// those still in flight, not the run's.
    std::size_t source_backlog() const;
    std::size_t sink_backlog() const;
    /// Stream chunks booked before a cycle their stream had settled past
    /// (Resource::late_bookings()).
    uint64_t late_bookings() const;
    /// Where stream chunks are traced; null = off.
    void set_trace(TraceSink* sink) { trace_ = sink; }
    /// The earliest cycle the engine may still ask the source (true) or
    /// the sink (false) for: each channel books its chunks in time order,
    /// but not in time order with the others'.
    void set_request_floor(std::function<uint64_t(bool source)> floor) {
        floor_ = std::move(floor);
    }

private:
    struct Streams;  // the two Resources (model/src/resource.h)
    StreamTiming book(bool source, uint64_t t, uint64_t n);

    double rate_;
    std::unique_ptr<Streams> streams_;
    uint64_t produced_ = 0;
    uint64_t consumed_ = 0;
    uint64_t digest_ = kDigestSeed;
    TraceSink* trace_ = nullptr;
    std::function<uint64_t(bool source)> floor_;
};

}  // namespace dmasim::model
