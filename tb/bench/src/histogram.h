// histogram.h - a Histogram (sim_config.h) of per-item figures: count,
// nearest-rank percentiles and power-of-two buckets.
#pragma once

#include <dmasim/model/value_counts.h>
#include <dmasim/tb/run.h>

#include <string>

namespace dmasim::tb {

Histogram make_histogram(std::string name, std::string unit, const model::ValueCounts& values);

}  // namespace dmasim::tb
