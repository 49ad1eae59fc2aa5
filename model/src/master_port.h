// master_port.h - a channel's one way to memory. Descriptor fetches, data
// bursts and status write-backs all go through read() and write(), which
// hide what lies between the channel and RAM:
//   - translation: a channel started with the IOMMU on issues IOVAs; each
//     4 KiB page of an access is translated (iommu.h) and then accessed on
//     its own, one page after another. Without it an access is one piece.
//   - the path: dmasim's Memory (timing arithmetic, bytes by DMI) or a
//     foreign target (timed transactions that carry the bytes): bus_port.h.
//   - the descriptor port: descriptor accesses cross dma.descriptor_port
//     (descriptor_port.h), and with dma.descriptor_fetch word a read goes
//     one port word at a time.
//   - faults: a failed translation, an address out of reach or a bus error
//     becomes the channel's error code, DESC_* or DATA_* by what the access
//     carries.
// Callers keep their own policy: what to access, when, and what to count.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/params.h>

#include <cstdint>

#include "bus_port.h"
#include "descriptor_port.h"
#include "iommu.h"
#include "posted_writes.h"
#include "trace.h"

namespace dmasim::model {

/// What an access carries: it decides the error codes, and descriptors
/// cross the descriptor port.
enum class Carries { data, descriptor };

/// How an access went; of a paged access, its last page.
struct PortAccess {
    uint64_t issue = 0;  ///< the cycle it went to the bus, once translated
    uint64_t data = 0;   ///< read: first data beat; write: last beat accepted
    /// read: last byte arrived; write: response; on an error, when it is known
    uint64_t done = 0;
    dma_hw_error error = DMA_ERR_NONE;
    uint64_t fault_iova = 0;  ///< error TRANSLATION: the IOVA that failed
    uint64_t dram_wait = 0;   ///< memory.kind dram: BusAccess::dram_wait
};

/// Told before a data write is booked at cycle t, so that other writes due
/// earlier (descriptor write-backs) take the channel first.
class WriteGate {
public:
    virtual ~WriteGate() = default;
    virtual void before_write(uint64_t t) = 0;
};

class MasterPort {
public:
    MasterPort(const DmaParams& params, BusPort& bus, Iommu& iommu, const ChannelTracks& tracks);

    /// START: addresses are IOVAs from now on if the IOMMU is on.
    void start() { translating_ = iommu_.active(); }
    bool translating() const { return translating_; }
    /// Bus addresses of dmasim's Memory: bytes may move by DMI at any
    /// time (host()); elsewhere they move only with the accesses.
    bool direct() const { return bus_.fast() && !translating_; }
    /// direct(): the host byte of bus address `addr`, which is in reach.
    uint8_t* host(uint64_t addr) const { return bus_.host(addr); }

    /// Reads [addr, addr + bytes), asked for at cycle t, into `into` (null:
    /// timing only, allowed where direct()).
    PortAccess read(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into, Carries what);
    /// Writes [addr, addr + bytes), whose data may go at cycle t, from
    /// `from` (null: timing only, where direct()); `gate` is told each
    /// page's issue cycle before it is booked.
    PortAccess write(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from, Carries what,
                     WriteGate* gate = nullptr);
    /// write() for a status write-back: on dmasim's Memory its bytes are
    /// not stored now but handed to `later`, to be stored when simulated
    /// time reaches the write (a foreign target gets them with it).
    PortAccess post(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from, Carries what,
                    PostedWrites& later);

    /// [addr, addr + bytes) is known to be in reach before any access:
    /// always for IOVAs (each access checks its translation) and on a
    /// foreign target (its answers tell).
    bool in_reach(uint64_t addr, uint64_t bytes) const {
        return translating_ || bus_.reachable(addr, bytes);
    }
    /// End of the addresses in_reach() accepts.
    uint64_t reach_end() const { return translating_ ? UINT64_MAX : bus_.reach_end(); }
    /// The error an access to [addr, addr + bytes) at cycle t would meet,
    /// known before it issues (in_reach() fails): a probe finds the code
    /// and its cycles end `done`.
    PortAccess check(uint64_t t, uint64_t addr, uint64_t bytes, bool write, Carries what);
    /// Cycles an injected bus error issued at cycle t takes.
    uint64_t fault_cycles(uint64_t t) { return bus_.fault_cycles(t); }
    /// The physical path, for its widths and idle latencies.
    const BusPort& bus() const { return bus_; }

private:
    /// write() and post(): with `later`, fast-path bytes go there.
    PortAccess write_pieces(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from,
                            Carries what, WriteGate* gate, PostedWrites* later);
    /// Runs `access(issue, phys, offset, bytes)` on each piece in turn.
    template <typename Access>
    PortAccess paged(uint64_t t, uint64_t addr, uint64_t bytes, bool write, Carries what,
                     Access access);
    /// Translates one piece's `addr` into *phys at cycle t: `done` is when
    /// the access may issue, or `error` why it cannot.
    PortAccess place(uint64_t t, uint64_t addr, uint64_t bytes, bool write, Carries what,
                     uint64_t* phys);
    /// Bus addresses [phys, phys + bytes) at cycle t: in reach, or the error.
    PortAccess reach(uint64_t t, uint64_t phys, uint64_t bytes, bool write, Carries what) {
        if (bus_.reachable(phys, bytes)) return {t, t, t};
        return out_of_reach(t, phys, write, what);
    }
    /// reach() of addresses that are not: the error and when it is known.
    PortAccess out_of_reach(uint64_t t, uint64_t phys, bool write, Carries what);
    /// One piece's read at bus address `addr`, issued at cycle t.
    PortAccess read_piece(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into, Carries what);
    /// dma.descriptor_fetch word: one piece's descriptor read.
    PortAccess word_reads(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into);
    /// The bus's read and write, each burst also reported to the trace
    /// sink where the on-chip bus's handshakes are known.
    BusAccess bus_read(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into);
    BusAccess bus_write(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from);
    /// An access that ended with `error` at cycle `at`.
    static PortAccess failed(uint64_t at, dma_hw_error error, uint64_t iova = 0);

    BusPort& bus_;
    Iommu& iommu_;
    const ChannelTracks& tracks_;
    const DescriptorPortTiming descriptor_port_;
    const bool word_fetch_;  ///< dma.descriptor_fetch word
    bool translating_ = false;
};

}  // namespace dmasim::model
