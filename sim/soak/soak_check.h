// soak_check.h - the invariants every soak point's report must hold.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dmasim::soak {

/// Checks a `dmasim run --report` file against its own `config`, for
/// what a soak point asks: the scoreboard passed; bytes done = bytes the
/// list asks; descriptors done = entries; chain links = chain depth - 1
/// (per transfer); CPU time = handler and per-descriptor cost; reads and
/// writes in flight never above the outstanding limits. Returns one
/// message per violation (empty = pass). What no report may show whatever
/// the point (bytes per cycle above the bus or memory peak, ...) is not
/// restated here: every run checks it (tb/bench/src/measure.h) and exits 1
/// without a report, which fails the point.
std::vector<std::string> check_report(const nlohmann::json& report);

}  // namespace dmasim::soak
