// dram_controller.cc - bank, rank and bus timing of DRAM bursts.
#include "dram_controller.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace dmasim::model {
namespace {

unsigned log2(uint64_t power_of_two) {
    unsigned bits = 0;
    while ((uint64_t{1} << bits) < power_of_two) ++bits;
    return bits;
}

}  // namespace

DramController::DramController(const MemoryParams& params, double clock_mhz)
    : params_(params),
      ratio_(params.data_rate_mts / (2.0 * clock_mhz)),
      burst_bytes_(uint64_t{params.channel_width_bits} / 8 * params.burst_length),
      longest_read_(dram_longest_run(params, false)),
      longest_write_(dram_longest_run(params, true)),
      bits_{log2(std::max(1u, params.columns / params.burst_length)),
            log2(params.channels),
            log2(params.bank_groups),
            log2(params.banks_per_group),
            log2(params.ranks),
            log2(params.rows)} {
    // Fields from the burst index's low bits up: the column first or
    // after the rank.
    unsigned at = 0;
    const auto next = [&at](unsigned bits) { return std::exchange(at, at + bits); };
    const bool row_first = params.mapping == DramMapping::row_bank_column;
    if (row_first) next(bits_.column);
    shifts_.channel = next(bits_.channel);
    shifts_.group = next(bits_.group);
    shifts_.bank = next(bits_.bank);
    shifts_.rank = next(bits_.rank);
    if (!row_first) next(bits_.column);
    shifts_.row = next(bits_.row);
    const auto clocks = [&params](double ns) { return dram_clocks(ns, params.data_rate_mts); };
    const uint64_t faw = clocks(params.t_faw_ns);
    t_ = {params.t_cl_clocks,
          params.t_cwl_clocks,
          clocks(params.t_rcd_ns),
          clocks(params.t_rp_ns),
          clocks(params.t_ras_ns),
          clocks(params.t_rc_ns),
          clocks(params.t_wr_ns),
          clocks(params.t_rtp_ns),
          params.t_ccd_l_clocks,
          clocks(params.t_rrd_l_ns),
          std::max(clocks(params.t_rrd_s_ns), (faw + 3) / 4),
          clocks(params.t_wtr_s_ns),
          clocks(params.t_wtr_l_ns),
          params.t_rtw_clocks,
          params.t_rtrs_clocks,
          params.burst_length / 2u,
          clocks(params.t_refi_ns),
          clocks(params.t_rfc_ns)};
    if (longest_read_ == 0 || longest_write_ == 0)
        throw std::invalid_argument("dram: one burst does not fit between two refreshes");
    channels_.resize(params.channels);
    for (Channel& ch : channels_) {
        ch.ranks.resize(params.ranks);
        for (Rank& r : ch.ranks) {
            r.group_acts.resize(params.bank_groups);
            r.group_cols.resize(params.bank_groups);
            r.group_write_end.resize(params.bank_groups);
        }
        ch.banks.resize(size_t{params.ranks} * params.bank_groups * params.banks_per_group);
        ch.read_leaves.resize(params.read_queue);
        ch.write_done.resize(params.write_queue);
        ch.pending.reserve(params.write_queue);
    }
    // A run holds at most a queue's bursts: these never grow after this.
    run_ends_.reserve(std::max(params.read_queue, params.write_queue));
    run_members_.reserve(params.write_queue);
    stats_.peak_bytes_per_cycle =
        params.channels * (params.channel_width_bits / 8.0) * params.data_rate_mts / clock_mhz;
}

uint64_t DramController::to_clocks(uint64_t cycle) const {
    return static_cast<uint64_t>(std::ceil(static_cast<double>(cycle) * ratio_ - 1e-6));
}

uint64_t DramController::to_cycles(uint64_t clocks) const {
    return static_cast<uint64_t>(std::ceil(static_cast<double>(clocks) / ratio_ - 1e-6));
}

// Each field is a shift and a mask of the burst index (every count is a
// power of two); the constructor lays the shifts out in the mapping's order.
DramController::Place DramController::place(uint64_t n) const {
    const auto field = [n](unsigned shift, unsigned bits) {
        return (n >> shift) & ((uint64_t{1} << bits) - 1);
    };
    Place p{};
    p.channel = static_cast<unsigned>(field(shifts_.channel, bits_.channel));
    p.group = static_cast<unsigned>(field(shifts_.group, bits_.group));
    p.bank = static_cast<unsigned>(field(shifts_.bank, bits_.bank));
    p.rank = static_cast<unsigned>(field(shifts_.rank, bits_.rank));
    p.row = field(shifts_.row, bits_.row);
    return p;
}

uint64_t DramController::after_refresh(uint64_t c) const {
    const uint64_t start = last_refresh(c);
    return start > 0 && c < start + t_.rfc ? start + t_.rfc : c;
}

// Bursts from n on in one row: with row_bank_column a row's bursts are
// consecutive (its column bits are the lowest); otherwise each burst has
// its own bank.
uint64_t DramController::run_length(uint64_t n, uint64_t limit) const {
    if (params_.mapping != DramMapping::row_bank_column) return 1;
    const uint64_t per_row = uint64_t{1} << bits_.column;
    return std::min(limit, per_row - (n & (per_row - 1)));
}

DramController::Timing DramController::read(uint64_t t, uint64_t addr, uint64_t bytes) {
    const uint64_t arrival = to_clocks(t);
    const uint64_t first = addr / burst_bytes_;
    const uint64_t end = (addr + bytes + burst_bytes_ - 1) / burst_bytes_;
    uint64_t data_start = UINT64_MAX, data_end = 0, wait = 0;
    for (uint64_t n = first; n < end;) {
        const Place at = place(n);
        Channel& ch = channels_[at.channel];
        const size_t depth = ch.read_leaves.size();
        const uint64_t count = run_length(n, std::min<uint64_t>({end - n, depth, longest_read_}));
        // A full read queue holds a burst until the one a queue ahead leaves.
        uint64_t c = arrival;
        for (uint64_t i = 0; i < count; ++i)
            c = std::max(c, ch.read_leaves[(ch.reads + i) % depth]);
        const Burst b = access(ch, {at, count, false}, c);
        for (uint64_t i = 0; i < count; ++i)
            ch.read_leaves[(ch.reads + i) % depth] = run_ends_[i] - t_.burst - t_.cl;
        ch.reads += count;
        stats_.reads += count;
        if (n == first) wait = b.ready - c;
        data_start = std::min(data_start, b.data_start);
        data_end = std::max(data_end, b.data_end);
        n += count;
    }
    return {to_cycles(data_start), to_cycles(data_end), to_cycles(wait)};
}

uint64_t DramController::write(uint64_t t, uint64_t addr, uint64_t bytes) {
    uint64_t accepted = t;
    const uint64_t end = (addr + bytes + burst_bytes_ - 1) / burst_bytes_;
    for (uint64_t n = addr / burst_bytes_; n < end; ++n) {
        const Place at = place(n);
        Channel& ch = channels_[at.channel];
        const size_t depth = ch.write_done.size();
        const uint64_t index = ch.writes++;
        // The write a queue back holds this one's slot until it drains;
        // one that row hits kept waiting that long goes now.
        if (!ch.pending.empty() && ch.pending.front().index + depth == index)
            drain_row(ch, 0, to_clocks(accepted), 1);
        accepted = std::max(accepted, ch.write_done[index % depth]);
        ch.pending.push_back({at, index, to_clocks(accepted)});
        if (ch.pending.size() >= params_.write_high_watermark)
            drain(ch, to_clocks(accepted), params_.write_low_watermark);
    }
    return accepted;
}

void DramController::drain(Channel& ch, uint64_t c, size_t leave) {
    while (ch.pending.size() > leave) {
        size_t pick = 0;
        for (size_t i = 0; i < ch.pending.size(); ++i) {
            const Place& at = ch.pending[i].at;
            const Bank& b = bank(ch, at);
            if (b.open && b.row == at.row) {
                pick = i;
                break;
            }
        }
        drain_row(ch, pick, c, ch.pending.size() - leave);
    }
}

// The row's queued writes go as one run; the others keep their order.
void DramController::drain_row(Channel& ch, size_t i, uint64_t c, uint64_t limit) {
    const Place at = ch.pending[i].at;
    run_members_.clear();
    limit = std::min(limit, longest_write_);
    for (size_t j = i; j < ch.pending.size() && run_members_.size() < limit; ++j)
        if (ch.pending[j].at.same_row(at)) run_members_.push_back(j);
    access(ch, {at, run_members_.size(), true}, c);
    const size_t depth = ch.write_done.size();
    for (size_t k = 0; k < run_members_.size(); ++k)
        ch.write_done[ch.pending[run_members_[k]].index % depth] = to_cycles(run_ends_[k]);
    stats_.writes += run_members_.size();
    size_t kept = i, k = 0;
    for (size_t j = i; j < ch.pending.size(); ++j) {
        if (k < run_members_.size() && run_members_[k] == j)
            ++k;
        else
            ch.pending[kept++] = ch.pending[j];
    }
    ch.pending.resize(kept);
}

uint64_t DramController::open_row(Channel& ch, Bank& b, const Place& at, uint64_t c, Attempt& a) {
    Rank& r = ch.ranks[at.rank];
    uint64_t act = std::max(c, b.act_ok);
    b.closing.valid = false;
    if (b.open) {
        const uint64_t pre = std::max(c, b.pre_ok);
        a.first = pre;
        act = std::max(act, pre + t_.rp);
        b.closing = {true, b.row, b.act, b.last_col, pre};
    }
    act = book_spacing(a, r.group_acts[at.group], act, t_.rrd_l);
    act = book_spacing(a, r.acts, act, t_.act_spacing);
    if (!b.open) a.first = act;
    b.open = true;
    b.row = at.row;
    b.act = act;
    b.act_ok = act + t_.rc;
    b.pre_ok = act + t_.ras;
    b.col_ok = act + t_.rcd;
    return b.col_ok;
}

// A run a refresh cuts is taken again after the refresh, as if the cut
// attempt had never been made: its bookings and the bank and bus state it
// changed are taken back. Runs are never longer than fits between two
// refreshes (dram_longest_run), so a retry in a free window fits.
DramController::Burst DramController::access(Channel& ch, const Run& run, uint64_t arrival) {
    uint64_t c = after_refresh(arrival);
    const BeforeAttempt before = before_attempt(ch, run.at);
    Attempt a = attempt(ch, run, c);
    while (cut_by_refresh(a, bank(ch, run.at), c)) {
        take_back(ch, run, a, before);
        c = last_refresh(a.burst.data_end) + t_.rfc;
        a = attempt(ch, run, c);
    }
    // The run's first burst finds the row; the others hit it.
    (a.row == Row::hit    ? stats_.row_hits
     : a.row == Row::miss ? stats_.row_misses
                          : stats_.row_conflicts) += 1;
    stats_.row_hits += run.count - 1;
    if (ch.any && ch.last_was_write != run.write)
        (run.write ? stats_.read_to_write_turnarounds : stats_.write_to_read_turnarounds) += 1;
    ch.any = true;
    ch.last_was_write = run.write;
    stats_.bytes += burst_bytes_ * run.count;
    stats_.refresh_wait_cycles += (c - arrival) * run.count;
    stats_.dram_wait_cycles += (a.burst.ready - arrival) * run.count;
    stats_.data_bus_cycles += t_.burst * run.count;
    stats_.bank_busy_cycles += a.burst.data_end - a.first;
    note_span(ch, a.first, a.burst.data_end);
    first_ = std::min(first_, arrival);
    last_ = std::max(last_, a.burst.data_end);
    settle_due_ = settle_due_ || ch.bus.wants_settle();
    return a.burst;
}

DramController::BeforeAttempt DramController::before_attempt(Channel& ch, const Place& at) {
    const Rank& r = ch.ranks[at.rank];
    return {bank(ch, at),         r.write_end,  r.group_write_end[at.group],
            ch.last_read_command, ch.read_seen, ch.write_seen,
            ch.last_rank};
}

void DramController::take_back(Channel& ch, const Run& run, const Attempt& a,
                               const BeforeAttempt& before) {
    for (unsigned i = 0; i < a.spaced_count; ++i)
        a.spaced[i].on->take_back(a.spaced[i].start, a.spaced[i].clocks, 0);
    for (uint64_t i = 0; i < run.count; ++i) {
        const uint64_t gap = i == 0 ? a.rank_gap : 0;
        ch.bus.take_back(run_ends_[i] - t_.burst - gap, t_.burst + gap, burst_bytes_);
    }
    Rank& r = ch.ranks[run.at.rank];
    bank(ch, run.at) = before.bank;
    r.write_end = before.write_end;
    r.group_write_end[run.at.group] = before.group_write_end;
    ch.last_read_command = before.last_read_command;
    ch.read_seen = before.read_seen;
    ch.write_seen = before.write_seen;
    ch.last_rank = before.last_rank;
}

uint64_t DramController::book_spacing(Attempt& a, Resource& r, uint64_t earliest, uint64_t clocks) {
    const uint64_t start = r.book(earliest, clocks, 0);
    a.spaced[a.spaced_count++] = {&r, start, clocks};
    return start;
}

// The attempt planned at c is cut when a refresh starts after the row its
// hit found was opened (the refresh closed it, though other bookings pushed
// the hit's commands past it) or after its first command (precharge or
// activate), when that command falls inside a refresh's tRFC, or when a
// refresh closed a conflict's open row before its precharge.
bool DramController::cut_by_refresh(const Attempt& a, const Bank& b, uint64_t c) const {
    const uint64_t last = last_refresh(a.burst.data_end);
    if (a.row == Row::hit) return last > std::min(a.first, b.act);
    const uint64_t at_first = last_refresh(a.first);
    return last > a.first || (at_first > 0 && a.first < at_first + t_.rfc) ||
           (a.row == Row::conflict && at_first > c);
}

DramController::Attempt DramController::attempt(Channel& ch, const Run& run, uint64_t c) {
    const Place& at = run.at;
    Bank& b = bank(ch, at);
    // A refresh since the row opened closed it (refresh precharges all
    // banks).
    const uint64_t refreshed = last_refresh(c);
    if (b.open && refreshed > 0 && b.act < refreshed + t_.rfc) {
        b.open = false;
        b.closing.valid = false;
        b.act_ok = std::max(b.act_ok, refreshed + t_.rfc);
    }
    Attempt a{};
    if (b.open && b.row != at.row && before_precharge(ch, b, run, c, &a)) return a;
    a.first = c;
    a.row = b.open ? (b.row == at.row ? Row::hit : Row::conflict) : Row::miss;
    uint64_t ready = a.row == Row::hit ? std::max(c, b.col_ok) : open_row(ch, b, at, c, a);
    ready = after_turnaround(ch, at, ready, run.write);
    const uint64_t command =
        book_spacing(a, ch.ranks[at.rank].group_cols[at.group], ready, t_.ccd_l * run.count);
    const uint64_t data_start = book_data(ch, run, command, a);
    const uint64_t first_command = data_start - (run.write ? t_.cwl : t_.cl);
    if (a.row == Row::hit) a.first = first_command;  // the bank is busy from its command
    note_run(ch, b, run);
    const uint64_t last_command =
        run_ends_[run.count - 1] - t_.burst - (run.write ? t_.cwl : t_.cl);
    b.last_col = a.row == Row::hit ? std::max(b.last_col, last_command) : last_command;
    if (params_.page_policy == PagePolicy::closed) {
        b.open = false;
        b.act_ok = std::max(b.act_ok, b.pre_ok + t_.rp);
    }
    a.burst = {ready, data_start, run_ends_[run.count - 1]};
    return a;
}

namespace {

/// Whether nothing is booked on `r` in [from, to).
bool free_during(const Resource& r, uint64_t from, uint64_t to) {
    return r.busy_before(to) == r.busy_before(from);
}

}  // namespace

// FR-FCFS: the conflict ahead in the queue has booked the precharge that
// closes this run's row; a scheduler holding both serves the row hits
// first. Without moving the booked precharge, the run goes first if its
// commands, data and tRTP or tWR all fit before it; the check reads the
// bookings (rare: only a run to the row being closed gets here).
bool DramController::before_precharge(Channel& ch, Bank& b, const Run& run, uint64_t c,
                                      Attempt* a) {
    const ClosingRow& old = b.closing;
    const bool rank_switch = ch.any && ch.last_rank != run.at.rank && t_.rtrs > 0;
    if (!old.valid || old.row != run.at.row || c >= old.precharge || rank_switch ||
        last_refresh(old.precharge) > old.act)
        return false;
    const uint64_t latency = run.write ? t_.cwl : t_.cl;
    const uint64_t span = t_.ccd_l * run.count;
    const uint64_t command =
        after_turnaround(ch, run.at, std::max(c, old.last_col + t_.ccd_l), run.write);
    const uint64_t last = command + span - t_.ccd_l;
    const uint64_t done = run.write ? last + latency + t_.burst + t_.wr : last + t_.rtp;
    Resource& cols = ch.ranks[run.at.rank].group_cols[run.at.group];
    if (done > old.precharge || !free_during(cols, command, command + span)) return false;
    for (uint64_t i = 0; i < run.count; ++i) {
        const uint64_t data = command + i * t_.ccd_l + latency;
        if (!free_during(ch.bus, data, data + t_.burst)) return false;
    }
    book_spacing(*a, cols, command, span);
    const uint64_t data_start = book_data(ch, run, command, *a);
    note_run(ch, b, run);
    b.closing.last_col = last;
    a->first = command;
    a->row = Row::hit;
    a->burst = {command, data_start, run_ends_[run.count - 1]};
    return true;
}

uint64_t DramController::after_turnaround(const Channel& ch, const Place& at, uint64_t ready,
                                          bool write) {
    // A read waits tWTR after the rank's last write data, a write tRTW
    // after the channel's last read command.
    if (write && ch.read_seen) return std::max(ready, ch.last_read_command + t_.rtw);
    if (!write && ch.write_seen) {
        const Rank& r = ch.ranks[at.rank];
        return std::max({ready, r.write_end + t_.wtr_s, r.group_write_end[at.group] + t_.wtr_l});
    }
    return ready;
}

// Each burst's data follows its column command by tCL or tCWL in the bus's
// first free gap, and the next command of the run comes tCCD_L after the
// one the bus allowed. A burst of another rank than the bus's last leaves
// the bus idle tRTRS before it.
uint64_t DramController::book_data(Channel& ch, const Run& run, uint64_t command, Attempt& a) {
    const uint64_t latency = run.write ? t_.cwl : t_.cl;
    const uint64_t gap = ch.any && ch.last_rank != run.at.rank ? t_.rtrs : 0;
    a.rank_gap = gap;
    run_ends_.resize(run.count);
    uint64_t first = 0;
    for (uint64_t i = 0; i < run.count; ++i) {
        const uint64_t want = command + latency;
        const uint64_t g = i == 0 ? gap : 0;
        const uint64_t start = ch.bus.book(want > g ? want - g : 0, t_.burst + g, burst_bytes_) + g;
        if (i == 0) first = start;
        run_ends_[i] = start + t_.burst;
        command = start - latency + t_.ccd_l;
    }
    ch.last_rank = run.at.rank;
    return first;
}

void DramController::note_run(Channel& ch, Bank& b, const Run& run) {
    Rank& r = ch.ranks[run.at.rank];
    const uint64_t data_end = run_ends_[run.count - 1];
    if (run.write) {
        b.pre_ok = std::max(b.pre_ok, data_end + t_.wr);
        r.write_end = std::max(r.write_end, data_end);
        r.group_write_end[run.at.group] = std::max(r.group_write_end[run.at.group], data_end);
        ch.write_seen = true;
    } else {
        const uint64_t last_command = data_end - t_.burst - t_.cl;
        b.pre_ok = std::max(b.pre_ok, last_command + t_.rtp);
        ch.last_read_command = std::max(ch.last_read_command, last_command);
        ch.read_seen = true;
    }
}

// The union of busy spans, assuming they arrive nearly in time order: a
// span that starts after the current union ends closes it.
void DramController::note_span(Channel& ch, uint64_t from, uint64_t to) {
    if (from <= ch.active_to && ch.active_to > 0) {
        ch.active_from = std::min(ch.active_from, from);
        ch.active_to = std::max(ch.active_to, to);
        return;
    }
    active_settled_ += ch.active_to - ch.active_from;
    ch.active_from = from;
    ch.active_to = to;
}

template <typename Channels, typename Visit>
void DramController::each_resource(Channels& channels, Visit visit) {
    for (auto& ch : channels) {
        visit(ch.bus);
        for (auto& r : ch.ranks) {
            visit(r.acts);
            for (auto& g : r.group_acts) visit(g);
            for (auto& g : r.group_cols) visit(g);
        }
    }
}

// Only the resources with a batch to fold: the rest would only be read.
// Bookings never ask before the cycle given (late_bookings() stays 0), so
// when each resource folds moves no figure.
void DramController::settle(uint64_t now) {
    const uint64_t c = static_cast<uint64_t>(static_cast<double>(now) * ratio_);
    // A burst after another rank's books the bus from tRTRS before its
    // data, which may be before the burst reached the controller.
    const uint64_t before = c > t_.rtrs ? c - t_.rtrs : 0;
    each_resource(channels_, [before](Resource& r) {
        if (r.wants_settle()) r.settle(before);
    });
    settle_due_ = false;
}

uint64_t DramController::late_bookings() const {
    uint64_t late = 0;
    each_resource(channels_, [&late](const Resource& r) { late += r.late_bookings(); });
    return late;
}

DramStats DramController::stats() const {
    DramController idle(*this);
    // Once it has served everything booked: the resources have folded
    // their bookings behind SystemC time, so an earlier drain would find
    // gaps only where they had not been folded yet.
    for (Channel& ch : idle.channels_)
        if (!ch.pending.empty())
            idle.drain(ch, std::max(ch.pending.back().arrival, ch.bus.free_at()), 0);
    return idle.counted();
}

DramStats DramController::counted() const {
    DramStats s = stats_;
    uint64_t active = active_settled_;
    for (const Channel& ch : channels_) active += ch.active_to - ch.active_from;
    const bool any = first_ <= last_;
    if (any && t_.refi) {
        s.refreshes =
            uint64_t{params_.channels} * params_.ranks * (last_ / t_.refi - first_ / t_.refi);
        s.refresh_cycles = to_cycles(s.refreshes * t_.rfc);
    }
    s.refresh_wait_cycles = to_cycles(stats_.refresh_wait_cycles);
    s.dram_wait_cycles = to_cycles(stats_.dram_wait_cycles);
    s.data_bus_cycles = to_cycles(stats_.data_bus_cycles);
    s.bank_busy_cycles = to_cycles(stats_.bank_busy_cycles);
    s.active_cycles = to_cycles(active);
    s.span_cycles = any ? to_cycles(last_ - first_) : 0;
    return s;
}

void DramController::reset_stats() {
    const double peak = stats_.peak_bytes_per_cycle;
    stats_ = {};
    stats_.peak_bytes_per_cycle = peak;
    first_ = UINT64_MAX;
    last_ = 0;
    active_settled_ = 0;
    for (Channel& ch : channels_) ch.active_from = ch.active_to = 0;
}

}  // namespace dmasim::model
