// device_port.cc - stream timing and the device's data pattern.
#include <dmasim/model/device_port.h>

#include <cmath>
#include <stdexcept>

#include "resource.h"

namespace dmasim::model {

struct DevicePort::Streams {
    Resource source;
    Resource sink;
};

DevicePort::DevicePort(const DeviceParams& params)
    : rate_(params.rate_bytes_per_cycle), streams_(std::make_unique<Streams>()) {
    if (!(rate_ > 0)) throw std::invalid_argument("device: rate_bytes_per_cycle must be > 0");
}

DevicePort::~DevicePort() = default;

StreamTiming DevicePort::pull(uint64_t cycle, uint64_t bytes) { return book(true, cycle, bytes); }
StreamTiming DevicePort::push(uint64_t cycle, uint64_t bytes) { return book(false, cycle, bytes); }

ResourceStats DevicePort::source_stats() const { return streams_->source.stats(); }
ResourceStats DevicePort::sink_stats() const { return streams_->sink.stats(); }
std::size_t DevicePort::source_backlog() const { return streams_->source.unsettled(); }
std::size_t DevicePort::sink_backlog() const { return streams_->sink.unsettled(); }
uint64_t DevicePort::late_bookings() const {
    return streams_->source.late_bookings() + streams_->sink.late_bookings();
}

StreamTiming DevicePort::book(bool source, uint64_t t, uint64_t n) {
    Resource& r = source ? streams_->source : streams_->sink;
    // No request comes before the floor (nor, from one channel, before
    // this one), so bookings that ended by then can be folded; otherwise
    // every chunk of the run stays listed (16 bytes each, for the whole
    // process).
    r.settle(floor_ ? std::min(t, floor_(source)) : t);
    auto cycles = static_cast<uint64_t>(std::ceil(static_cast<double>(n) / rate_));
    uint64_t start = r.book(t, cycles, n);
    if (trace_) {
        TraceArgs args;
        args.bytes = n;
        trace_->slice(source ? TraceTrack::device_source : TraceTrack::device_sink, 0,
                      source ? "to memory" : "from memory", start, start + cycles, args);
    }
    return {start, start + cycles};
}

uint8_t DevicePort::pattern_byte(uint64_t k) {
    // A multiplicative hash, so shifted or repeated chunks show up as errors.
    return static_cast<uint8_t>(((k + 1) * 0x9E3779B97F4A7C15ull) >> 56);
}

void DevicePort::produce(uint8_t* dst, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) dst[i] = pattern_byte(produced_ + i);
    produced_ += n;
}

uint64_t DevicePort::digest_of(const uint8_t* bytes, uint64_t n, uint64_t digest) {
    for (uint64_t i = 0; i < n; ++i) digest = (digest ^ bytes[i]) * 0x100000001b3ull;
    return digest;
}

void DevicePort::consume(const uint8_t* src, uint64_t n) {
    digest_ = digest_of(src, n, digest_);
    consumed_ += n;
}

}  // namespace dmasim::model
