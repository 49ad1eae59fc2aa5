// validate.h - the testbench's rules on a configuration, stated once: the
// testbench refuses a run that breaks one, sim/ reports them with the file
// and line of the keys, and docs/configuration.md lists them. Plain C++,
// no SystemC, like the model's own (model/params.h).
#pragma once

#include <dmasim/model/params.h>
#include <dmasim/tb/sim_config.h>

#include <cstdint>
#include <vector>

namespace dmasim::tb {

/// Every configuration parameter, one row each: the model's
/// (model::param_table(), lifted into SimConfig) and the testbench's
/// (workload_rows.h), in documentation order. sim/ makes its config keys of
/// these rows.
const std::vector<model::ParamDef<SimConfig>>& param_table();
/// The testbench's own rows (workload_rows.h), which validate() checks.
const std::vector<model::ParamDef<SimConfig>>& testbench_rows();
/// The workload's rows of testbench_rows(), over a WorkloadConfig alone:
/// validate(WorkloadConfig) checks every list a scenario prepares with them.
const std::vector<model::ParamDef<WorkloadConfig>>& workload_param_rows();

/// Every rule on a workload: the ranges of its rows, then the rules across
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

/// kKeepsRing lifts this one: dma.submission tail_pointer needs a scenario
/// that keeps descriptor rings.
const std::vector<model::CheckedRule<SimConfig>>& ring_rules();
/// kReplaysTraces lifts these: workload.trace and workload.arrival trace
/// need a scenario that replays request traces.
const std::vector<model::CheckedRule<SimConfig>>& trace_rules();
/// kReplaysTraces selects these: workload.arrival trace and workload.trace
/// come together.
const std::vector<model::CheckedRule<SimConfig>>& replay_rules();

/// The rules validate() checks beyond each key's range, then the
/// scenario-trait rules; the model's (model::rules()) not included.
std::vector<model::ParamRule> rules();

}  // namespace dmasim::tb
