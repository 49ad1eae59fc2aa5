// dma_channel.h - one DMA channel: its registers' state, its descriptor
// walker and data mover, the bytes it moves, and the status events it
// owes the controller (stop, interrupts) at their planned cycles.
//
// The channel plans ahead of SystemC time (at most to the controller's
// horizon); the controller applies the planned events when simulated
// time reaches them, so software sees DONE, STATUS and interrupts at the
// right cycle. BYTES_DONE and DESCS_DONE count the write-backs done by the
// cycle they are read at, and the status words the write-backs leave in
// descriptor memory appear at that cycle too: each completion waits, with
// its cycle and its status bytes, until a register read or the engine's
// step reaches it (settle()).
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/params.h>
#include <dmasim/model/stream_device.h>

#include <cstdint>
#include <limits>

#include "bus_port.h"
#include "data_mover.h"
#include "descriptor_walker.h"
#include "fifo.h"
#include "iommu.h"
#include "master_port.h"
#include "posted_writes.h"
#include "trace.h"

namespace dmasim::model {

class DmaChannel {
public:
    static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

    DmaChannel(unsigned index, const DmaParams& params, BusPort& bus, Iommu& iommu,
               StreamDevice& device, TraceSink* const* sink);

    // Register state (the controller's register callbacks use these).
    uint64_t desc_addr = 0;
    uint32_t ctrl = 0;  ///< IRQ_EN, DIR and FORMAT bits
    uint32_t status = 0;
    uint64_t bytes_done = 0;  ///< settled completions' bytes
    uint32_t descs_done = 0;  ///< settled completions
    /// Counts the completions done by cycle `now` into bytes_done and
    /// descs_done and stores their status write-backs in memory (reads and
    /// the engine come in time order).
    void settle(uint64_t now);
    /// IOVA whose translation stopped the channel (status error TRANSLATION).
    uint64_t translation_fault = 0;
    /// The error code in `status`.
    dma_hw_error error() const {
        return static_cast<dma_hw_error>((status & DMA_STATUS_ERR_MASK) >> DMA_STATUS_ERR_SHIFT);
    }

    /// START written at cycle `now`.
    void start(uint64_t now);
    /// ABORT written at cycle `now` while busy.
    void abort(uint64_t now);
    /// TAIL_HI written at cycle `now` (TAIL_LO holds the low half): with
    /// dma.submission tail_pointer and the channel busy, the walk runs to
    /// the descriptor at `tail`, resuming if it idled.
    void write_tail(uint64_t now);
    uint64_t tail = 0;  ///< TAIL register

    bool planning() const { return planning_; }
    /// Cycle of the next planning step; kNever when not planning.
    uint64_t frontier() const;
    /// Plans one descriptor, or part of one: up to `horizon` or `max_reads`
    /// read bursts, whichever comes first.
    void plan(uint64_t horizon, uint64_t max_reads);

    /// The earliest cycle this channel may still ask memory for: its
    /// fetches, bursts and write-backs are planned behind SystemC time.
    uint64_t earliest_request() const;
    /// The same for the device's source (pulls) or sink (pushes).
    uint64_t earliest_stream_request(bool source) const {
        if (!planning_) return kNever;
        return source ? mover_.earliest_read() : mover_.earliest_write();
    }

    /// Cycle of the next status event; kNever if none.
    uint64_t next_event() const;
    enum class Event { none, stop, irq, idle };
    /// Takes the next event due at or before `now`.
    Event take_event(uint64_t now);

    const ChannelStats& stats() const { return stats_; }
    /// Also forgets the cycle timeline: a run measured after a warm-up
    /// accounts only what follows.
    void reset_stats() {
        stats_ = {};
        timeline_.clear();
    }
    const CycleTimeline& timeline() const { return timeline_; }
    const ChannelTracks& tracks() const { return tracks_; }

private:
    bool begin_descriptor(const WalkItem& item);
    /// The cycle a descriptor ready at `ready` may issue its first read.
    uint64_t launched(uint64_t ready);
    /// The earliest cycle the mover could start its next descriptor: its
    /// frontier, and for a serial mover the previous descriptor's end.
    uint64_t next_start() const;
    void stall_for_descriptor(const WalkItem& item, uint64_t from);
    void copy_bytes(const Slice& slice);
    void complete_descriptor();
    /// Whether dma.status_writeback writes a status for a descriptor with these flags.
    bool writes_status(uint32_t flags) const;
    /// Books the queued write-backs due at or before cycle t.
    void before_write(uint64_t t);
    /// `fault_iova`: the IOVA of a TRANSLATION error.
    void stop(uint64_t at, dma_hw_error err, uint64_t fault_iova = 0);
    /// The walk parked at TAIL and everything before it completed: the
    /// channel stays busy and shows IDLE from then on.
    void go_idle();
    void raise_irq(uint64_t at);
    /// A DMA_DESC_IRQ descriptor completed at cycle `at`: counts it towards
    /// the coalescing threshold, raising the interrupt when it is reached.
    void note_irq_completion(uint64_t at);
    /// Raises the delay interrupt if its timer expired before cycle `before`.
    void expire_coalesce_timer(uint64_t before);
    /// Raises one interrupt at `at` for the completions pending.
    void raise_coalesced(uint64_t at);
    dma_hw_direction direction() const;
    dma_hw_format format() const;

    const DmaParams& params_;
    StreamDevice& device_;
    ChannelStats stats_;
    CycleTimeline timeline_;
    ChannelTracks tracks_;
    MasterPort port_;  ///< every access the walker, the mover and the write-backs make
    DescriptorWalker walker_;
    /// What the mover calls before booking a write: the write-backs due
    /// earlier take the write channel first.
    class WritebackGate final : public WriteGate {
    public:
        explicit WritebackGate(DmaChannel& channel) : channel_(channel) {}
        void before_write(uint64_t t) override { channel_.before_write(t); }

    private:
        DmaChannel& channel_;
    };
    WritebackGate gate_{*this};
    DataMover mover_;

    bool planning_ = false;
    WalkItem current_;
    uint64_t last_done_ = 0;        ///< latest booked write-back completion
    uint64_t fault_desc_ = kNever;  ///< data descriptor whose first burst fails
    uint64_t descs_begun_ = 0;      ///< data descriptors begun since START
    uint64_t started_ = 0;          ///< cycle of the last START
    uint64_t stop_at_ = kNever;
    uint64_t idle_at_ = kNever;  ///< when STATUS shows IDLE
    uint32_t stop_status_ = 0;
    uint64_t stop_fault_iova_ = 0;
    Fifo<uint64_t> irqs_;             ///< planned interrupt cycles, in order
    uint64_t irq_pending_ = 0;        ///< completions counted towards the threshold
    uint64_t irq_deadline_ = kNever;  ///< delay timer expiry while completions pend
    struct Writeback {
        uint64_t issue;  ///< the descriptor's last write response
        uint64_t addr;   ///< status word
        uint32_t flags;
        bool write;        ///< false: completes at `issue` without a write-back
        uint64_t fetched;  ///< issue of the fetch that read the descriptor
        uint64_t index;    ///< data descriptor index since START
        uint32_t length;   ///< bytes the status reports
        /// dev_to_mem with APP words: they are written back too (S2MM's
        /// status stream, which dmasim's device sends as zero words)
        uint64_t app_addr;
        uint32_t app_bytes;  ///< 0: no APP words written
    };
    /// Writes `bytes` from `from` at `addr` as part of a write-back asked
    /// for at `issue`; returns the write response.
    uint64_t writeback_put(uint64_t issue, uint64_t addr, const uint8_t* from, uint64_t bytes);
    /// First failed write-back (foreign path bus error, or translation)
    dma_hw_error writeback_fault_ = DMA_ERR_NONE;
    uint64_t writeback_fault_at_ = 0;
    uint64_t writeback_fault_iova_ = 0;
    Fifo<Writeback> writebacks_;
    struct Completion {
        uint64_t done;  ///< cycle its write-back completed
        uint32_t bytes;
    };
    Fifo<Completion> unsettled_;  ///< booked completions not yet counted, in order
    PostedWrites posted_;         ///< their status bytes not yet in memory, in order
};

}  // namespace dmasim::model
