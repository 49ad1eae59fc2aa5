// soak_check.h - the invariants every soak point's report must hold.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dmasim::soak {

/// Checks a `dmasim run --report` file against its own `config`: the
/// scoreboard passed; bytes done = bytes the list asks; descriptors done =
/// entries; chain links = chain depth - 1 (per transfer); the invariants
/// below; reads and writes in flight never above the outstanding limits.
/// Returns one message per violation (empty = pass).
std::vector<std::string> check_report(const nlohmann::json& report);

/// What no sound report may show, whatever the scenario (issue 14): bytes
/// per cycle above bus.width_bytes or memory.bandwidth_bytes_per_cycle,
/// bus_utilization above 1, cycles more than one clock period from
/// sim_time_ns. One message per violation (empty = sound). dmasim itself
/// refuses to write such a report; this checks it from the outside.
std::vector<std::string> invariant_violations(const nlohmann::json& report);

}  // namespace dmasim::soak
