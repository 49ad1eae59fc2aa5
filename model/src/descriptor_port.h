// descriptor_port.h - the master descriptor fetches and status write-backs
// go through (dma.descriptor_port): the data port, or a port of its own
// whose narrower beats stretch each transfer (AXI DMA's 32-bit M_AXI_SG).
// Either way they reach the same memory, so they contend with data there.
#pragma once

#include <dmasim/model/params.h>

#include <algorithm>
#include <cstdint>

#include "burst.h"

namespace dmasim::model {

/// The descriptor port of a channel on a bus `bus_width` bytes wide.
class DescriptorPortTiming {
public:
    DescriptorPortTiming(const DmaParams& dma, unsigned bus_width)
        : width_(dma.descriptor_port == DescriptorPort::separate ? dma.descriptor_port_width_bytes
                                                                : bus_width),
          bus_width_(bus_width) {}

    /// Bytes per beat: the unit of a word-at-a-time fetch.
    unsigned width() const { return width_; }

    /// When the last byte of [addr, addr + bytes), whose first beat came
    /// off the bus at `data_start` and whose last left it at `bus_done`,
    /// has crossed the port: the port moves one of its beats a cycle.
    uint64_t read_done(uint64_t addr, uint64_t bytes, uint64_t data_start, uint64_t bus_done) const {
        if (width_ == bus_width_) return bus_done;
        return std::max(bus_done, data_start + beats_of(addr, bytes, width_));
    }

    /// Cycles a write of [addr, addr + bytes) spends crossing the port
    /// beyond the bus's own beats.
    uint64_t write_extra(uint64_t addr, uint64_t bytes) const {
        if (width_ == bus_width_) return 0;
        return beats_of(addr, bytes, width_) - beats_of(addr, bytes, bus_width_);
    }

private:
    unsigned width_, bus_width_;
};

}  // namespace dmasim::model
