// in_flight.h - the completion cycles of one side's last `limit`
// transactions (reads, or writes), so a new one can wait for the one
// `limit` before it and the count still in flight is known. Indices wrap
// by comparison, not by division: this runs for every burst.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dmasim::model {

class InFlight {
public:
    explicit InFlight(unsigned limit) : done_(std::max(1u, limit)) {}

    /// Forgets every transaction.
    void reset() { issued_ = oldest_ = next_slot_ = oldest_slot_ = 0; }
    /// The cycle the next transaction may issue by the limit: the
    /// completion of the one `limit` before it (0 while fewer are issued).
    uint64_t limit_free() const { return issued_ >= done_.size() ? done_[next_slot_] : 0; }
    /// Transactions issued and not complete at cycle t (t never decreases).
    uint64_t in_flight_at(uint64_t t) {
        while (oldest_ < issued_ && done_[oldest_slot_] <= t) {
            ++oldest_;
            oldest_slot_ = wrap(oldest_slot_ + 1);
        }
        return issued_ - oldest_;
    }
    /// Records a transaction that completes at cycle `done`.
    void issue(uint64_t done) {
        done_[next_slot_] = done;
        next_slot_ = wrap(next_slot_ + 1);
        ++issued_;
    }

private:
    size_t wrap(size_t slot) const { return slot == done_.size() ? 0 : slot; }

    std::vector<uint64_t> done_;        ///< completion of the last transactions, by index mod limit
    uint64_t issued_ = 0, oldest_ = 0;  ///< issued since reset; first possibly in flight
    size_t next_slot_ = 0, oldest_slot_ = 0;  ///< issued_ and oldest_ mod limit
};

}  // namespace dmasim::model
