// report_read.h - reading a report (dmasim run --report) back, for diff,
// merge, plots and --resume: its shape is checked where the CLI reads it, so
// a hand-edited or foreign file is a named error, not a crash or a figure
// silently left out.
#pragma once

#include <string>

#include "json_read.h"

namespace dmasim::sim {

/// Checks that `report` has a config object, a result object whose result
/// keys (results_csv.h) are numbers where present and whose integrity is a
/// string, and that every scenario result and statistic value is a number.
void check_report(const JsonAt& report);

/// The report at `path`, checked; ConfigError if absent, not JSON or
/// malformed.
Json read_report(const std::string& path);

}  // namespace dmasim::sim
