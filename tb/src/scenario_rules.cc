// scenario_rules.cc - the one place a config is judged against its
// scenario: the shared rules a scenario's traits select, then its own
// check (see scenario.h).
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

namespace dmasim::tb {
namespace {

std::optional<ScenarioRefusal> payload_refusal(const SimConfig& config) {
    const WorkloadConfig& w = config.workload;
    if (w.payload == Payload::checked) return std::nullopt;
    return ScenarioRefusal{
        fmt::format("workload.payload = none leaves scenario {} nothing to check (it checks "
                    "memory contents): use workload.payload = checked",
                    w.scenario),
        {"workload.payload", "workload.scenario"}};
}

/// The engine stops a list beyond its limits with CHAIN_LOOP; refuse it
/// now rather than after simulating.
std::optional<ScenarioRefusal> walk_limit_refusal(const SimConfig& config) {
    const WorkloadConfig& w = config.workload;
    const model::DmaParams& dma = config.platform.dma;
    if (w.chain_depth - 1 > dma.max_chain_depth)
        return ScenarioRefusal{
            fmt::format("workload.chain_depth = {} makes {} chain links, more than "
                        "dma.max_chain_depth = {}: the engine would stop with CHAIN_LOOP; "
                        "raise dma.max_chain_depth or lower workload.chain_depth",
                        w.chain_depth, w.chain_depth - 1, dma.max_chain_depth),
            {"workload.chain_depth", "dma.max_chain_depth"}};
    if (w.entries > dma.max_descriptors)
        return ScenarioRefusal{
            fmt::format("workload.entries = {} descriptors are more than "
                        "dma.max_descriptors = {}: the engine would stop with CHAIN_LOOP; "
                        "raise dma.max_descriptors or shorten the list",
                        w.entries, dma.max_descriptors),
            {"workload.entries", "dma.max_descriptors"}};
    return std::nullopt;
}

}  // namespace

std::optional<ScenarioRefusal> scenario_refusal(const ScenarioInfo& scenario,
                                                const SimConfig& config) {
    if (scenario.traits & kChecksMemory)
        if (auto refusal = payload_refusal(config)) return refusal;
    if (!(scenario.traits & kInjectsErrors))
        if (auto refusal = walk_limit_refusal(config)) return refusal;
    return scenario.check ? scenario.check(config) : std::nullopt;
}

}  // namespace dmasim::tb
