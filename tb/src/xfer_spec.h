// xfer_spec.h - a workload in the driver's terms, validated.
#pragma once

#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/tb/run.h>

namespace dmasim::tb {

/// Converts `w` for the driver; throws ConfigError naming the workload key
/// that cannot be run (chain depth out of range, offset not in a page, ...).
dmasim_xfer_spec make_xfer_spec(const WorkloadConfig& w, model::DescriptorFormat format);

}  // namespace dmasim::tb
