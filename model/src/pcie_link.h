// pcie_link.h - the timing of a PCIe link between the DMA engine (an
// endpoint) and host memory, used when bus.kind is pcie (docs/pcie.md).
//
//   engine ──MRd, MWr──> upstream lane ──RL/2──> host memory (Memory)
//   engine <────CplD──── downstream lane <─RL/2──┘
//
// Each direction is a resource that serialises TLPs at the link's rate
// (GT/s x lanes x line encoding, less the DLLP share). A read is split
// into requests of at most MRRS bytes, each waiting for a free tag; its
// data comes back as completions of at most MPS bytes that end on RCB
// boundaries. A write is split into posted MWr TLPs of at most MPS bytes
// and is done, for the engine, when its last TLP has left. Only timing
// lives here; the bytes move by DMI as on the on-chip bus.
#pragma once

#include <dmasim/model/clock.h>
#include <dmasim/model/params.h>

#include <cstdint>
#include <queue>
#include <vector>

#include "memory.h"

namespace dmasim::model {

class PcieLink {
public:
    /// `params` must pass model::validate (params.h).
    PcieLink(const PcieParams& params, Memory& memory, unsigned width_bytes, const Clock& clock);

    /// A non-posted read of [addr, addr + bytes) asked for at cycle t.
    Memory::ReadTiming read(uint64_t t, uint64_t addr, uint64_t bytes);
    /// A posted write of [addr, addr + bytes) whose data is ready at cycle t.
    Memory::WriteTiming write(uint64_t t, uint64_t addr, uint64_t bytes);

    /// Bytes per clock cycle one direction carries (after encoding and DLLPs).
    double bytes_per_cycle() const { return rate_; }
    /// Link bytes per nanosecond before DLLPs: GT/s x lanes x encoding / 8.
    static double raw_gbytes_per_second(unsigned gen, unsigned lanes);

private:
    /// Serialises `wire_bytes` on a direction free from `free_at`, not
    /// before `t`; returns when the last byte has left.
    double send(double& free_at, double t, uint64_t wire_bytes) const;
    /// Cycle at which a new read request may take a tag.
    double take_tag(double t);

    PcieParams params_;
    Memory& memory_;
    unsigned width_;
    double rate_;  ///< bytes per cycle
    uint64_t request_overhead_, completion_overhead_;
    double upstream_free_ = 0, downstream_free_ = 0;
    double port_free_ = 0;  ///< the engine's write datapath (width bytes per cycle)
    /// Completion cycles of the reads holding a tag (earliest on top).
    std::priority_queue<double, std::vector<double>, std::greater<>> tags_held_;
};

}  // namespace dmasim::model
