// validate.h - the testbench's rules on a configuration, stated once: the
// testbench refuses a run that breaks one, sim/ reports them with the file
// and line of the keys, and docs/configuration.md lists them. Plain C++,
// no SystemC, like the model's own (model/params.h).
#pragma once

#include <dmasim/model/params.h>
#include <dmasim/tb/run.h>

#include <cstdint>
#include <vector>

namespace dmasim::tb {

/// The range of each workload key that has one, declared once: validate()
/// checks them, and sim/'s key table parses and documents values with them.
namespace limits {
inline constexpr model::IntRange entries{1, 1u << 24};
inline constexpr model::IntRange chain_depth{1, 1u << 24};
/// segment_bytes, segment_bytes_min and segment_bytes_max: a scatterlist
/// entry's length is 32 bits
inline constexpr model::IntRange segment_bytes{1, UINT32_MAX};
inline constexpr model::IntRange offset{0, 4095};  ///< in-page: below sglist's PAGE_SIZE
inline constexpr model::RealRange lognormal_sigma{0, 10};
}  // namespace limits

/// Every rule on a workload: the ranges in `limits`, then the rules across
/// workload keys. Scenarios' own workloads are checked with it too.
std::vector<model::ParamProblem> validate(const WorkloadConfig& workload);

/// Every rule on a whole configuration: the workload's, the model's
/// (model::validate of the platform), then those across the layers (the
/// list must fit in memory.size_mib). Empty when the run can be set up.
std::vector<model::ParamProblem> validate(const SimConfig& config);

/// Rules a scenario's traits select (scenario.h), applied by
/// scenario_refusal(): kChecksMemory's, which needs the payload checked.
const std::vector<model::CheckedRule<SimConfig>>& memory_check_rules();
/// The engine's walk limits: every scenario but kInjectsErrors' ones keeps
/// its list within them, which the engine would stop with CHAIN_LOOP.
const std::vector<model::CheckedRule<SimConfig>>& walk_limit_rules();

/// The rules validate() checks beyond each key's range, then the
/// scenario-trait rules; the model's (model::rules()) not included.
std::vector<model::ParamRule> rules();

}  // namespace dmasim::tb
