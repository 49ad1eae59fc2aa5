// data_mover.cc - burst issue and completion times.
#include "data_mover.h"

#include <algorithm>
#include <stdexcept>

#include "burst.h"

namespace dmasim::model {

namespace {

// A device's timing within the bounds the engine relies on (stream_device.h):
// nothing moves before it is asked for, nor finishes before it starts.
StreamTiming bounded(StreamTiming d, uint64_t asked) {
    d.data_start = std::max(d.data_start, asked);
    d.done = std::max(d.done, d.data_start);
    return d;
}

}  // namespace

DataMover::DataMover(const DmaParams& params, MasterPort& port, StreamDevice& device,
                     ChannelStats& stats, const ChannelTracks& tracks, WriteGate& gate)
    : params_(params),
      port_(port),
      device_(device),
      stats_(stats),
      tracks_(tracks),
      gate_(gate),
      buffer_(params.buffer_bytes),
      sources_(64),
      sinks_(64),
      reads_(params.max_outstanding_reads),
      writes_(params.max_outstanding_writes) {}

void DataMover::reset(uint64_t now) {
    active_ = false;
    // A foreign target's transactions carry bytes even in a timing-only run.
    staging_ = !port_.direct() && (params_.move_payload || !port_.bus().fast());
    ready_ = now;
    r_stream_ = w_stream_ = 0;
    sources_.clear();
    sinks_.clear();
    reads_.reset();
    writes_.reset();
    read_ends_.clear();
    written_.clear();
    last_read_issue_ = last_write_issue_ = now;
    covered_ = now;
    blocked_until_ = now;
    granted_ = 0;
    staged_.clear();
    staged_head_ = 0;
    fault_ = DMA_ERR_NONE;
    held_ = {};
}

void DataMover::begin(const Segment& seg, dma_hw_direction dir, uint64_t ready) {
    seg_ = seg;
    dir_ = dir;
    ready_ = ready;
    r_done_ = w_done_ = 0;
    seg_response_ = ready;
    active_ = true;
}

Slice DataMover::advance(uint64_t horizon, uint64_t max_reads) {
    uint64_t before = w_done_;
    uint64_t reads = 0;
    while (w_done_ < seg_.length) {
        // A read waiting on the responses of writes not yet planned lets
        // them be planned first, as it waits on buffer space.
        bool read_fits = r_done_ < seg_.length &&
                         space_wanted(next_read_bytes()) <= w_stream_ + buffer_ &&
                         pipeline_wait_end() <= w_stream_;
        if (read_fits) {
            if (reads == max_reads || !plan_read(horizon)) break;
            ++reads;
        } else if (!plan_write()) {
            break;
        }
    }
    return {before, w_done_ - before};
}

// Memory-side bursts follow bus addresses; the device side is cut the same
// way along the segment's own offsets.
uint64_t DataMover::next_read_bytes() const {
    uint64_t base = dir_ == DMA_HW_DEV_TO_MEM ? 0 : seg_.src;
    uint64_t at = base + r_done_;
    return burst_end(at, base + seg_.length, port_.bus().width, max_beats()) - at;
}

// With read_refill_bytes = R the engine waits until R bytes of the buffer
// are free and then reads into all of them: a read of n bytes beyond the
// space already granted asks for max(n, R) more. R = 0 asks for n, so each
// read waits only for its own space.
uint64_t DataMover::space_wanted(uint64_t n) const {
    if (r_stream_ + n <= granted_) return granted_;
    return r_stream_ + std::max<uint64_t>(n, params_.read_refill_bytes);
}

uint64_t DataMover::release_time(uint64_t stream_offset) {
    while (sinks_.front().end < stream_offset) sinks_.pop_front();
    return sinks_.front().release;
}

uint64_t DataMover::pipeline_wait_end() const {
    const unsigned m = params_.max_bursts_in_flight;
    return m > 0 && read_ends_.size() == m ? read_ends_.front() : 0;
}

uint64_t DataMover::writes_through(uint64_t end) {
    while (written_.front().end < end) written_.pop_front();
    return written_.front().response;
}

bool DataMover::plan_read(uint64_t horizon) {
    uint64_t n = next_read_bytes();
    // The read side is free from `free_at`; a slot or buffer space may hold it longer.
    const uint64_t free_at = std::max(ready_, last_read_issue_);
    const uint64_t wait_end = pipeline_wait_end();
    const uint64_t slot =
        std::max(reads_.limit_free(), wait_end > 0 ? writes_through(wait_end) : 0);
    uint64_t wanted = space_wanted(n);
    const uint64_t space = wanted > buffer_ ? release_time(wanted - buffer_) : 0;
    uint64_t t = std::max({free_at, slot, space});
    if (t > horizon) {
        blocked_until_ = t;
        return false;
    }
    hold(slot >= space ? Cause::outstanding_limit : Cause::buffer_space, free_at, t, false);

    uint64_t data_start, done;
    if (dir_ == DMA_HW_DEV_TO_MEM) {
        StreamTiming d = bounded(device_.pull(t, n), t);
        data_start = d.data_start;
        done = d.done;
        account_burst(false, t, data_start, done, done - data_start, UINT64_MAX, 0);
        if (staging_) device_.produce(stage(n), n);
    } else {
        const uint64_t addr = seg_.src + r_done_;
        const PortAccess r = port_.read(t, addr, n, staging_ ? stage(n) : nullptr, Carries::data);
        if (r.error != DMA_ERR_NONE) return fail(r);
        hold(Cause::iommu, t, r.issue, false);  // waiting for its translation
        t = r.issue;
        data_start = r.data;
        done = r.done;
        const BusPort& bus = port_.bus();
        account_burst(false, t, data_start, done, beats_of(addr, n, bus.width),
                      bus.idle_read_cycles(), r.dram_wait);
    }
    stats_.max_reads_in_flight = std::max(stats_.max_reads_in_flight, reads_.in_flight_at(t) + 1);
    reads_.issue(done);
    r_done_ += n;
    r_stream_ += n;
    sources_.push_back({r_stream_, data_start, done});
    if (params_.max_bursts_in_flight > 0) {
        if (read_ends_.size() == params_.max_bursts_in_flight) read_ends_.pop_front();
        read_ends_.push_back(r_stream_);
    }
    last_read_issue_ = t;
    granted_ = wanted;
    stats_.read_bursts += 1;
    auto& m = stats_.milestones;
    if (m.read == m.kNever && m.fetch != m.kNever) {
        m.read = t;
        stats_.fetch_to_read_cycles = t - m.fetch;
    }
    cover(t, done);
    if (tracks_.on()) {
        trace_burst(TraceTrack::read, seg_.src + r_done_ - n, n, t, done);
        tracks_.counter(TraceCounter::reads_in_flight, t, +1);
        tracks_.counter(TraceCounter::reads_in_flight, done, -1);
        tracks_.counter(TraceCounter::buffer_bytes, done, static_cast<int64_t>(n));
    }
    return true;
}

// Writes of stream data (dev_to_mem, S2MM) may have their own policy and
// a latency of their own on top of every write's (docs/timing-model.md,
// "Write issue").
WritePolicy DataMover::write_policy() const {
    if (dir_ != DMA_HW_DEV_TO_MEM) return params_.write_policy;
    switch (params_.stream_write_policy) {
        case StreamWritePolicy::cut_through:
            return WritePolicy::cut_through;
        case StreamWritePolicy::store_and_forward:
            return WritePolicy::store_and_forward;
        case StreamWritePolicy::same:
            break;
    }
    return params_.write_policy;
}

// A cut-through write may start `beats` before its last byte arrives, as
// its own beats then cannot overtake the read beats (one per cycle on
// either side); where the sink is not the bus (a device), plan_write holds
// the burst's end to last_in instead.
DataMover::WriteData DataMover::write_data(uint64_t first, uint64_t last, uint64_t beats,
                                           bool segment_end) {
    while (sources_.front().end <= first) sources_.pop_front();
    size_t i = 0;
    while (sources_.at(i).end <= last) ++i;
    const uint64_t first_in = sources_.front().data_start + 1;
    const uint64_t last_in = sources_.at(i).done;
    const uint64_t latency = params_.write_issue_latency_cycles +
                             (dir_ == DMA_HW_DEV_TO_MEM ? params_.stream_write_latency_cycles : 0);
    const uint64_t issue = write_policy() == WritePolicy::store_and_forward
                               ? last_in
                               : std::max(first_in, last_in > beats ? last_in - beats : 0);
    return {first_in, last_in, std::max(issue, next_word_in(i, last, segment_end)) + latency};
}

// The word after a burst's last byte, for an engine whose writes wait for
// it: in the same read burst it comes with that burst, which the policy
// already waits for; in the next one, at that read's first beat. A next
// read not yet issued (the buffer full until this write drains) is not
// waited for.
uint64_t DataMover::next_word_in(size_t source, uint64_t last, bool segment_end) const {
    if (!params_.write_waits_for_next_word || segment_end) return 0;
    if (sources_.at(source).end > last + 1 || source + 1 >= sources_.size()) return 0;
    return sources_.at(source + 1).data_start + 1;
}

bool DataMover::plan_write() {
    uint64_t base = dir_ == DMA_HW_MEM_TO_DEV ? 0 : seg_.dst;
    uint64_t at = base + w_done_;
    uint64_t end = burst_end(at, base + r_done_, port_.bus().width, max_beats());
    uint64_t m = end - at;
    uint64_t beats = beats_of(at, m, port_.bus().width);

    const WriteData data =
        write_data(w_stream_, w_stream_ + m - 1, beats, w_done_ + m == seg_.length);
    const uint64_t free_at = std::max(data.issue, last_write_issue_);
    uint64_t t = std::max(free_at, writes_.limit_free());
    hold(Cause::outstanding_limit, free_at, t, true);

    uint64_t release, response, first_out;
    if (dir_ == DMA_HW_MEM_TO_DEV) {
        // A device faster than the bus still takes each byte only once it
        // has crossed the read channel.
        StreamTiming d = bounded(device_.push(t, m), t);
        d.data_start = std::max(d.data_start, data.first_in);
        d.done = std::max(d.done, data.last_in);
        release = response = d.done;
        first_out = d.data_start;
        account_burst(true, t, d.data_start, d.done, d.done - d.data_start, UINT64_MAX, 0);
        if (staging_) device_.consume(unstage(m), m);
    } else {
        const PortAccess w =
            port_.write(t, at, m, staging_ ? unstage(m) : nullptr, Carries::data, &gate_);
        if (w.error != DMA_ERR_NONE) return fail(w);
        hold(Cause::iommu, t, w.issue, true);  // waiting for its translation
        t = w.issue;
        release = w.data;
        response = w.done;
        // A target of its own timing (foreign path) may answer faster
        // than the bytes came in; they still leave after they arrived.
        release = std::max(release, data.last_in);
        response = std::max(response, release);
        first_out = release > t + beats ? release - beats : t;
        account_burst(true, t, first_out, release, beats, port_.bus().idle_write_cycles(), 0);
        const uint64_t queued = std::min(response, release + w.dram_wait);
        tracks_.charge(Cause::dram, release, queued);
        tracks_.charge(Cause::memory_latency, queued, response);
    }
    stats_.max_writes_in_flight =
        std::max(stats_.max_writes_in_flight, writes_.in_flight_at(t) + 1);
    writes_.issue(response);
    w_done_ += m;
    w_stream_ += m;
    sinks_.push_back({w_stream_, release});
    if (params_.max_bursts_in_flight > 0)
        written_.push_back(
            {w_stream_,
             std::max(response, written_.empty() ? 0 : written_.at(written_.size() - 1).response)});
    last_write_issue_ = t;
    seg_response_ = std::max(seg_response_, response);
    stats_.write_bursts += 1;
    note_data_out(first_out, release);
    cover(t, response);
    if (tracks_.on()) {
        trace_burst(TraceTrack::write, at, m, t, response);
        tracks_.counter(TraceCounter::writes_in_flight, t, +1);
        tracks_.counter(TraceCounter::writes_in_flight, response, -1);
        tracks_.counter(TraceCounter::buffer_bytes, release, -static_cast<int64_t>(m));
        tracks_.counter(TraceCounter::bytes_moved, response, static_cast<int64_t>(m));
    }
    return true;
}

// Foreign path and IOMMU: the bytes travel with the bursts, so they are
// held here, in stream order, between a burst's read and its write. The
// written bytes are dropped from the front only once they outnumber the
// held ones, so each byte is moved a bounded number of times: cost linear
// in bytes whatever buffer_bytes is (issue 28 row 13).
uint8_t* DataMover::stage(uint64_t n) {
    if (staged_head_ > 0 && staged_head_ >= staged_.size() - staged_head_) {
        staged_.erase(staged_.begin(), staged_.begin() + static_cast<ptrdiff_t>(staged_head_));
        staged_head_ = 0;
    }
    staged_.resize(staged_.size() + n);
    return staged_.data() + staged_.size() - n;
}

// Valid until the next stage().
const uint8_t* DataMover::unstage(uint64_t n) {
    const uint8_t* bytes = staged_.data() + staged_head_;
    staged_head_ += n;
    return bytes;
}

bool DataMover::fail(const PortAccess& failed) {
    fault_ = failed.error;
    fault_at_ = failed.done;
    fault_iova_ = failed.fault_iova;
    return false;
}

void DataMover::trace_burst(TraceTrack track, uint64_t addr, uint64_t bytes, uint64_t from,
                            uint64_t to) const {
    TraceArgs args;
    args.address = addr;
    args.bytes = bytes;
    args.beats = beats_of(addr, bytes, port_.bus().width);
    args.descriptor = seg_.descriptor;
    args.chunk = seg_.chunk;
    tracks_.slice(track, track == TraceTrack::read ? "read" : "write", from, to, args);
}

// A burst's cycles by cause (cycle_account.h): of its wait for the first
// beat, the first `lead` cycles are what an idle bus takes anyway (latency)
// and the rest was spent queueing (a read's queue then lines up with the
// beats of the bursts ahead of it, which arrive a latency after they were
// booked); then its beats, and a read's delivery beyond them (a bandwidth
// cap, or the link's rate). Of the queueing, the first `dram` cycles were
// the DRAM's timing (memory.kind dram).
void DataMover::account_burst(bool write, uint64_t issue, uint64_t first, uint64_t end,
                              uint64_t beats, uint64_t lead, uint64_t dram) {
    settle_stalls(write, issue, first, lead);
    const Cause slow = port_.bus().over_link() ? Cause::pcie_link : Cause::bandwidth;
    const uint64_t latency_until = issue + std::min(first - issue, lead);
    const uint64_t dram_until = std::min(first, latency_until + dram);
    tracks_.charge(Cause::memory_latency, issue, latency_until);
    tracks_.charge(Cause::dram, latency_until, dram_until);
    tracks_.charge(slow, dram_until, first);
    const uint64_t beats_end = std::min(end, first + beats);
    tracks_.charge(Cause::data, first, beats_end);
    tracks_.charge(slow, beats_end, end);
}

// The datasheet windows' output events: the first beat out after the first
// data read, and the latest end of a burst's beats.
void DataMover::note_data_out(uint64_t first, uint64_t end) {
    auto& m = stats_.milestones;
    if (m.read == m.kNever) return;
    if (m.out == m.kNever) {
        m.out = first;
        stats_.read_to_out_cycles = first - m.read;
    }
    stats_.data_window_cycles = std::max(stats_.data_window_cycles, end - m.read);
}

void DataMover::hold(Cause cause, uint64_t from, uint64_t to, bool write) {
    Held& h = held_[write];
    if (from < to && h.count < h.stalls.size()) h.stalls[h.count++] = {cause, from, to};
}

void DataMover::settle_stalls(bool write, uint64_t issue, uint64_t first, uint64_t lead) {
    Held& h = held_[write];
    if (first - issue <= lead)
        for (size_t i = 0; i < h.count; ++i)
            tracks_.stall(h.stalls[i].cause, h.stalls[i].from, h.stalls[i].to);
    h.count = 0;
}

void DataMover::cover(uint64_t from, uint64_t to) {
    uint64_t begin = std::max(from, covered_);
    if (to > begin) stats_.data_cycles += to - begin;
    covered_ = std::max(covered_, to);
}

}  // namespace dmasim::model
