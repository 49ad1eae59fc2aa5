// soak_check.h - the invariants every soak point's report must hold.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dmasim::soak {

/// Checks a `dmasim run --report` file against its own `config`: the
/// scoreboard passed; bytes done = bytes the list asks; descriptors done =
/// entries; chain links = chain depth - 1 (per transfer); bytes per cycle
/// never above the bus peak; reads and writes in flight never above the
/// outstanding limits. Returns one message per violation (empty = pass).
std::vector<std::string> check_report(const nlohmann::json& report);

}  // namespace dmasim::soak
