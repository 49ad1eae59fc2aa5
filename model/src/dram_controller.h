// dram_controller.h - memory.kind dram: the DRAM behind the memory port,
// booked arithmetically once per DRAM burst (docs/memory.md).
//
// Each channel has a read queue, a write queue drained by watermarks, a
// data bus and its ranks' banks. A burst's column command waits for its
// bank (precharge tRP, activate tRCD, tRAS, tRC, write recovery tWR), the
// rank's activate spacing (tRRD_S/L, tFAW), its bank group's column
// spacing (tCCD_L), the bus turning around (tWTR_S/L, tRTW) and refresh
// (every tREFI the rank is blocked for tRFC and its rows close); then its
// data holds the channel's bus for tBURST, tCL (read) or tCWL (write)
// after the command. Times are kept in DRAM clocks and given to the
// platform in its own cycles.
//
// What is approximate (docs/memory.md says why): a bank serves its bursts
// in arrival order; first-ready scheduling is the bus, activate and column
// spacing filling gaps (Resource), so a burst that is ready earlier passes
// bursts booked before it at other banks; tFAW is a spacing of tFAW / 4
// between a rank's activates (exact in steady state).
#pragma once

#include <dmasim/model/params.h>

#include <cstdint>
#include <vector>

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
    /// Whether enough bookings are listed that settle() is worth its cost.
    bool wants_settle() const;
    /// Forgets bookings that ended before platform cycle `now`, which no
    /// later request asks before.
    void settle(uint64_t now);
    DramStats stats() const;
    void reset_stats();

private:
    /// The timings in DRAM clocks.
    struct Clocks {
        uint64_t cl, cwl, rcd, rp, ras, rc, wr, ccd_l, rrd_l, act_spacing, wtr_s, wtr_l, rtw, burst,
            refi, rfc;
    };
    struct Place {
        unsigned channel, rank, group, bank;
        uint64_t row;
    };
    struct Bank {
        bool open = false;
        uint64_t row = 0;
        uint64_t act = 0;     ///< last activate
        uint64_t act_ok = 0;  ///< earliest next activate (tRP, tRC)
        uint64_t pre_ok = 0;  ///< earliest precharge (tRAS, tWR, read data out)
    };
    struct Rank {
        Resource acts;                     ///< tRRD_S and tFAW spacing
        std::vector<Resource> group_acts;  ///< tRRD_L spacing per bank group
        std::vector<Resource> group_cols;  ///< tCCD_L spacing per bank group
        uint64_t write_end = 0;            ///< last write data, any group
        std::vector<uint64_t> group_write_end;
    };
    struct Channel {
        Resource bus;
        std::vector<Rank> ranks;
        std::vector<Bank> banks;
        std::vector<uint64_t> read_leaves;   ///< ring: each read's column command
        std::vector<uint64_t> write_done;    ///< ring: each write's last data, platform cycles
        std::vector<Place> pending;          ///< queued writes not yet drained, oldest first
        std::vector<uint64_t> pending_slot;  ///< their write_done slots
        uint64_t reads = 0, writes = 0;      ///< bursts ever queued (ring positions)
        uint64_t last_read_command = 0;
        bool read_seen = false, write_seen = false;
        bool any = false, last_was_write = false;
        uint64_t active_from = 0, active_to = 0;  ///< current union of busy spans
    };
    /// One burst's outcome in DRAM clocks.
    struct Burst {
        uint64_t ready;  ///< earliest column command by DRAM timing
        uint64_t data_start, data_end;
    };

    enum class Row { hit, miss, conflict };
    /// One try at a burst from DRAM clock c, which no refresh holds.
    struct Attempt {
        Burst burst;
        uint64_t first;  ///< its first command
        Row row;
    };

    Place place(uint64_t burst_index) const;
    /// Books a burst that reaches its bank's queue at DRAM clock `arrival`.
    Burst access(Channel& ch, const Place& at, uint64_t arrival, bool write);
    Attempt attempt(Channel& ch, const Place& at, uint64_t c, bool write);
    /// Opens `at`'s row in bank `b` no earlier than c: returns the earliest
    /// column command and sets *first to the first command.
    uint64_t open_row(Channel& ch, Bank& b, const Place& at, uint64_t c, uint64_t* first);
    void drain(Channel& ch, uint64_t c, unsigned leave);
    /// c, or the end of the refresh it falls in.
    uint64_t after_refresh(uint64_t c) const;
    /// Start of the last refresh at or before c (0: none yet).
    uint64_t last_refresh(uint64_t c) const { return t_.refi ? c / t_.refi * t_.refi : 0; }
    void note_span(Channel& ch, uint64_t from, uint64_t to);
    uint64_t to_clocks(uint64_t cycle) const;   ///< first DRAM clock at or after a cycle
    uint64_t to_cycles(uint64_t clocks) const;  ///< first cycle at or after a DRAM clock
    uint64_t clocks_of(double ns) const;

    MemoryParams params_;
    double ratio_;  ///< DRAM clocks per platform cycle
    double tck_ns_;
    Clocks t_;
    uint64_t burst_bytes_;
    /// Address bits of each field (memory.* counts are powers of two).
    struct Bits {
        unsigned column, channel, group, bank, rank, row;
    } bits_;
    std::vector<Channel> channels_;
    DramStats stats_;
    uint64_t first_ = UINT64_MAX, last_ = 0;  ///< DRAM clocks of the activity
    uint64_t active_settled_ = 0;             ///< closed union spans, summed
};

}  // namespace dmasim::model
