// device_port.h - the device side of dev_to_mem and mem_to_dev transfers:
// a byte stream with its own rate, independent in each direction.
//
// Timing: a chunk of n bytes requested at cycle t starts at
// max(t, free_at) and takes ceil(n / rate) cycles; no latency.
// Data: the source emits a fixed pattern (byte k of the stream is
// pattern_byte(k)) and the sink folds what it receives into an FNV-1a
// digest, so a testbench can check integrity in either direction without
// keeping a copy of the stream.
#pragma once

#include <dmasim/model/params.h>
#include <dmasim/model/trace_sink.h>
#include <dmasim/model/resource.h>

#include <cstdint>

namespace dmasim::model {

class DevicePort {
public:
    explicit DevicePort(const DeviceParams& params);

    struct Timing {
        uint64_t data_start;  ///< first byte moves
        uint64_t done;        ///< last byte moved
    };
    /// Books the source (device to memory) for n bytes asked for at cycle t.
    Timing source(uint64_t t, uint64_t n) { return book(source_, t, n); }
    /// Books the sink (memory to device) for n bytes offered at cycle t.
    Timing sink(uint64_t t, uint64_t n) { return book(sink_, t, n); }

    /// Writes the next n bytes of the source stream to dst.
    void produce(uint8_t* dst, uint64_t n);
    /// Folds n received bytes into the sink digest.
    void consume(const uint8_t* src, uint64_t n);

    static uint8_t pattern_byte(uint64_t stream_offset);
    static constexpr uint64_t kDigestSeed = 0xcbf29ce484222325ull;
    /// FNV-1a of bytes, continuing from `digest`.
    static uint64_t digest_of(const uint8_t* bytes, uint64_t n, uint64_t digest = kDigestSeed);

    uint64_t produced() const { return produced_; }
    uint64_t consumed() const { return consumed_; }
    uint64_t sink_digest() const { return digest_; }
    const Resource& source_stream() const { return source_; }
    const Resource& sink_stream() const { return sink_; }
    /// Where stream chunks are traced; null = off.
    void set_trace(TraceSink* sink) { trace_ = sink; }

private:
    Timing book(Resource& r, uint64_t t, uint64_t n);

    double rate_;
    Resource source_;
    Resource sink_;
    uint64_t produced_ = 0;
    uint64_t consumed_ = 0;
    uint64_t digest_ = kDigestSeed;
    TraceSink* trace_ = nullptr;
};

}  // namespace dmasim::model
