// descriptor_walker.cc - descriptor fetch timing, prefetch window and
// chain following.
#include "descriptor_walker.h"

#include <algorithm>
#include <cstdint>

#include "burst.h"

namespace dmasim::model {

DescriptorWalker::DescriptorWalker(const DmaParams& params, MasterPort& port, ChannelStats& stats,
                                   const ChannelTracks& tracks)
    : params_(params),
      port_(port),
      stats_(stats),
      tracks_(tracks),
      fifo_(4 * std::max(1u, params.descriptor_prefetch)),
      speculation_(std::max(1u, params.descriptor_prefetch)) {}

void DescriptorWalker::start(uint64_t first, dma_hw_format format, uint64_t now) {
    format_ = format;
    layout_ = layout_of(format, params_);
    size_ = descriptor_size(layout_);
    stride_ = descriptor_stride(layout_);
    fifo_.clear();
    speculating_ = params_.descriptor_fetch == DescriptorFetch::speculative && port_.direct();
    speculation_.clear();
    next_ar_ = now;
    next_addr_ = first;
    ready_ = now;
    decode_done_ = now;
    links_ = 0;
    data_descs_ = 0;
    fetches_ = 0;
    begin_leg(first);
    tail_mode_ = params_.submission == Submission::tail_pointer;
    tail_ = UINT64_MAX;
    walking_ = !tail_mode_;
    parked_ = tail_mode_;
    holding_link_ = false;
    burst_ = {};
    resume_ = first;
}

void DescriptorWalker::begin_leg(uint64_t first) {
    chunk_starts_.clear();
    chunk_starts_.insert(first);
    leg_links_ = 0;
    leg_descs_ = 0;
    leg_first_ = UINT64_MAX;
}

// The walk is planned ahead of SystemC time, so the fetch that met the
// old TAIL may issue after this write: then the engine knew the new TAIL
// when it read, and the same burst goes on (where the port is direct and
// slots are decoded from memory as it is now; elsewhere the
// bytes were captured when planned, before software wrote the new slots,
// so they are read again). Otherwise the slots it read past TAIL were not
// software's to hand over yet: the walk reads them again from the write on.
bool DescriptorWalker::set_tail(uint64_t tail, uint64_t now) {
    tail_ = tail;
    // A lap that misses TAIL is counted from where the walk stood when it
    // moved: a ring kept topped up is walked round and round.
    if (!parked_) {
        if (walking_) begin_leg(next_addr_);
        return false;
    }
    parked_ = false;
    walking_ = true;
    begin_leg(resume_);
    if (now <= burst_.issue && port_.direct()) {
        if (format_ == DMA_HW_FMT_LINKED_LIST) next_addr_ = resume_;
        decode_burst();
        return true;
    }
    next_addr_ = resume_;
    stats_.speculative_reads_dropped += speculation_.size();
    speculation_.clear();
    ready_ = std::max(ready_, now);
    return true;
}

void DescriptorWalker::park(uint64_t resume_at) {
    walking_ = false;
    parked_ = true;
    resume_ = resume_at;
}

void DescriptorWalker::halt() {
    walking_ = false;
    parked_ = false;
    holding_link_ = false;
    fifo_.clear();
}

WalkItem DescriptorWalker::pop() {
    WalkItem item = fifo_.front();
    fifo_.pop_front();
    return item;
}

void DescriptorWalker::refill(uint64_t now, bool demand, uint64_t horizon) {
    const unsigned window = std::max(1u, params_.descriptor_prefetch);
    const unsigned queue = params_.descriptor_queue;
    auto room = [&] {
        if (demand && fifo_.empty()) return true;
        return queue == kUnboundedQueue ? fifo_.size() <= window : fifo_.size() < queue;
    };
    while (walking_) {
        if (holding_link_) {
            if (!demand || !fifo_.empty()) return;
            holding_link_ = false;
            decode_link(held_link_.target, std::max(held_link_.done, now));
        }
        if (!room()) return;
        const uint64_t issue = std::max(ready_, now);
        const bool waited_on = demand && fifo_.empty();
        if (params_.fetch_in_read_order && issue > horizon && !waited_on) return;
        fetch(issue);
    }
}

unsigned DescriptorWalker::batch_slots(uint64_t addr) const {
    bool burst =
        params_.descriptor_fetch == DescriptorFetch::burst && format_ == DMA_HW_FMT_CHAINED_PAGES;
    uint64_t n = burst ? std::max(1u, params_.descriptor_prefetch) : 1;
    uint64_t to_page = ((addr | (kBurstBoundary - 1)) + 1 - addr) / stride_;
    // IOVAs have no end: they are checked a page at a time, once translated.
    uint64_t to_reach_end = (port_.reach_end() - addr) / stride_;
    return static_cast<unsigned>(std::max<uint64_t>(1, std::min({n, to_page, to_reach_end})));
}

// iDMA's desc64 front end (pulp-platform/iDMA,
// src/frontend/desc64/idma_desc64_ar_gen_prefetch.sv): while it waits for a
// descriptor it reads the ones that follow it in memory, each a read of its
// own, one address a cycle. A descriptor already read there is a hit; any
// other address is read after the reads in flight have drained, or at once
// behind them with dma.speculation_miss_waits false.
DescriptorWalker::SlotRead DescriptorWalker::speculative_read(uint64_t addr, uint64_t issue) {
    uint64_t done;
    if (!speculation_.empty() && speculation_.front().addr == addr) {
        done = speculation_.front().done;
        speculation_.pop_front();
    } else {
        // The dropped reads keep their read-channel bookings either way.
        uint64_t drained = issue;
        if (params_.speculation_miss_waits)
            for (size_t i = 0; i < speculation_.size(); ++i)
                drained = std::max(drained, speculation_.at(i).done);
        stats_.speculative_reads_dropped += speculation_.size();
        speculation_.clear();
        done = read_slot(addr, drained, "fetch");
        predicted_ = addr + stride_;
    }
    // Its next pointer is in with its second beat: no read is guessed
    // after, and the next read (a hit's successor or a miss) goes then.
    const uint64_t beats = beats_of(addr, size_, port_.bus().width);
    const uint64_t next_in = done - beats + std::min<uint64_t>(beats, 2);
    speculate(issue, next_in - 1);
    return {std::max(done, issue), std::max(next_in, issue)};
}

// Reads of the predicted slots while fewer than descriptor_prefetch are in
// flight, the descriptor queue has a free place for each (the RTL's
// NSpeculation and its idma_req FIFO's free slots) and the awaited
// descriptor's next pointer is not in yet (at `until`, when the RTL flushes
// or commits).
void DescriptorWalker::speculate(uint64_t now, uint64_t until) {
    const size_t queued = fifo_.size() + 1;  // and the one being fetched
    const unsigned queue = params_.descriptor_queue;
    const size_t room = queue == kUnboundedQueue ? SIZE_MAX : queue > queued ? queue - queued : 0;
    const size_t cap = std::min<size_t>(std::max(1u, params_.descriptor_prefetch), room);
    while (speculation_.size() < cap && std::max(now, next_ar_) <= until &&
           port_.in_reach(predicted_, size_)) {
        speculation_.push_back({predicted_, read_slot(predicted_, now, "speculative fetch")});
        ++stats_.speculative_reads;
        predicted_ += stride_;
    }
}

// One descriptor read at the first free read-address cycle from `at`.
uint64_t DescriptorWalker::read_slot(uint64_t addr, uint64_t at, const char* what) {
    const uint64_t issue = std::max(at, next_ar_);
    next_ar_ = issue + 1;
    const uint64_t done = port_.read(issue, addr, size_, nullptr, Carries::descriptor).done;
    stats_.descriptor_bytes_fetched += size_;
    if (tracks_.on()) {
        TraceArgs args;
        args.address = addr;
        args.bytes = size_;
        args.beats = beats_of(addr, size_, port_.bus().width);
        args.slots = 1;
        tracks_.slice(TraceTrack::fetch, what, issue, done, args);
    }
    return done;
}

void DescriptorWalker::fetch(uint64_t issue) {
    uint64_t addr = next_addr_;
    if (fetches_++ == fault_fetch_) {
        finish(DMA_ERR_DESC_BUS, issue + port_.fault_cycles(issue));
        return;
    }
    const PortAccess reach = port_.check(issue, addr, size_, false, Carries::descriptor);
    if (reach.error != DMA_ERR_NONE) {
        finish(reach.error, reach.done);
        return;
    }
    // n slots read as one range: the padding between slots (APP words'
    // 0x40 alignment) is read too, the last slot's only up to its end.
    unsigned n = batch_slots(addr);
    uint64_t bytes = uint64_t(n - 1) * stride_ + size_;
    uint64_t done, next_in;
    if (speculating_) {
        const SlotRead r = speculative_read(addr, issue);
        done = r.done;
        next_in = r.next_in;
    } else {
        // Where the port is direct, slots are decoded from memory itself.
        uint8_t* into = nullptr;
        if (!port_.direct()) {
            fetched_.resize(bytes);
            into = fetched_.data();
        }
        const PortAccess r = port_.read(issue, addr, bytes, into, Carries::descriptor);
        if (r.error != DMA_ERR_NONE) {
            finish(r.error, r.done, r.fault_iova);
            return;
        }
        done = next_in = r.done;
    }
    if (!speculating_) stats_.descriptor_bytes_fetched += bytes;  // read_slot counted its own
    auto& m = stats_.milestones;
    if (m.fetch == m.kNever && m.start != m.kNever) {
        m.fetch = issue;
        stats_.start_to_fetch_cycles = issue - m.start;
    }
    tracks_.charge(Cause::descriptor_fetch, issue, done);
    const uint64_t chunk = links_;
    ready_ = next_in;
    next_addr_ = addr + uint64_t(n) * stride_;
    burst_ = {addr, 0, n, issue, done};
    decode_burst();
    const unsigned used = burst_.used;
    if (tracks_.on() && !speculating_) {
        TraceArgs args;
        args.address = addr;
        args.bytes = bytes;
        args.beats = beats_of(addr, bytes, port_.bus().width);
        args.chunk = chunk;
        args.slots = n;
        args.over_prefetched = n - used;
        tracks_.slice(TraceTrack::fetch, "fetch", issue, done, args);
    }
}

void DescriptorWalker::decode_burst() {
    Burst& b = burst_;
    while (b.used < b.slots) {
        Descriptor d;
        uint64_t slot = b.addr + uint64_t(b.used++) * stride_;
        const uint8_t* bytes_at =
            port_.direct() ? port_.host(slot) : fetched_.data() + (slot - b.addr);
        dma_hw_error err = decode_descriptor(layout_, bytes_at, slot, &d);
        if (!decode_slot(d, err, b.issue, b.done)) break;
    }
}

void DescriptorWalker::push(const WalkItem& item) {
    fifo_.push_back(item);
    if (tracks_.on()) tracks_.counter(TraceCounter::descriptor_fifo, item.ready, +1);
}

bool DescriptorWalker::decode_slot(const Descriptor& d, dma_hw_error err, uint64_t issue,
                                   uint64_t done) {
    if (d.is_chain_slot && err == DMA_ERR_NONE) return follow_chain(d.src, done);
    uint64_t at = std::max(done, decode_done_) + params_.descriptor_setup_cycles;
    if (err == DMA_ERR_NONE && tail_mode_ && d.addr == leg_first_) err = loop_error();
    if (err == DMA_ERR_NONE && ++leg_descs_ > params_.max_descriptors) err = loop_error();
    if (err != DMA_ERR_NONE) {
        finish(err, at);
        return false;
    }
    bool linked_chain = format_ == DMA_HW_FMT_LINKED_LIST && (d.flags & DMA_DESC_CHAIN);
    if (linked_chain && !follow_chain(d.next, done)) return false;
    if (leg_descs_ == 1) leg_first_ = d.addr;
    decode_done_ = at;
    stats_.setup_cycles += params_.descriptor_setup_cycles;
    tracks_.charge(Cause::setup, at - params_.descriptor_setup_cycles, at);
    const uint64_t index = data_descs_++;
    if (tracks_.on()) {
        TraceArgs args;
        args.address = d.addr;
        args.bytes = d.length;
        args.descriptor = index;
        args.chunk = links_;
        tracks_.slice(TraceTrack::decode, "decode", at - params_.descriptor_setup_cycles, at, args);
    }
    push({d, at, DMA_ERR_NONE, issue, done, last_link_, index, links_});
    if (d.flags & DMA_DESC_END) {
        walking_ = false;
        return false;
    }
    const uint64_t next = format_ == DMA_HW_FMT_LINKED_LIST ? d.next : d.addr + stride_;
    if (tail_mode_ && d.addr == tail_) {
        park(next);
        return false;
    }
    if (format_ == DMA_HW_FMT_LINKED_LIST) next_addr_ = next;
    return true;
}

// Records a chain link to `target`; a loop or too deep a chain ends the
// walk. In chained_pages the walk continues at target after the link's
// decode (held until the mover asks, with dma.chain_link_on_demand); in
// linked_list the link is only counted.
bool DescriptorWalker::follow_chain(uint64_t target, uint64_t done) {
    ++links_;
    bool revisit = !chunk_starts_.insert(target).second;
    if (revisit || ++leg_links_ > params_.max_chain_depth) {
        finish(loop_error(), std::max(done, decode_done_) + params_.chain_link_cycles);
        return false;
    }
    stats_.chain_links += 1;
    if (format_ == DMA_HW_FMT_LINKED_LIST) return true;
    if (params_.chain_link_on_demand) {
        held_link_ = {target, done};
        holding_link_ = true;
    } else {
        decode_link(target, done);
    }
    return false;
}

// The link's decode, from `from` (its slot read, or the mover asking) and
// the previous decode; the walk continues at `target` after it.
void DescriptorWalker::decode_link(uint64_t target, uint64_t from) {
    decode_done_ = std::max(from, decode_done_) + params_.chain_link_cycles;
    last_link_ = {decode_done_ - params_.chain_link_cycles, decode_done_};
    stats_.setup_cycles += params_.chain_link_cycles;
    tracks_.charge(Cause::chain_link, decode_done_ - params_.chain_link_cycles, decode_done_);
    if (tracks_.on()) {
        TraceArgs args;
        args.address = target;
        args.chunk = links_;
        tracks_.slice(TraceTrack::decode, "chain link", decode_done_ - params_.chain_link_cycles,
                      decode_done_, args);
    }
    next_addr_ = target;
    ready_ = decode_done_;
}

void DescriptorWalker::finish(dma_hw_error err, uint64_t at, uint64_t fault_iova) {
    WalkItem item;
    item.ready = at;
    item.error = err;
    fault_iova_ = fault_iova;
    push(item);
    walking_ = false;
}

}  // namespace dmasim::model
