// advice.h - what `dmasim advise` found: each what-if run against the
// configuration as it is, the knobs ranked per group by cycles saved, as
// the table it prints and the JSON --json writes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "account_moves.h"
#include "config_keys.h"
#include "report.h"

namespace dmasim::sim {

/// One knob moved by its what-if step, values as config text.
struct WhatIfStep {
    const KeyDef* key = nullptr;
    std::string from, to;
};

/// A what-if's run against the baseline's.
struct WhatIfResult {
    WhatIfStep step;
    uint64_t cycles = 0;
    int64_t saved = 0;                        ///< baseline cycles - cycles
    double speedup = 1;                       ///< baseline cycles / cycles
    std::optional<AccountMove> largest_move;  ///< the cause that moved most, if any did
};

/// A what-if not run: it breaks a config rule with this configuration.
struct RefusedStep {
    WhatIfStep step;
    std::string why;
};

/// A what-if whose run failed (exit status, and the gist of its stderr).
struct FailedStep {
    WhatIfStep step;
    int status = 0;
    std::string gist;
};

struct Advice {
    Json baseline;                      ///< the report of the configuration as it is
    std::vector<WhatIfResult> results;  ///< most cycles saved first
    std::vector<RefusedStep> refused;
    std::vector<FailedStep> failed;
};

/// `step`'s run (its report) against the baseline's.
WhatIfResult compare_to_baseline(const WhatIfStep& step, const Json& baseline, const Json& report);

/// Sorts results by cycles saved, most first (ties in key table order).
void rank(std::vector<WhatIfResult>& results);

/// The table: baseline, then engine, platform and driver/workload knobs
/// apart, each with from -> to, cycles saved, speedup and the largest move
/// of the cycle account; knobs that changed nothing, refused and failed
/// steps on lines of their own.
std::string advice_text(const Advice& advice);

/// The same as JSON: baseline, one array per group, not_run and failed.
Json advice_json(const Advice& advice);

}  // namespace dmasim::sim
