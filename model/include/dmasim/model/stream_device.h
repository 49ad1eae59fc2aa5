// stream_device.h - the controller's device side: the peer a dev_to_mem
// transfer reads from and a mem_to_dev transfer writes to, one byte stream
// in each direction (as QEMU links a DMA engine to any StreamSink). The
// controller holds a reference and calls nothing else on it; the shipped
// DevicePort (device_port.h) is one implementation, a platform's own
// device is another.
//
// Timing and data are separate calls: the controller plans a chunk's
// timing (pull/push) when it plans the burst, and moves its bytes
// (produce/consume) when it copies the payload, which may be before or
// after. Both kinds of call come in stream order, so the k-th byte
// produced is the k-th byte of the stream whatever the timing calls did.
// With DmaParams::move_payload false the controller may skip the data
// calls (it does when dmasim's Memory answers behind `master`).
#pragma once

#include <cstdint>

namespace dmasim::model {

/// When a stream chunk moves, in controller cycles.
struct StreamTiming {
    uint64_t data_start;  ///< first byte moves (not before the request)
    uint64_t done;        ///< last byte moved (not before data_start)
};

class StreamDevice {
public:
    virtual ~StreamDevice() = default;

    /// Device to memory: the controller asks at `cycle` for the next
    /// `bytes` bytes of the stream; returns when they move. The controller
    /// treats a data_start before `cycle`, or a done before data_start, as
    /// that bound.
    virtual StreamTiming pull(uint64_t cycle, uint64_t bytes) = 0;
    /// Memory to device: the controller offers `bytes` bytes at `cycle`;
    /// returns when the device takes them (done is also when the buffer
    /// space they held is free again). Same bounds as pull().
    virtual StreamTiming push(uint64_t cycle, uint64_t bytes) = 0;

    /// Writes the next `bytes` bytes of the device's stream to `dst`.
    virtual void produce(uint8_t* dst, uint64_t bytes) = 0;
    /// Takes the next `bytes` bytes sent to the device from `src`.
    virtual void consume(const uint8_t* src, uint64_t bytes) = 0;

protected:
    StreamDevice() = default;
    StreamDevice(const StreamDevice&) = default;
    StreamDevice& operator=(const StreamDevice&) = default;
};

}  // namespace dmasim::model
