// bus_port.h - how a DMA channel reaches RAM without a SystemC call per
// burst: bytes through the DMI pointer, timing from the memory's channel
// resources, and a real TLM transaction only to learn why an address
// outside the DMI region fails.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/burst.h>
#include <dmasim/model/memory.h>
#include <dmasim/model/pcie_link.h>

#include <cstdint>

namespace dmasim::model {

/// Outcome of a one-byte TLM probe of an address the DMI region lacks.
struct ProbeResult {
    bool address_error;  ///< TLM_ADDRESS_ERROR_RESPONSE (else another bus error)
    uint64_t cycles;     ///< time the error response took
};

class BusPort {
public:
    virtual ~BusPort() = default;
    /// Sends a one-byte transaction that moves no data and reports the error.
    virtual ProbeResult probe(uint64_t addr, bool write) = 0;

    uint8_t* dmi = nullptr;  ///< host pointer of bus address 0
    uint64_t dmi_end = 0;    ///< [0, dmi_end) is reachable through dmi
    Memory* memory = nullptr;
    PcieLink* link = nullptr;  ///< set: RAM is reached through this PCIe link
    unsigned latency = 0;      ///< interconnect cycles added to each request
    unsigned width = 16;       ///< bytes per beat

    /// Timing of a read of [addr, addr + bytes) asked for at cycle t.
    Memory::ReadTiming read(uint64_t t, uint64_t addr, uint64_t bytes) {
        if (link) return link->read(t + latency, addr, bytes);
        return memory->read_burst(t + latency, beats_of(addr, bytes, width), bytes);
    }
    /// Timing of a write of [addr, addr + bytes) whose data may go at cycle t.
    Memory::WriteTiming write(uint64_t t, uint64_t addr, uint64_t bytes) {
        if (link) return link->write(t + latency, addr, bytes);
        return memory->write_burst(t + latency, beats_of(addr, bytes, width), bytes);
    }

    bool in_dmi(uint64_t addr, uint64_t bytes) const {
        return bytes <= dmi_end && addr <= dmi_end - bytes;
    }
    /// First address of [addr, addr + bytes) outside the DMI region.
    uint64_t first_outside(uint64_t addr) const { return addr < dmi_end ? dmi_end : addr; }

    /// Cycles an injected bus error takes when issued at `issue`: the
    /// round trip of a one-beat read, which books the read channel.
    uint64_t fault_cycles(uint64_t issue) {
        return memory->read_burst(issue + latency, 1, width).done - issue;
    }

    /// Error code for a failed access, from a probe of its first bad byte.
    dma_hw_error classify(uint64_t addr, bool write, bool descriptor, uint64_t* cycles) {
        ProbeResult r = probe(first_outside(addr), write);
        *cycles = r.cycles;
        if (descriptor) return r.address_error ? DMA_ERR_DESC_ADDRESS : DMA_ERR_DESC_BUS;
        return r.address_error ? DMA_ERR_DATA_ADDRESS : DMA_ERR_DATA_BUS;
    }
};

}  // namespace dmasim::model
