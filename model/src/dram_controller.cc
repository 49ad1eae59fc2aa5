// dram_controller.cc - bank, rank and bus timing of DRAM bursts.
#include "dram_controller.h"

#include <algorithm>
#include <cmath>

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
      tck_ns_(2000.0 / params.data_rate_mts),
      burst_bytes_(uint64_t{params.channel_width_bits} / 8 * params.burst_length),
      bits_{log2(std::max(1u, params.columns / params.burst_length)),
            log2(params.channels),
            log2(params.bank_groups),
            log2(params.banks_per_group),
            log2(params.ranks),
            log2(params.rows)} {
    const uint64_t faw = clocks_of(params.t_faw_ns);
    t_ = {params.t_cl_clocks,           params.t_cwl_clocks,
          clocks_of(params.t_rcd_ns),   clocks_of(params.t_rp_ns),
          clocks_of(params.t_ras_ns),   clocks_of(params.t_rc_ns),
          clocks_of(params.t_wr_ns),    params.t_ccd_l_clocks,
          clocks_of(params.t_rrd_l_ns), std::max(clocks_of(params.t_rrd_s_ns), (faw + 3) / 4),
          clocks_of(params.t_wtr_s_ns), clocks_of(params.t_wtr_l_ns),
          params.t_rtw_clocks,          params.burst_length / 2u,
          clocks_of(params.t_refi_ns),  clocks_of(params.t_rfc_ns)};
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
        ch.pending_slot.reserve(params.write_queue);
    }
    stats_.peak_bytes_per_cycle =
        params.channels * (params.channel_width_bits / 8.0) * params.data_rate_mts / clock_mhz;
}

uint64_t DramController::clocks_of(double ns) const {
    // JEDEC rounds a time up to whole clocks; the guard keeps an exact
    // multiple (13.75 ns at 0.625 ns) from rounding up on a last bit.
    return ns <= 0 ? 0 : static_cast<uint64_t>(std::ceil(ns / tck_ns_ - 0.01));
}

uint64_t DramController::to_clocks(uint64_t cycle) const {
    return static_cast<uint64_t>(std::ceil(static_cast<double>(cycle) * ratio_ - 1e-6));
}

uint64_t DramController::to_cycles(uint64_t clocks) const {
    return static_cast<uint64_t>(std::ceil(static_cast<double>(clocks) / ratio_ - 1e-6));
}

// Peels the burst index's fields off from the lowest bits up, in the
// mapping's order (every count is a power of two: a shift and a mask).
DramController::Place DramController::place(uint64_t n) const {
    auto take = [&n](unsigned bits) {
        const uint64_t v = n & ((uint64_t{1} << bits) - 1);
        n >>= bits;
        return v;
    };
    const Bits& b = bits_;
    Place p{};
    const bool row_first = params_.mapping == DramMapping::row_bank_column;
    if (row_first) take(b.column);
    p.channel = static_cast<unsigned>(take(b.channel));
    p.group = static_cast<unsigned>(take(b.group));
    p.bank = static_cast<unsigned>(take(b.bank));
    p.rank = static_cast<unsigned>(take(b.rank));
    if (!row_first) take(b.column);
    p.row = take(b.row);
    return p;
}

uint64_t DramController::after_refresh(uint64_t c) const {
    const uint64_t start = last_refresh(c);
    return start > 0 && c < start + t_.rfc ? start + t_.rfc : c;
}

DramController::Timing DramController::read(uint64_t t, uint64_t addr, uint64_t bytes) {
    Timing out{UINT64_MAX, 0, 0};
    const uint64_t arrival = to_clocks(t);
    const uint64_t first = addr / burst_bytes_;
    for (uint64_t n = first; n * burst_bytes_ < addr + bytes; ++n) {
        const Place at = place(n);
        Channel& ch = channels_[at.channel];
        // A full read queue holds the burst until the one a queue ahead leaves.
        uint64_t& leave = ch.read_leaves[ch.reads++ % ch.read_leaves.size()];
        const uint64_t c = std::max(arrival, leave);
        const Burst b = access(ch, at, c, false);
        leave = b.data_start - t_.cl;
        stats_.reads += 1;
        out.data_start = std::min(out.data_start, to_cycles(b.data_start));
        out.data_end = std::max(out.data_end, to_cycles(b.data_end));
        if (n == first) out.dram_wait = to_cycles(b.ready - c);
    }
    return out;
}

uint64_t DramController::write(uint64_t t, uint64_t addr, uint64_t bytes) {
    uint64_t accepted = t;
    for (uint64_t n = addr / burst_bytes_; n * burst_bytes_ < addr + bytes; ++n) {
        const Place at = place(n);
        Channel& ch = channels_[at.channel];
        // Fewer writes than the queue holds are pending (a drain starts at
        // the high watermark), so the slot a queue back has drained.
        const uint64_t slot = ch.writes++ % ch.write_done.size();
        accepted = std::max(accepted, ch.write_done[slot]);
        ch.pending.push_back(at);
        ch.pending_slot.push_back(slot);
        if (ch.pending.size() >= params_.write_high_watermark)
            drain(ch, to_clocks(accepted), params_.write_low_watermark);
    }
    return accepted;
}

// The oldest writes go out back to back from cycle c until `leave` remain.
void DramController::drain(Channel& ch, uint64_t c, unsigned leave) {
    const size_t n = ch.pending.size() - leave;
    for (size_t i = 0; i < n; ++i) {
        const Burst b = access(ch, ch.pending[i], c, true);
        ch.write_done[ch.pending_slot[i]] = to_cycles(b.data_end);
        stats_.writes += 1;
    }
    ch.pending.erase(ch.pending.begin(), ch.pending.begin() + static_cast<ptrdiff_t>(n));
    ch.pending_slot.erase(ch.pending_slot.begin(),
                          ch.pending_slot.begin() + static_cast<ptrdiff_t>(n));
}

uint64_t DramController::open_row(Channel& ch, Bank& b, const Place& at, uint64_t c,
                                  uint64_t* first) {
    Rank& r = ch.ranks[at.rank];
    uint64_t act = std::max(c, b.act_ok);
    if (b.open) {
        const uint64_t pre = std::max(c, b.pre_ok);
        *first = pre;
        act = std::max(act, pre + t_.rp);
    }
    act = r.group_acts[at.group].book(act, t_.rrd_l, 0);
    act = r.acts.book(act, t_.act_spacing, 0);
    if (!b.open) *first = act;
    b.open = true;
    b.row = at.row;
    b.act = act;
    b.act_ok = act + t_.rc;
    b.pre_ok = act + t_.ras;
    return act + t_.rcd;
}

// A burst whose commands or data would cross the start of a refresh is
// taken again after the refresh, which closed its row (the slots the cut
// attempt booked stay booked).
DramController::Burst DramController::access(Channel& ch, const Place& at, uint64_t arrival,
                                             bool write) {
    uint64_t c = after_refresh(arrival);
    Attempt a = attempt(ch, at, c, write);
    for (uint64_t s; (s = last_refresh(a.burst.data_end)) > a.first;) {
        c = s + t_.rfc;
        a = attempt(ch, at, c, write);
    }
    (a.row == Row::hit    ? stats_.row_hits
     : a.row == Row::miss ? stats_.row_misses
                          : stats_.row_conflicts) += 1;
    if (ch.any && ch.last_was_write != write)
        (write ? stats_.read_to_write_turnarounds : stats_.write_to_read_turnarounds) += 1;
    ch.any = true;
    ch.last_was_write = write;
    stats_.bytes += burst_bytes_;
    stats_.refresh_wait_cycles += c - arrival;
    stats_.dram_wait_cycles += a.burst.ready - arrival;
    stats_.data_bus_cycles += t_.burst;
    stats_.bank_busy_cycles += a.burst.data_end - a.first;
    note_span(ch, a.first, a.burst.data_end);
    first_ = std::min(first_, arrival);
    last_ = std::max(last_, a.burst.data_end);
    return a.burst;
}

DramController::Attempt DramController::attempt(Channel& ch, const Place& at, uint64_t c,
                                                bool write) {
    Rank& r = ch.ranks[at.rank];
    Bank& b =
        ch.banks[(size_t{at.rank} * params_.bank_groups + at.group) * params_.banks_per_group +
                 at.bank];
    // A refresh since the row opened closed it (refresh precharges all banks).
    const uint64_t refreshed = last_refresh(c);
    if (b.open && refreshed > b.act) {
        b.open = false;
        b.act_ok = std::max(b.act_ok, refreshed + t_.rfc);
    }
    Attempt a{};
    a.first = c;
    a.row = b.open ? (b.row == at.row ? Row::hit : Row::conflict) : Row::miss;
    uint64_t ready = a.row == Row::hit ? c : open_row(ch, b, at, c, &a.first);
    // The bus turns around: a read waits tWTR after the rank's last write
    // data, a write tRTW after the channel's last read command.
    if (write && ch.read_seen) ready = std::max(ready, ch.last_read_command + t_.rtw);
    if (!write && ch.write_seen)
        ready = std::max({ready, r.write_end + t_.wtr_s, r.group_write_end[at.group] + t_.wtr_l});
    uint64_t command = r.group_cols[at.group].book(ready, t_.ccd_l, 0);
    const uint64_t latency = write ? t_.cwl : t_.cl;
    const uint64_t data_start = ch.bus.book(command + latency, t_.burst, burst_bytes_);
    command = data_start - latency;
    if (a.row == Row::hit) a.first = command;  // the bank is busy from its command
    const uint64_t data_end = data_start + t_.burst;
    if (write) {
        b.pre_ok = std::max(b.pre_ok, data_end + t_.wr);
        r.write_end = std::max(r.write_end, data_end);
        r.group_write_end[at.group] = std::max(r.group_write_end[at.group], data_end);
        ch.write_seen = true;
    } else {
        // Read to precharge (tRTP) is taken as the burst's own length.
        b.pre_ok = std::max(b.pre_ok, command + t_.burst);
        ch.last_read_command = std::max(ch.last_read_command, command);
        ch.read_seen = true;
    }
    if (params_.page_policy == PagePolicy::closed) {
        b.open = false;
        b.act_ok = std::max(b.act_ok, b.pre_ok + t_.rp);
    }
    a.burst = {ready, data_start, data_end};
    return a;
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

bool DramController::wants_settle() const {
    for (const Channel& ch : channels_)
        if (ch.bus.wants_settle()) return true;
    return false;
}

void DramController::settle(uint64_t now) {
    const uint64_t c = static_cast<uint64_t>(static_cast<double>(now) * ratio_);
    for (Channel& ch : channels_) {
        ch.bus.settle(c);
        for (Rank& r : ch.ranks) {
            r.acts.settle(c);
            for (Resource& g : r.group_acts) g.settle(c);
            for (Resource& g : r.group_cols) g.settle(c);
        }
    }
}

DramStats DramController::stats() const {
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
