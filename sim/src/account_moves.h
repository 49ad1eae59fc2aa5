// account_moves.h - where a change moved a run's cycles: the cycle
// account (docs/statistics.md, "account") of two reports compared cause
// by cause, for `dmasim diff` and `dmasim advise`.
#pragma once

#include <dmasim/model/cycle_account.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "report.h"

namespace dmasim::sim {

/// The run's cycle account of a checked report (report_read.h): the
/// "account" statistics, 0 for a cause it lacks.
model::CycleAccount account_of(const Json& report);

/// The cycles of an account, all causes together.
uint64_t total(const model::CycleAccount& account);

struct AccountMove {
    size_t cause;   ///< index into model::kCauseDefs
    uint64_t a, b;  ///< cycles in A and in B
    int64_t delta() const { return static_cast<int64_t>(b) - static_cast<int64_t>(a); }
};

/// The causes whose cycles differ from A to B, largest move first.
std::vector<AccountMove> account_moves(const Json& a, const Json& b);

}  // namespace dmasim::sim
