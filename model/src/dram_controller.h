// dram_controller.h - memory.kind dram: the DRAM behind the memory port,
// booked arithmetically once per run of same-row DRAM bursts
// (docs/memory.md).
//
// Each channel has a read queue, a write queue drained by watermarks, a
// data bus and its ranks' banks. A burst's column command waits for its
// bank (precharge tRP, activate tRCD, tRAS, tRC, write recovery tWR, read
// to precharge tRTP), the rank's activate spacing (tRRD_S/L, tFAW), its
// bank group's column spacing (tCCD_L), the bus turning around (tWTR_S/L,
// tRTW, tRTRS between ranks) and refresh (every tREFI the rank is blocked
// for tRFC and its rows close); then its data holds the channel's bus for
// tBURST, tCL (read) or tCWL (write) after the command. Times are kept in
// DRAM clocks and given to the platform in its own cycles.
//
// Scheduling is FR-FCFS within each queue's depth: a drain serves the
// queued writes that hit an open row first, then the oldest; a burst that
// reaches its queue while a conflict ahead of it still waits to precharge
// the burst's row is served from that row first when it fits before the
// precharge. What stays approximate (docs/memory.md says why): a read is
// answered when it is planned, so it never delays a precharge already
// booked; first-ready across banks is the bus, activate and column spacing
// filling gaps (Resource); tFAW is a spacing of tFAW / 4 between a rank's
// activates (exact in steady state).
#pragma once

#include <dmasim/model/params.h>

#include <array>
#include <cstdint>
#include <vector>

#include "dram_timing.h"
#include "resource.h"

namespace dmasim::model {

class DramController {
public:
    DramController(const MemoryParams& params, double clock_mhz);

    /// Where a read's bytes are on the DRAM buses, in platform cycles, and
    /// how long its first burst waited on DRAM timing beyond a row hit.
    struct Timing {
        uint64_t data_start;
        uint64_t data_end;
        uint64_t dram_wait;
    };
    /// Books a read of [addr, addr + bytes) that reaches the controller at cycle t.
    Timing read(uint64_t t, uint64_t addr, uint64_t bytes);
    /// Queues a write of [addr, addr + bytes) whose data is in at cycle t;
    /// returns when the write queue took it (later if it was full).
    uint64_t write(uint64_t t, uint64_t addr, uint64_t bytes);
    /// Platform cycles from a read command to its data on an open row (tCL).
    uint64_t hit_latency() const { return to_cycles(t_.cl); }
    /// Whether enough bookings are listed that settle() is worth its cost:
    /// a channel's bus has a batch to fold (asked on every request, so
    /// kept as the accesses book, not found by a look at every channel).
    bool wants_settle() const { return settle_due_; }
    /// Forgets bookings that ended before platform cycle `now`, which no
    /// later request asks before.
    void settle(uint64_t now);
    /// Resource::late_bookings() of every bus, activate and column spacing.
    uint64_t late_bookings() const;
    /// The counters, with the writes still queued drained as an idle DRAM
    /// would drain them, after every burst booked on their channel (the
    /// controller itself keeps them queued).
    DramStats stats() const;
    void reset_stats();

private:
    /// The timings in DRAM clocks.
    struct Clocks {
        uint64_t cl, cwl, rcd, rp, ras, rc, wr, rtp, ccd_l, rrd_l, act_spacing, wtr_s, wtr_l, rtw,
            rtrs, burst, refi, rfc;
    };
    struct Place {
        unsigned channel, rank, group, bank;
        uint64_t row;
        bool same_row(const Place& o) const {
            return row == o.row && bank == o.bank && group == o.group && rank == o.rank;
        }
    };
    /// A row a conflict is about to close: bursts that reach the queue
    /// before its precharge may still be served from it.
    struct ClosingRow {
        bool valid = false;
        uint64_t row = 0;
        uint64_t act = 0;        ///< its activate
        uint64_t last_col = 0;   ///< its last column command
        uint64_t precharge = 0;  ///< the precharge that closes it
    };
    struct Bank {
        bool open = false;
        uint64_t row = 0;
        uint64_t act = 0;       ///< last activate
        uint64_t act_ok = 0;    ///< earliest next activate (tRP, tRC)
        uint64_t pre_ok = 0;    ///< earliest precharge (tRAS, tWR, tRTP)
        uint64_t col_ok = 0;    ///< earliest column command to the open row (tRCD)
        uint64_t last_col = 0;  ///< last column command to the open row
        ClosingRow closing;
    };
    struct Rank {
        Resource acts;                     ///< tRRD_S and tFAW spacing
        std::vector<Resource> group_acts;  ///< tRRD_L spacing per bank group
        std::vector<Resource> group_cols;  ///< tCCD_L spacing per bank group
        uint64_t write_end = 0;            ///< last write data, any group
        std::vector<uint64_t> group_write_end;
    };
    struct QueuedWrite {
        Place at;
        uint64_t index;    ///< bursts written before it on the channel (its ring slot)
        uint64_t arrival;  ///< DRAM clock it entered the queue
    };
    struct Channel {
        Resource bus;
        std::vector<Rank> ranks;
        std::vector<Bank> banks;
        std::vector<uint64_t> read_leaves;  ///< ring: each read's column command
        std::vector<uint64_t> write_done;   ///< ring: each write's last data, platform cycles
        std::vector<QueuedWrite> pending;   ///< queued writes not yet drained, oldest first
        uint64_t reads = 0, writes = 0;     ///< bursts ever queued (ring positions)
        uint64_t last_read_command = 0;
        bool read_seen = false, write_seen = false;
        bool any = false, last_was_write = false;
        unsigned last_rank = 0;                   ///< of the last burst booked on the bus
        uint64_t active_from = 0, active_to = 0;  ///< current union of busy spans
    };
    /// A run of bursts to one row, in DRAM clocks.
    struct Run {
        Place at;
        uint64_t count;
        bool write;
    };
    /// A run's outcome in DRAM clocks; each burst's data end is in run_ends_.
    struct Burst {
        uint64_t ready;  ///< earliest first column command by DRAM timing
        uint64_t data_start, data_end;
    };

    enum class Row { hit, miss, conflict };
    /// A spacing an attempt booked (activate or column), to take back.
    struct Spaced {
        Resource* on;
        uint64_t start, clocks;
    };
    /// One try at a run from DRAM clock c, which no refresh holds.
    struct Attempt {
        Burst burst;
        uint64_t first;  ///< its first command
        Row row;
        /// What it booked: these spacings (at most a row's two activate
        /// spacings and the run's column spacing), and each burst on the
        /// bus (run_ends_), the first one `rank_gap` (tRTRS) earlier.
        std::array<Spaced, 3> spaced;
        unsigned spaced_count;
        uint64_t rank_gap;
    };
    /// What an attempt changes besides its bookings: restored, with the
    /// bookings taken back, when a refresh cuts it.
    struct BeforeAttempt {
        Bank bank;
        uint64_t write_end, group_write_end, last_read_command;
        bool read_seen, write_seen;
        unsigned last_rank;
    };
    BeforeAttempt before_attempt(Channel& ch, const Place& at);
    /// Undoes the attempt `a` at `run`: it never happened.
    void take_back(Channel& ch, const Run& run, const Attempt& a, const BeforeAttempt& before);
    /// Books a spacing of `clocks` on `r` for the attempt `a`.
    uint64_t book_spacing(Attempt& a, Resource& r, uint64_t earliest, uint64_t clocks);

    /// Where the burst_index-th burst of the address space lies.
    Place place(uint64_t burst_index) const;
    /// Bursts from index n on that share its row, at most `limit`.
    uint64_t run_length(uint64_t n, uint64_t limit) const;
    Bank& bank(Channel& ch, const Place& at) {
        return ch
            .banks[(size_t{at.rank} * params_.bank_groups + at.group) * params_.banks_per_group +
                   at.bank];
    }
    /// Books a run that reaches its bank's queue at DRAM clock `arrival`.
    Burst access(Channel& ch, const Run& run, uint64_t arrival);
    Attempt attempt(Channel& ch, const Run& run, uint64_t c);
    /// Whether a refresh cut the attempt `a` made at `c` on bank `b`.
    bool cut_by_refresh(const Attempt& a, const Bank& b, uint64_t c) const;
    /// The run served from the row a queued conflict is closing, if it
    /// fits before that precharge; false (nothing booked) otherwise.
    bool before_precharge(Channel& ch, Bank& b, const Run& run, uint64_t c, Attempt* a);
    /// Opens `at`'s row in bank `b` no earlier than c for the attempt `a`:
    /// returns the earliest column command and sets a.first to the first
    /// command.
    uint64_t open_row(Channel& ch, Bank& b, const Place& at, uint64_t c, Attempt& a);
    /// The earliest column command at or after `ready` the bus turnarounds allow.
    uint64_t after_turnaround(const Channel& ch, const Place& at, uint64_t ready, bool write);
    /// Books the run's data on the bus from its first column command for
    /// the attempt `a`; returns the first data clock, fills run_ends_.
    uint64_t book_data(Channel& ch, const Run& run, uint64_t command, Attempt& a);
    /// Bank, rank and channel state after a run's data is booked.
    void note_run(Channel& ch, Bank& b, const Run& run);
    /// Drains queued writes, row hits first then the oldest, from DRAM
    /// clock c until `leave` remain.
    void drain(Channel& ch, uint64_t c, size_t leave);
    /// Drains queued writes to pending[i]'s row, pending[i] first, at most `limit`.
    void drain_row(Channel& ch, size_t i, uint64_t c, uint64_t limit);
    /// c, or the end of the refresh it falls in.
    uint64_t after_refresh(uint64_t c) const;
    /// Start of the last refresh at or before c (0: none yet).
    uint64_t last_refresh(uint64_t c) const { return t_.refi ? c / t_.refi * t_.refi : 0; }
    void note_span(Channel& ch, uint64_t from, uint64_t to);
    /// Calls visit(resource) on every bus, activate and column spacing.
    template <typename Channels, typename Visit>
    static void each_resource(Channels& channels, Visit visit);
    DramStats counted() const;
    uint64_t to_clocks(uint64_t cycle) const;   ///< first DRAM clock at or after a cycle
    uint64_t to_cycles(uint64_t clocks) const;  ///< first cycle at or after a DRAM clock

    MemoryParams params_;
    double ratio_;  ///< DRAM clocks per platform cycle
    Clocks t_;
    uint64_t burst_bytes_;
    /// Bursts a run may hold so that it fits between two refreshes: a
    /// longer run is served as several (dram_longest_run).
    uint64_t longest_read_, longest_write_;
    /// Address bits of each field (memory.* counts are powers of two).
    struct Bits {
        unsigned column, channel, group, bank, rank, row;
    } bits_;
    Bits shifts_;  ///< where each field starts in a burst's index (memory.mapping)
    std::vector<Channel> channels_;
    std::vector<uint64_t> run_ends_;   ///< each burst's data end of the last run booked
    std::vector<size_t> run_members_;  ///< scratch: pending writes of one drained row
    DramStats stats_;
    uint64_t first_ = UINT64_MAX, last_ = 0;  ///< DRAM clocks of the activity
    uint64_t active_settled_ = 0;             ///< closed union spans, summed
    bool settle_due_ = false;                 ///< some channel's bus wants settle()
};

}  // namespace dmasim::model
