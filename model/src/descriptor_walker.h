// descriptor_walker.h - a channel's descriptor fetch unit.
//
// It reads descriptors ahead of the data mover into a FIFO of at most
// 2 x descriptor_prefetch entries (one fetch burst being consumed while
// the next arrives) and fetches again once the FIFO has drained to
// descriptor_prefetch; a descriptor_queue below kUnboundedQueue caps the descriptors
// waiting ahead of the mover instead (0: fetch only when the mover waits).
// One fetch is in flight at a time.
//   chained_pages: a fetch burst reads up to descriptor_prefetch slots and
//     never crosses a 4 KiB page nor goes past a slot already seen to be
//     END or CHAIN; slots after such a slot are over-prefetched (counted in
//     descriptor_bytes_fetched, then dropped). A chain slot sends the walk
//     to its src after chain_link_cycles: a dependent round trip. With
//     chain_link_on_demand the link waits, undecoded, until the mover asks
//     for a descriptor with none queued (a sequencer that reads its table
//     in order).
//   linked_list: every descriptor is one dependent fetch of its own.
//   descriptor_fetch = word: one descriptor per fetch, read as single-beat
//     reads one after another.
//   IOMMU on: the fetch is translated first; a descriptor that straddles a
//     4 KiB page (only a single-slot fetch can) is read as one fetch per
//     page, each translated, one after another.
// Decoding is serial: a data descriptor is ready descriptor_setup_cycles
// after both its bytes and the previous decode.
// dma.submission tail_pointer: a walk starts parked and runs only up to
// the descriptor at TAIL; it parks after it and resumes at the descriptor
// that follows when TAIL moves: with the rest of its burst if the write
// came before that burst's fetch issued (the walk, planned ahead, never
// stopped), else by reading them again (the slots read past TAIL are
// over-prefetched, speculative reads dropped). Each TAIL write starts a
// leg with its own walk limits; a leg that comes back to its own first
// descriptor or chunk, or passes a limit, has gone round the ring without
// meeting TAIL (TAIL_UNREACHED, not CHAIN_LOOP).
#pragma once

#include <dmasim/model/params.h>

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "descriptor_codec.h"
#include "fifo.h"
#include "master_port.h"
#include "trace.h"

namespace dmasim::model {

/// A decoded data descriptor, or the error that ends the walk.
struct WalkItem {
    Descriptor desc;
    uint64_t ready = 0;  ///< cycle the mover may start it (or the error is known)
    dma_hw_error error = DMA_ERR_NONE;
    uint64_t fetched = 0;     ///< issue cycle of the fetch that read it
    uint64_t fetch_done = 0;  ///< completion of that fetch
    Interval link{0, 0};      ///< decode of the chain link that led to that fetch
    uint64_t index = 0;       ///< data descriptor index since START
    uint64_t chunk = 0;       ///< chain links followed before it
};

class DescriptorWalker {
public:
    DescriptorWalker(const DmaParams& params, MasterPort& port, ChannelStats& stats,
                     const ChannelTracks& tracks);

    /// Starts a new walk at `first` at cycle `now`. With dma.submission
    /// tail_pointer it starts parked, waiting for set_tail().
    void start(uint64_t first, dma_hw_format format, uint64_t now);
    /// TAIL written at cycle `now`: the walk runs up to the descriptor at
    /// `tail`. Returns true if it was parked and resumes.
    bool set_tail(uint64_t tail, uint64_t now);
    /// Stopped after the descriptor at TAIL (or not yet given one).
    bool parked() const { return parked_; }
    /// Fetches while the FIFO has room, no earlier than cycle `now`; with
    /// `demand`, the mover waits for a descriptor, so an empty FIFO is
    /// refilled whatever dma.descriptor_queue allows ahead. With
    /// dma.fetch_in_read_order no fetch issues after `horizon` (the mover's
    /// next data read) unless the mover waits on an empty FIFO.
    void refill(uint64_t now, bool demand, uint64_t horizon = UINT64_MAX);
    /// Stops fetching (abort or error downstream).
    void halt();
    /// Makes the `fetch`-th descriptor fetch of every walk (0 = the first)
    /// end the walk with DESC_BUS (FaultParams).
    void inject_fault(uint64_t fetch) { fault_fetch_ = fetch; }

    bool empty() const { return fifo_.empty(); }
    /// No read for the walk asks for an earlier cycle from now on: a
    /// fetch issues no earlier than ready_, and a descriptor still queued
    /// is checked (an injected fault's probe) at its own ready cycle. A
    /// parked walk resumes at TAIL's write, which is no earlier than now.
    uint64_t earliest_request() const {
        const uint64_t queued = fifo_.empty() ? UINT64_MAX : fifo_.front().ready;
        return std::min(walking_ ? ready_ : UINT64_MAX, queued);
    }
    /// The IOVA whose translation ended the walk (its last item's error is
    /// DMA_ERR_TRANSLATION); a walk ends at its first error.
    uint64_t fault_iova() const { return fault_iova_; }
    WalkItem pop();

private:
    void fetch(uint64_t issue);
    unsigned batch_slots(uint64_t addr) const;
    /// A speculative fetch: its last byte, and when its next pointer is in.
    struct SlotRead {
        uint64_t done, next_in;
    };
    SlotRead speculative_read(uint64_t addr, uint64_t issue);
    void speculate(uint64_t now, uint64_t until);
    uint64_t read_slot(uint64_t addr, uint64_t at, const char* what);
    /// Decodes one fetched slot; returns false once the walk stops or moves.
    bool decode_slot(const Descriptor& d, dma_hw_error err, uint64_t issue, uint64_t done);
    bool follow_chain(uint64_t target, uint64_t done);
    void decode_link(uint64_t target, uint64_t from);
    /// Stops after the TAIL descriptor; the walk goes on at `resume_at`.
    void park(uint64_t resume_at);
    /// Decodes the rest of burst_'s slots, until one stops the walk.
    void decode_burst();
    /// A walk that does not end: in a ring, one that missed TAIL.
    dma_hw_error loop_error() const {
        return tail_mode_ ? DMA_ERR_TAIL_UNREACHED : DMA_ERR_CHAIN_LOOP;
    }
    /// Starts a leg at `first`: the walk limits count from here.
    void begin_leg(uint64_t first);
    void finish(dma_hw_error err, uint64_t at, uint64_t fault_iova = 0);
    void push(const WalkItem& item);

    const DmaParams& params_;
    MasterPort& port_;
    ChannelStats& stats_;
    const ChannelTracks& tracks_;
    dma_hw_format format_ = DMA_HW_FMT_CHAINED_PAGES;
    dma_hw_layout layout_{};
    unsigned size_ = DMA_HW_DESC_SIZE;    ///< bytes read per descriptor
    unsigned stride_ = DMA_HW_DESC_SIZE;  ///< distance between slots
    Fifo<WalkItem> fifo_;
    std::unordered_set<uint64_t> chunk_starts_;
    uint64_t fault_fetch_ = UINT64_MAX;  ///< fetch that fails; none by default
    uint64_t fetches_ = 0;               ///< fetches issued in this walk
    uint64_t next_addr_ = 0;
    uint64_t ready_ = 0;        ///< earliest issue of the next fetch
    uint64_t decode_done_ = 0;  ///< previous decode finished
    Interval last_link_{0, 0};  ///< decode of the latest chain link followed
    /// dma.chain_link_on_demand: a chain slot read, its decode not yet begun.
    struct HeldLink {
        uint64_t target, done;
    };
    HeldLink held_link_{0, 0};
    bool holding_link_ = false;
    uint64_t links_ = 0;
    uint64_t data_descs_ = 0;
    uint64_t leg_links_ = 0;           ///< chain links since the leg began
    uint64_t leg_descs_ = 0;           ///< data descriptors since the leg began
    uint64_t leg_first_ = UINT64_MAX;  ///< the leg's first data descriptor
    bool tail_mode_ = false;           ///< dma.submission tail_pointer
    bool parked_ = false;
    uint64_t tail_ = UINT64_MAX;  ///< TAIL; none until written
    uint64_t resume_ = 0;         ///< where a parked walk goes on
    /// The latest fetch: its slots, how many are decoded, and its timing.
    struct Burst {
        uint64_t addr;
        unsigned used, slots;
        uint64_t issue, done;
    };
    Burst burst_{};
    bool walking_ = false;
    uint64_t fault_iova_ = 0;
    std::vector<uint8_t> fetched_;  ///< unless the port is direct: the last fetch's bytes
    /// dma.descriptor_fetch: speculative, where the port is direct
    /// (elsewhere every read waits for its address, as burst).
    bool speculating_ = false;
    struct Speculation {
        uint64_t addr, done;
    };
    Fifo<Speculation> speculation_;  ///< reads of the slots after the last one used
    uint64_t predicted_ = 0;         ///< address the next speculative read goes to
    uint64_t next_ar_ = 0;           ///< one read address a cycle
};

}  // namespace dmasim::model
