// bus_port.h - how the DMA controller reaches bus addresses through its
// `master` socket: the physical path under each channel's MasterPort
// (master_port.h) and the IOMMU's table walks. Two paths, chosen at every
// START by asking the socket:
//
// - dmasim's own Memory answers the DMI request with a MemoryTimingExtension
//   naming itself: bytes then move through the DMI pointer and burst timing
//   is the memory's channel arithmetic (no SystemC call per burst); a real
//   TLM transaction is sent only to learn why an address outside the DMI
//   region fails. This is the fast path every dmasim run takes.
// - Any other target (foreign path): each burst is one b_transport whose
//   annotated delay carries the issue cycle, and the delay the target
//   returns gives the completion; bytes travel in the transaction, or
//   through DMI where the target grants it (timed by the DMI latencies).
//   Error responses come back as faults. docs/embedding.md has the contract.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/clock.h>
#include <dmasim/model/trace_sink.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <tlm>

#include "burst.h"
#include "memory.h"
#include "pcie_link.h"

namespace dmasim::model {

/// Outcome of a one-byte TLM probe of an address the DMI region lacks.
struct ProbeResult {
    bool address_error;  ///< TLM_ADDRESS_ERROR_RESPONSE (else another bus error)
    uint64_t cycles;     ///< time the error response took
};

/// How a foreign-path access ended.
enum class BusFault { none, address, other };

/// Timing of one access issued at some cycle.
struct BusAccess {
    uint64_t data;  ///< read: first data beat; write: last beat accepted
    uint64_t done;  ///< read: last beat delivered; write: response
    BusFault fault = BusFault::none;
    /// memory.kind dram: read: of the wait for `data`, DRAM timing beyond
    /// a row hit; write: of `data` to `done`, a full DRAM write queue
    uint64_t dram_wait = 0;
};

class BusPort {
    tlm::tlm_initiator_socket<>& socket_;
    const Clock& clock_;

public:
    BusPort(tlm::tlm_initiator_socket<>& socket, const Clock& clock, const BusParams& bus);
    ~BusPort();

    /// Asks the socket which path serves this run (called at START).
    void connect();
    /// The target invalidated DMI over [start, end].
    void invalidate(uint64_t start, uint64_t end);

    /// dmasim's Memory is behind the socket: the arithmetic fast path.
    bool fast() const { return memory_ != nullptr; }
    /// Fast path: the host byte of bus address `addr` (in the DMI region).
    uint8_t* host(uint64_t addr) const { return dmi_ + addr; }
    /// Fast path: [addr, addr + bytes) is in the DMI region. Foreign path:
    /// always, since errors come back from the transactions themselves.
    bool reachable(uint64_t addr, uint64_t bytes) const { return !fast() || in_dmi(addr, bytes); }
    /// Fast path: end of the DMI region; foreign path: no limit.
    uint64_t reach_end() const { return fast() ? dmi_end_ : UINT64_MAX; }

    /// Reads [addr, addr + bytes), asked for at cycle t, by this run's path:
    /// the fast path copies the bytes into `into` (none if null) by DMI and
    /// books the memory's read channel, through the PCIe link when the bus
    /// is one; the foreign path sends one transaction that carries them
    /// (`into` must be given). The caller has checked reachable(). (Inline:
    /// every burst, fetch, write-back and page-table read comes through here.)
    BusAccess read(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into) {
        if (!fast()) return foreign_read(t, addr, bytes, into);
        if (into) std::memcpy(into, host(addr), bytes);
        const Memory::ReadTiming r =
            link_ ? link_->read(t + latency, addr, bytes)
                  : memory_->read_burst(t + latency, addr, beats_of(addr, bytes, width), bytes);
        return {r.data_start, r.done, BusFault::none, r.dram_wait};
    }
    /// Writes [addr, addr + bytes), whose data may go at cycle t, from
    /// `from` (none if null; the foreign path needs it), as read() does.
    BusAccess write(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from) {
        if (!fast()) return foreign_write(t, addr, bytes, from);
        if (from) std::memcpy(host(addr), from, bytes);
        const Memory::WriteTiming w =
            link_ ? link_->write(t + latency, addr, bytes)
                  : memory_->write_burst(t + latency, addr, beats_of(addr, bytes, width), bytes);
        return {w.data_end, w.response, BusFault::none, w.dram_wait};
    }

    /// Cycles from asking for a read to its first beat when nothing else
    /// holds the bus; the foreign path cannot tell, so all its wait is latency.
    uint64_t idle_read_cycles() const {
        return fast() ? latency + memory_->read_latency() : UINT64_MAX;
    }
    /// Cycles from a write's data being ready to its first beat when nothing
    /// else holds the bus.
    uint64_t idle_write_cycles() const { return fast() ? latency : UINT64_MAX; }
    /// bus.kind pcie: waits beyond the on-chip latency are the link's.
    bool over_link() const { return link_ != nullptr; }
    /// Fast path on the on-chip bus (not over_link()): the handshakes of an
    /// access of [addr, addr + bytes) issued at cycle t that ended as `a`,
    /// recovered from memory.h's timing (a read is accepted L cycles before
    /// its first beat, a write's beats start when it is accepted).
    PortBurst handshakes(bool write, uint64_t t, uint64_t addr, uint64_t bytes,
                         const BusAccess& a) const;

    const unsigned latency;  ///< interconnect cycles added to each fast-path request
    const unsigned width;    ///< bytes per beat

    bool in_dmi(uint64_t addr, uint64_t bytes) const {
        return bytes <= dmi_end_ && addr <= dmi_end_ - bytes;
    }
    /// First address of [addr, addr + bytes) outside the DMI region.
    uint64_t first_outside(uint64_t addr) const { return addr < dmi_end_ ? dmi_end_ : addr; }

    /// Cycles an injected bus error takes when issued at `issue`: the
    /// round trip of a one-beat read, which books the read channel.
    uint64_t fault_cycles(uint64_t issue);

    /// Error code for a failed access, from a probe of its first bad byte.
    dma_hw_error classify(uint64_t addr, bool write, bool descriptor, uint64_t* cycles);
    /// Error code for a foreign-path fault.
    static dma_hw_error error_of(BusFault fault, bool descriptor);

private:
    // Fast path state (set by connect()).
    uint8_t* dmi_ = nullptr;    ///< host pointer of bus address 0
    uint64_t dmi_end_ = 0;      ///< [0, dmi_end_) is reachable through dmi_
    Memory* memory_ = nullptr;  ///< null on the foreign path
    /// Sends a one-byte transaction that moves no data and reports the error.
    ProbeResult probe(uint64_t addr, bool write);
    BusAccess transport(tlm::tlm_command cmd, uint64_t issue, uint64_t addr, uint64_t bytes,
                        uint8_t* data);
    bool foreign_dmi(uint64_t addr, uint64_t bytes, bool write);
    BusAccess foreign_read(uint64_t issue, uint64_t addr, uint64_t bytes, uint8_t* into);
    BusAccess foreign_write(uint64_t issue, uint64_t addr, uint64_t bytes, const uint8_t* from);

    std::optional<PcieParams> pcie_;  ///< bus.kind pcie: the link's parameters
    /// The link to dmasim's Memory, made at the first START that finds it
    /// (a foreign target times its own transactions).
    std::unique_ptr<PcieLink> link_;
    tlm::tlm_dmi foreign_dmi_;  ///< DMI a foreign target granted; empty if none
    bool foreign_dmi_valid_ = false;
};

}  // namespace dmasim::model
