// data_mover.h - a channel's data mover: the timing of read and write
// bursts (no bytes move here; the channel copies them by DMI).
//
// A segment is cut into read bursts on the source side and write bursts on
// the destination side (burst.h). Bursts issue in order on each side; a
// read issues no earlier than
//   - the descriptor's ready cycle and the previous read's issue,
//   - the completion of the read max_outstanding_reads before it,
//   - the cycle the writes have drained enough of the buffer_bytes buffer
//     (its own bytes, or read_refill_bytes at once: see space_wanted),
//   - with max_bursts_in_flight = M, the response of the writes of the
//     bytes of the read M before it (writes_through);
// a write issues no earlier than
//   - its data: cut_through = the first needed read beat has arrived and its
//     last beat cannot overtake the last needed read beat; store_and_forward
//     = every read burst holding its bytes has completed; then
//     write_issue_latency_cycles more; with write_waits_for_next_word, a
//     burst that does not end its segment also waits for the next word,
//   - the previous write's issue and the response of the write
//     max_outstanding_writes before it.
// The device side (dev_to_mem source, mem_to_dev sink) replaces memory
// reads or writes with StreamDevice chunks. Memory bursts go through the
// channel's MasterPort (with the IOMMU on, each issues once its IOVA is
// translated). The buffer and burst rings carry
// across descriptors, so with data_overlap the next segment's reads
// start while the last one's writes drain.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/params.h>
#include <dmasim/model/stream_device.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "fifo.h"
#include "in_flight.h"
#include "master_port.h"
#include "trace.h"

namespace dmasim::model {

struct Segment {
    uint64_t src = 0;
    uint64_t dst = 0;
    uint64_t length = 0;
    uint64_t descriptor = 0;  ///< index since START, for traces
    uint64_t chunk = 0;       ///< for traces
    bool deburst = false;     ///< DMA_DESC_DEBURST: one-beat bursts
};

/// Bytes [offset, offset + bytes) of the segment whose writes were planned.
struct Slice {
    uint64_t offset;
    uint64_t bytes;
};

class DataMover {
public:
    DataMover(const DmaParams& params, MasterPort& port, StreamDevice& device, ChannelStats& stats,
              const ChannelTracks& tracks, WriteGate& gate);

    /// Forgets all bursts: a new transfer starts at cycle `now`.
    void reset(uint64_t now);
    void begin(const Segment& seg, dma_hw_direction dir, uint64_t ready);
    /// Plans bursts of the current segment until all are planned, the next
    /// read would issue after `horizon`, or `max_reads` reads are planned.
    Slice advance(uint64_t horizon, uint64_t max_reads);

    bool active() const { return active_; }
    bool segment_done() const { return w_done_ == seg_.length; }
    void end_segment() { active_ = false; }
    /// Latest write response of the current segment.
    uint64_t last_response() const { return seg_response_; }
    /// The error of the burst that stopped planning (a foreign target's bus
    /// error, or a translation or address error with the IOMMU), its cycle
    /// and IOVA.
    dma_hw_error fault() const { return fault_; }
    uint64_t fault_at() const { return fault_at_; }
    uint64_t fault_iova() const { return fault_iova_; }
    /// The earliest cycle the next read could issue.
    uint64_t frontier() const { return std::max({last_read_issue_, ready_, blocked_until_}); }
    /// No read (write) it plans from now on asks for an earlier cycle:
    /// each issues at or after the one before it.
    uint64_t earliest_read() const { return last_read_issue_; }
    uint64_t earliest_write() const { return last_write_issue_; }

private:
    struct SourceBurst {
        uint64_t end;  ///< stream offset past its last byte
        uint64_t data_start;
        uint64_t done;
    };
    struct SinkBurst {
        uint64_t end;
        uint64_t release;  ///< cycle its bytes leave the buffer
    };

    /// Longest burst of the current segment: one beat if it is debursted.
    unsigned max_beats() const { return seg_.deburst ? 1 : params_.max_burst_beats; }
    uint64_t next_read_bytes() const;
    /// Stream offset up to which buffer space must be free before a read
    /// of n bytes issues.
    uint64_t space_wanted(uint64_t n) const;
    uint64_t release_time(uint64_t stream_offset);
    /// max_bursts_in_flight: the stream end of the read M before the next
    /// one, whose writes the next read waits for; 0 when there is none.
    uint64_t pipeline_wait_end() const;
    /// Latest response of the writes of stream bytes [0, end), all planned.
    uint64_t writes_through(uint64_t end);
    bool plan_read(uint64_t horizon);
    bool plan_write();
    uint8_t* stage(uint64_t n);
    const uint8_t* unstage(uint64_t n);
    /// Stops planning at the failed burst's error.
    bool fail(const PortAccess& failed);
    /// The policy of the current segment's writes.
    WritePolicy write_policy() const;
    /// When the bytes of a write burst [first, last] of the stream are in
    /// the buffer: its first byte, its last, and the cycle the write may
    /// issue under the segment's policy (and write_waits_for_next_word,
    /// unless it ends the segment).
    struct WriteData {
        uint64_t first_in;
        uint64_t last_in;
        uint64_t issue;
    };
    WriteData write_data(uint64_t first, uint64_t last, uint64_t beats, bool segment_end);
    /// Cycle the word after stream byte `last` (held past read burst
    /// sources_[source]) is in, if the write must wait for it; else 0.
    uint64_t next_word_in(size_t source, uint64_t last, bool segment_end) const;
    /// The next read (or write) waited on `cause` over [from, to) before
    /// it could issue; see settle_stalls.
    void hold(Cause cause, uint64_t from, uint64_t to, bool write);
    /// Books the held stalls if the burst they held issued at `issue` was
    /// on the critical path: its first beat came an idle bus's `lead` after
    /// its issue (queued for the bus, an earlier issue would not have
    /// moved it); drops them either way.
    void settle_stalls(bool write, uint64_t issue, uint64_t first, uint64_t lead);
    void cover(uint64_t from, uint64_t to);
    void note_data_out(uint64_t first, uint64_t end);
    /// `first` >= `issue`: the burst's first beat; `end`: its last beat's end.
    /// Also settles the stalls held for the burst (settle_stalls). `dram`:
    /// of its wait for the first beat, cycles the DRAM's timing took.
    void account_burst(bool write, uint64_t issue, uint64_t first, uint64_t end, uint64_t beats,
                       uint64_t lead, uint64_t dram);
    void trace_burst(TraceTrack track, uint64_t addr, uint64_t bytes, uint64_t from,
                     uint64_t to) const;

    const DmaParams& params_;
    MasterPort& port_;
    StreamDevice& device_;
    ChannelStats& stats_;
    const ChannelTracks& tracks_;
    WriteGate& gate_;
    uint64_t buffer_;

    Segment seg_;
    dma_hw_direction dir_ = DMA_HW_MEM_TO_MEM;
    bool active_ = false;
    /// Bytes travel with the bursts (through stage/unstage): where the port
    /// is not direct (a foreign target, or IOVAs, not contiguous in memory).
    bool staging_ = false;
    uint64_t ready_ = 0;
    uint64_t r_done_ = 0;  ///< segment bytes whose reads are planned
    uint64_t w_done_ = 0;  ///< segment bytes whose writes are planned
    uint64_t seg_response_ = 0;

    uint64_t r_stream_ = 0;  ///< bytes read-planned since reset
    uint64_t w_stream_ = 0;  ///< bytes write-planned since reset
    Fifo<SourceBurst> sources_;
    Fifo<SinkBurst> sinks_;
    InFlight reads_;   ///< completion of the last max_outstanding_reads reads
    InFlight writes_;  ///< response of the last max_outstanding_writes writes
    /// max_bursts_in_flight: stream ends of the last M reads, and the
    /// writes not yet waited for by their stream end with the latest
    /// response up to them.
    Fifo<uint64_t> read_ends_;
    struct Written {
        uint64_t end;
        uint64_t response;
    };
    Fifo<Written> written_;
    uint64_t last_read_issue_ = 0, last_write_issue_ = 0;
    uint64_t covered_ = 0;         ///< data_cycles counted up to here
    uint64_t blocked_until_ = 0;   ///< the next read cannot issue before this
    uint64_t granted_ = 0;         ///< stream offset up to which buffer space was granted
    std::vector<uint8_t> staged_;  ///< staging: bytes read, from staged_head_ not yet written
    uint64_t staged_head_ = 0;
    struct Stall {
        Cause cause;
        uint64_t from, to;
    };
    /// What held the next read (a slot or buffer space, a translation) or
    /// write (a slot, a translation), until settle_stalls.
    struct Held {
        std::array<Stall, 2> stalls;
        size_t count;
    };
    std::array<Held, 2> held_{};  ///< [0] reads, [1] writes
    dma_hw_error fault_ = DMA_ERR_NONE;
    uint64_t fault_at_ = 0;
    uint64_t fault_iova_ = 0;
};

}  // namespace dmasim::model
