// histogram.h - a Histogram (run.h) of per-item figures: count,
// nearest-rank percentiles and power-of-two buckets.
#pragma once

#include <dmasim/tb/run.h>

#include <cstdint>
#include <string>
#include <vector>

namespace dmasim::tb {

Histogram make_histogram(std::string name, std::string unit, const std::vector<uint32_t>& values);

}  // namespace dmasim::tb
