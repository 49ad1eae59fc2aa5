// results_csv.h - results.csv: one row per point, the swept keys first,
// then the result keys, then every statistic as "group.counter" (e.g.
// dma.ch0.descriptor_wait_cycles) in report order. Only simulated figures, so reruns, resumes and
// merged shards produce byte-identical files.
#pragma once

#include <string>
#include <vector>

#include "report.h"

namespace dmasim::sim {

/// The result keys (tb/results.h), in column order.
const std::vector<std::string>& result_keys();

/// One CSV field: the value's text, quoted when it holds , " or a newline.
std::string csv_field(const Json& value);

/// The whole file, rows in the order of `reports`.
std::string results_csv(const std::vector<std::string>& swept_keys,
                        const std::vector<Json>& reports);

}  // namespace dmasim::sim
