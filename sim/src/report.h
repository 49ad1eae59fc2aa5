// report.h - what a run tells the user: the one-line platform, the human
// summary and the report JSON (docs/cli.md, "The report").
#pragma once

#include <dmasim/files/atomic_file.h>
#include <dmasim/tb/sim_config.h>

#include <nlohmann/json.hpp>
#include <string>

namespace dmasim::sim {

using Json = nlohmann::ordered_json;

/// Every config key with its typed value, flat by dotted path, table order.
Json config_to_json(const tb::SimConfig& config);

/// The platform in one line, e.g. "1000 MHz, 16 B bus, ...".
std::string platform_line(const tb::SimConfig& config);

/// The report: config, result, statistics, then wall_seconds (kept out of
/// `result` so reruns compare equal).
Json make_report(const tb::SimConfig& config, const tb::RunResult& result, double wall_seconds);

/// The lines `dmasim run` prints.
std::string summary_text(const tb::SimConfig& config, const tb::RunResult& result,
                         double wall_seconds);

/// Writes `text` to `path` through an exclusive temporary file and a
/// rename, so the file is either absent or complete. Throws on failure.
using tb::write_file_atomically;

/// write_file_atomically() that returns why it failed ("" if it did not),
/// for use after a simulation, whose result a failed file must not lose.
using tb::write_file_atomically_or_error;

}  // namespace dmasim::sim
