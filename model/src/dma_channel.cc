// dma_channel.cc - descriptor sequencing, byte movement, write-back and
// stop/interrupt planning for one channel.
#include "dma_channel.h"

#include <algorithm>
#include <cstring>

#include "burst.h"

namespace dmasim::model {

DmaChannel::DmaChannel(unsigned index, const DmaParams& params, BusPort& bus, Iommu& iommu,
                       StreamDevice& device, TraceSink* const* sink)
    : params_(params),
      device_(device),
      tracks_(index, sink),
      port_(params, bus, iommu, tracks_),
      walker_(params, port_, stats_, tracks_),
      mover_(params, port_, device, stats_, tracks_, gate_),
      irqs_(16),
      writebacks_(64),
      unsettled_(64) {
    tracks_.timeline = &timeline_;
    const FaultParams& f = params.fault;
    if (f.channel != index) return;
    if (f.kind == FaultKind::descriptor) walker_.inject_fault(f.index);
    if (f.kind == FaultKind::data) fault_desc_ = f.index;
}

dma_hw_direction DmaChannel::direction() const {
    return static_cast<dma_hw_direction>((ctrl & DMA_CTRL_DIR_MASK) >> DMA_CTRL_DIR_SHIFT);
}

dma_hw_format DmaChannel::format() const {
    return static_cast<dma_hw_format>((ctrl & DMA_CTRL_FORMAT_MASK) >> DMA_CTRL_FORMAT_SHIFT);
}

void DmaChannel::start(uint64_t now) {
    status = DMA_STATUS_BUSY;
    bytes_done = 0;
    descs_done = 0;
    last_done_ = now;
    descs_begun_ = 0;
    writeback_fault_ = DMA_ERR_NONE;
    translation_fault = 0;
    stop_at_ = kNever;
    idle_at_ = kNever;
    irqs_.clear();
    irq_pending_ = 0;
    irq_deadline_ = kNever;
    writebacks_.clear();
    unsettled_.clear();
    posted_.clear();
    planning_ = true;
    port_.start();
    started_ = now;
    if (stats_.milestones.start == ChannelStats::Milestones::kNever) stats_.milestones.start = now;
    tracks_.charge(Cause::start_latency, now, now + params_.start_latency_cycles);
    mover_.reset(now);
    walker_.start(desc_addr, format(), now + params_.start_latency_cycles);
    if (direction() > DMA_HW_MEM_TO_DEV) {
        stop(now, DMA_ERR_BAD_DESCRIPTOR);
    } else if (walker_.parked()) {
        // Nothing to do until the first TAIL write.
        planning_ = false;
        status |= DMA_STATUS_IDLE;
    }
}

// A TAIL that moves before the walk reached the old one only lets it go
// on; one written after the channel idled resumes it from the write's
// cycle. The channel plans ahead, so it may have parked at a cycle after
// the write: then the resumed fetch issues when the parked one would have
// (the walker's own ready cycle), and no IDLE shows.
void DmaChannel::write_tail(uint64_t now) {
    if (!(status & DMA_STATUS_BUSY) || params_.submission != Submission::tail_pointer) return;
    if (!walker_.set_tail(tail, now)) return;
    status &= ~DMA_STATUS_IDLE;
    idle_at_ = kNever;
    if (stop_at_ == kNever) planning_ = true;
}

// Work planned past `now` is dropped: its write-backs (their bytes too),
// completions and interrupts.
void DmaChannel::abort(uint64_t now) {
    irqs_.clear();
    irq_pending_ = 0;
    irq_deadline_ = kNever;
    writebacks_.clear();
    settle(now);
    unsettled_.clear();
    posted_.clear();
    stop(now, DMA_ERR_ABORTED);
}

void DmaChannel::settle(uint64_t now) {
    posted_.apply(now);
    for (; !unsettled_.empty() && unsettled_.front().done <= now; unsettled_.pop_front()) {
        bytes_done += unsettled_.front().bytes;
        descs_done += 1;
    }
}

uint64_t DmaChannel::frontier() const { return planning_ ? mover_.frontier() : kNever; }

uint64_t DmaChannel::earliest_request() const {
    const uint64_t writeback = writebacks_.empty() ? kNever : writebacks_.front().issue;
    if (!planning_) return writeback;
    return std::min(
        {writeback, walker_.earliest_request(), mover_.earliest_read(), mover_.earliest_write()});
}

uint64_t DmaChannel::next_start() const {
    return params_.data_overlap ? mover_.frontier() : std::max(mover_.frontier(), last_done_);
}

void DmaChannel::plan(uint64_t horizon, uint64_t max_reads) {
    if (!mover_.active()) {
        // The mover asks when it can start the next descriptor: a serial
        // one, at the previous one's end. (With a queue the walker asks for
        // nothing then, except to follow a link held until asked.)
        walker_.refill(next_start(), true, next_start());
        if (walker_.empty()) {
            if (walker_.parked())
                go_idle();
            else
                stop(0, DMA_ERR_NONE);
            return;
        }
        const WalkItem item = walker_.pop();
        if (tracks_.on())
            tracks_.counter(TraceCounter::descriptor_fifo, std::max(item.ready, mover_.frontier()),
                            -1);
        if (!begin_descriptor(item)) return;
    }
    copy_bytes(mover_.advance(horizon, max_reads));
    if (mover_.fault() != DMA_ERR_NONE) {
        stop(mover_.fault_at(), mover_.fault(), mover_.fault_iova());
        return;
    }
    if (mover_.segment_done()) complete_descriptor();
    // mem_to_dev makes no data writes to pace the write-backs by.
    if (direction() == DMA_HW_MEM_TO_DEV) before_write(mover_.frontier());
    if (writeback_fault_ != DMA_ERR_NONE && planning_)
        stop(writeback_fault_at_, writeback_fault_, writeback_fault_iova_);
}

bool DmaChannel::begin_descriptor(const WalkItem& item) {
    uint64_t ready = item.ready;
    if (item.error != DMA_ERR_NONE) {
        stop(ready, item.error, walker_.fault_iova());
        return false;
    }
    const Descriptor& d = item.desc;
    dma_hw_direction dir = direction();
    bool reads_mem = dir != DMA_HW_DEV_TO_MEM, writes_mem = dir != DMA_HW_MEM_TO_DEV;
    PortAccess reach{ready, ready, ready};
    if (descs_begun_++ == fault_desc_) {
        reach.error = DMA_ERR_DATA_BUS;
        reach.done = ready + port_.fault_cycles(ready);
    }
    if (reads_mem && reach.error == DMA_ERR_NONE)
        reach = port_.check(ready, d.src, d.length, false, Carries::data);
    if (writes_mem && reach.error == DMA_ERR_NONE)
        reach = port_.check(ready, d.dst, d.length, true, Carries::data);
    if (reach.error != DMA_ERR_NONE) {
        stop(reach.done, reach.error);
        return false;
    }
    if (ready > mover_.frontier()) stats_.descriptor_wait_cycles += ready - mover_.frontier();
    // A serial mover waits for the previous descriptor's end first.
    if (!params_.data_overlap) ready = std::max(ready, last_done_);
    const uint64_t free_from = next_start();
    stall_for_descriptor(item, free_from);
    current_ = item;
    mover_.begin(
        {d.src, d.dst, d.length, item.index, item.chunk, (d.flags & DMA_DESC_DEBURST) != 0}, dir,
        launched(ready));
    // In read order, the next fetch goes when its address is known (the
    // walker's own ready cycle), before this descriptor's first data read.
    // Otherwise the descriptor leaves the FIFO, and makes room for the next
    // fetch, when the mover takes it: once both it and the mover are ready.
    if (params_.fetch_in_read_order)
        walker_.refill(0, false, mover_.frontier());
    else
        walker_.refill(std::max(ready, free_from), false);
    return true;
}

// A serial mover launches each descriptor after the previous one's end
// (or START): its first read issues descriptor_launch_cycles after that,
// if the descriptor was there by then. The walker refills from `ready`,
// so the next fetch goes out during the launch, before that read.
uint64_t DmaChannel::launched(uint64_t ready) {
    const uint64_t launch = last_done_ + params_.descriptor_launch_cycles;
    if (params_.data_overlap || launch <= ready) return ready;
    tracks_.stall(Cause::setup, ready, launch);
    return launch;
}

// The mover, free at `from`, waits for the item: its decode (and the
// decodes queued before it), its fetch, and before the fetch was issued,
// the chain link that led to it or the fetches ahead of it. Booked
// whatever the read then meets on the bus: the mover had nothing to do,
// and cycles the bus spends on data outrank every stall anyway.
void DmaChannel::stall_for_descriptor(const WalkItem& item, uint64_t from) {
    const uint64_t to = item.ready;
    if (to <= from) return;
    auto within = [&](uint64_t t) { return std::clamp(t, from, to); };
    const uint64_t fetched = within(item.fetch_done);
    tracks_.stall(Cause::setup, fetched, to);
    const uint64_t link_from = within(std::min(item.link.from, item.fetched));
    const uint64_t link_to = within(std::min(item.link.to, item.fetched));
    tracks_.stall(Cause::descriptor_fetch, from, link_from);
    tracks_.stall(Cause::chain_link, link_from, link_to);
    tracks_.stall(Cause::descriptor_fetch, std::max(link_from, link_to), fetched);
}

// Functional side of the planned bursts: the bytes move now, by DMI. (Where
// the port is not direct, a foreign target or IOVAs that need not be
// consecutive in memory, they moved with the bursts themselves.)
void DmaChannel::copy_bytes(const Slice& s) {
    if (s.bytes == 0 || !params_.move_payload || !port_.direct()) return;
    // Only the addresses the direction uses were checked, so only those
    // become host pointers.
    auto host = [this, &s](uint64_t bus) { return port_.host(bus + s.offset); };
    switch (direction()) {
        case DMA_HW_MEM_TO_MEM:
            std::memmove(host(current_.desc.dst), host(current_.desc.src), s.bytes);
            break;
        case DMA_HW_DEV_TO_MEM:
            device_.produce(host(current_.desc.dst), s.bytes);
            break;
        case DMA_HW_MEM_TO_DEV:
            device_.consume(host(current_.desc.src), s.bytes);
            break;
    }
}

bool DmaChannel::writes_status(uint32_t flags) const {
    switch (params_.status_writeback) {
        case DMA_HW_WB_PER_DESCRIPTOR:
            return true;
        case DMA_HW_WB_IRQ_ONLY:
            return (flags & DMA_DESC_IRQ) != 0;
        case DMA_HW_WB_LAST:
            return (flags & DMA_DESC_END) != 0;
        case DMA_HW_WB_NONE:
            break;
    }
    return false;
}

// A data descriptor is done when its status write-back (one small write
// after its last write response) completes, or at that response if the
// policy writes none for it. The statistics count it now; the completion
// waits in a queue until the mover's writes reach its cycle, so the write
// channel is booked in time order.
void DmaChannel::complete_descriptor() {
    mover_.end_segment();
    const Descriptor& d = current_.desc;
    const dma_hw_layout layout = layout_of(format(), params_);
    bool write = writes_status(d.flags);
    uint64_t at = d.addr + status_offset(layout);
    const bool app = write && direction() == DMA_HW_DEV_TO_MEM && layout.app_words > 0;
    const uint64_t app_addr = d.addr + dma_hw_layout_fields(&layout);
    const uint32_t app_bytes = app ? 4 * layout.app_words : 0;
    writebacks_.push_back({mover_.last_response(), at, d.flags, write, current_.fetched,
                           current_.index, d.length, app_addr, app_bytes});

    stats_.descriptors += 1;
    stats_.bytes += d.length;
    if (!params_.data_overlap) before_write(kNever);  // the next one waits for it
}

void DmaChannel::before_write(uint64_t t) {
    // Every data write asks: most find nothing due.
    if (writebacks_.empty() || writebacks_.front().issue > t) return;
    const uint32_t bytes = status_bytes(layout_of(format(), params_));
    static constexpr uint8_t kZeros[4 * DMA_HW_MAX_APP_WORDS] = {};
    while (!writebacks_.empty() && writebacks_.front().issue <= t) {
        const Writeback& wb = writebacks_.front();
        uint64_t done = wb.issue;
        if (wb.write) {
            // Little-endian: a 16-bit status is the first 2 bytes.
            const uint32_t words[2] = {DMA_DESC_STATUS_DONE, wb.length};
            done = writeback_put(wb.issue, wb.addr, reinterpret_cast<const uint8_t*>(words), bytes);
            if (wb.app_bytes)
                done = std::max(done, writeback_put(wb.issue, wb.app_addr, kZeros, wb.app_bytes));
            // The foreign path's target traces its own transactions.
            const bool foreign = !port_.bus().fast() && !port_.translating();
            if (tracks_.on() && !foreign) {
                TraceArgs args;
                args.address = wb.addr;
                args.bytes = bytes + wb.app_bytes;
                args.descriptor = wb.index;
                tracks_.slice(TraceTrack::writeback, "write-back", wb.issue, done, args);
            }
            if (!foreign) stats_.writeback_cycles_summed += done - wb.issue;
            tracks_.charge(Cause::writeback, wb.issue, done);
        }
        // Descriptors retire in ring order: one whose write-back beat an
        // earlier one's (a translation miss on the earlier) is done, and
        // interrupts, only once all before it are, so DESCS_DONE never
        // stalls behind a reported completion.
        done = std::max(done, last_done_);
        posted_.stamp(done);  // its status shows DONE from then on
        stats_.descriptor_latencies.add(static_cast<uint32_t>(
            std::min<uint64_t>(done - wb.fetched, std::numeric_limits<uint32_t>::max())));
        last_done_ = done;
        unsettled_.push_back({done, wb.length});
        if (wb.flags & DMA_DESC_IRQ) note_irq_completion(done);
        writebacks_.pop_front();
    }
}

// On dmasim's memory the bytes wait in posted_ for the cycle the
// descriptor retires (before_write()), so software never reads DONE early.
// A write-back that fails stops the channel as a descriptor error; those
// after it are not written.
uint64_t DmaChannel::writeback_put(uint64_t issue, uint64_t addr, const uint8_t* from,
                                   uint64_t bytes) {
    if (writeback_fault_ != DMA_ERR_NONE) return issue;  // the channel is stopping
    const PortAccess w = port_.post(issue, addr, bytes, from, Carries::descriptor, posted_);
    if (w.error != DMA_ERR_NONE) {
        writeback_fault_ = w.error;
        writeback_fault_at_ = w.done;
        writeback_fault_iova_ = w.fault_iova;
    }
    return w.done;
}

void DmaChannel::raise_irq(uint64_t at) {
    irqs_.push_back(at + params_.irq_latency_cycles);
    stats_.irq_latency_cycles += params_.irq_latency_cycles;
    stats_.irqs_raised += 1;
}

// PG021's IRQThreshold and IRQDelay: each completion counts down the
// threshold; the delay timer restarts at each completion and, if it
// expires before the next one, raises what is pending. A completion at the
// very cycle the timer expires restarts it.
void DmaChannel::note_irq_completion(uint64_t at) {
    expire_coalesce_timer(at);
    irq_pending_ += 1;
    if (irq_pending_ >= params_.irq_coalesce_count) {
        raise_coalesced(at);
        return;
    }
    if (params_.irq_coalesce_timeout_cycles > 0)
        irq_deadline_ = at + params_.irq_coalesce_timeout_cycles;
}

void DmaChannel::expire_coalesce_timer(uint64_t before) {
    if (irq_pending_ == 0 || irq_deadline_ >= before) return;
    stats_.irqs_by_timeout += 1;
    raise_coalesced(irq_deadline_);
}

void DmaChannel::raise_coalesced(uint64_t at) {
    if (irq_pending_ > 1) stats_.irq_completions_coalesced += irq_pending_ - 1;
    irq_pending_ = 0;
    irq_deadline_ = kNever;
    raise_irq(at);
}

// Stops the channel at `at`, or after its last write-back unless aborted.
void DmaChannel::stop(uint64_t at, dma_hw_error err, uint64_t fault_iova) {
    before_write(kNever);
    if (err == DMA_ERR_NONE) {
        err = writeback_fault_;
        fault_iova = writeback_fault_iova_;
    }
    if (err != DMA_ERR_ABORTED) at = std::max(at, last_done_);
    expire_coalesce_timer(at);
    planning_ = false;
    walker_.halt();
    mover_.end_segment();
    idle_at_ = kNever;
    stop_at_ = at;
    stop_fault_iova_ = fault_iova;
    stop_status_ = err == DMA_ERR_NONE ? DMA_STATUS_DONE
                                       : DMA_STATUS_ERROR | (uint32_t(err) << DMA_STATUS_ERR_SHIFT);
    // The stop interrupt also reports the completions still below the threshold.
    uint64_t end = at;
    if (ctrl & DMA_CTRL_IRQ_EN) {
        raise_coalesced(at);
        end += params_.irq_latency_cycles;
        tracks_.charge(Cause::irq_latency, at, end);
    } else {
        irq_pending_ = 0;
    }
    const CycleAccount account = timeline_.close_span(started_, end);
    for (size_t c = 0; c < kCauses; ++c) stats_.account[c] += account[c];
}

void DmaChannel::go_idle() {
    before_write(kNever);
    if (writeback_fault_ != DMA_ERR_NONE) {
        stop(writeback_fault_at_, writeback_fault_, writeback_fault_iova_);
        return;
    }
    planning_ = false;
    idle_at_ = std::max(last_done_, mover_.frontier());
}

uint64_t DmaChannel::next_event() const {
    uint64_t irq = irqs_.empty() ? kNever : irqs_.front();
    uint64_t timer = irq_pending_ > 0 ? irq_deadline_ : kNever;
    return std::min({stop_at_, irq, timer, idle_at_});
}

DmaChannel::Event DmaChannel::take_event(uint64_t now) {
    settle(now);
    if (irq_pending_ > 0 && irq_deadline_ <= now) {
        // Completions booked up to now may restart the timer first.
        before_write(now);
        expire_coalesce_timer(now + 1);
    }
    if (stop_at_ <= now && (irqs_.empty() || stop_at_ <= irqs_.front())) {
        stop_at_ = kNever;
        status = stop_status_;
        translation_fault = stop_fault_iova_;
        return Event::stop;
    }
    if (!irqs_.empty() && irqs_.front() <= now) {
        irqs_.pop_front();
        return Event::irq;
    }
    if (idle_at_ <= now) {
        idle_at_ = kNever;
        status |= DMA_STATUS_IDLE;
        stats_.tail_idles += 1;
        return Event::idle;
    }
    return Event::none;
}

}  // namespace dmasim::model
