// validate.cc - see validate.h.
#include <dmasim/tb/validate.h>
#include <fmt/format.h>

#include <iterator>
#include <optional>

#include "xfer_spec.h"

namespace dmasim::tb {
namespace {

static_assert(kPageBytes == PAGE_SIZE, "an offset lies inside one page");

/// Whether `row` is one of the workload's (checked by validate(WorkloadConfig)).
bool is_workload(const model::ParamDef<SimConfig>& row) {
    return row.key.rfind("workload.", 0) == 0;
}

const std::vector<model::CheckedRule<WorkloadConfig>>& workload_rules() {
    static const std::vector<model::CheckedRule<WorkloadConfig>> table = {
        {{{"workload.chain_depth", "workload.entries"},
          "`workload.chain_depth` must be at most `workload.entries`"},
         [](const WorkloadConfig& w) -> std::string {
             if (w.chain_depth <= w.entries) return {};
             return fmt::format(
                 "workload.chain_depth = {} must be at most workload.entries = {} "
                 "(each descriptor chunk holds at least one entry)",
                 w.chain_depth, w.entries);
         }},
        {{{"workload.segment_bytes_min", "workload.segment_bytes_max"},
          "with `workload.segment_distribution: uniform`, `workload.segment_bytes_min` must be "
          "at most `workload.segment_bytes_max`"},
         [](const WorkloadConfig& w) -> std::string {
             if (w.distribution != DMASIM_SEG_UNIFORM || w.segment_bytes_min <= w.segment_bytes_max)
                 return {};
             return fmt::format(
                 "workload.segment_bytes_min = {} must be at most "
                 "workload.segment_bytes_max = {}",
                 w.segment_bytes_min, w.segment_bytes_max);
         }},
        {{{"workload.segment_bytes", "workload.segment_bytes_min", "workload.segment_bytes_max"},
          "with `workload.segment_distribution: lognormal`, the mean `workload.segment_bytes` "
          "must lie in [`workload.segment_bytes_min`, `workload.segment_bytes_max`]"},
         [](const WorkloadConfig& w) -> std::string {
             if (w.distribution != DMASIM_SEG_LOGNORMAL ||
                 (w.segment_bytes_min <= w.segment_bytes && w.segment_bytes <= w.segment_bytes_max))
                 return {};
             return fmt::format(
                 "lognormal sizes are clamped to [workload.segment_bytes_min, "
                 "workload.segment_bytes_max] = [{}, {}], so their mean "
                 "workload.segment_bytes = {} must lie in that range",
                 w.segment_bytes_min, w.segment_bytes_max, w.segment_bytes);
         }},
        {{{"workload.irq_per_descriptor", "workload.completion"},
          "`workload.irq_per_descriptor` needs `workload.completion: interrupt`"},
         [](const WorkloadConfig& w) -> std::string {
             if (!w.irq_per_descriptor || w.completion != Completion::polling) return {};
             return "workload.irq_per_descriptor = true asks for an interrupt per descriptor, "
                    "but workload.completion = polling masks the channels' interrupts: use "
                    "one or the other";
         }},
        {{{"workload.buffers", "workload.offset"},
          "with `workload.buffers: packed`, `workload.offset` must be 0"},
         [](const WorkloadConfig& w) -> std::string {
             if (w.buffers != DMASIM_BUF_PACKED || w.offset == 0) return {};
             return fmt::format(
                 "workload.buffers = packed lays segments back to back, so "
                 "workload.offset = {} must be 0",
                 w.offset);
         }},
    };
    return table;
}

/// MiB below 4 GiB, what compact descriptors' 32-bit addresses reach.
constexpr uint64_t kCompactMemoryMib = (uint64_t{1} << 32) >> 20;

/// Rules across the layers, checked on a workload that breaks none of its own.
const std::vector<model::CheckedRule<SimConfig>>& config_rules() {
    static const std::vector<model::CheckedRule<SimConfig>> table = {
        // Every buffer and descriptor chunk must lie below 4 GiB, so RAM
        // may not extend past it.
        {{{"dma.descriptor_bytes", "memory.size_mib"},
          fmt::format("with `dma.descriptor_bytes: 16` (32-bit addresses), `memory.size_mib` "
                      "must be at most {}",
                      kCompactMemoryMib)},
         [](const SimConfig& c) -> std::string {
             if (c.platform.dma.descriptor_bytes != 16 || c.memory_size_mib <= kCompactMemoryMib)
                 return {};
             return fmt::format(
                 "dma.descriptor_bytes = 16 (compact, 32-bit addresses) needs "
                 "every buffer and descriptor chunk below 4 GiB, but "
                 "memory.size_mib = {} places pages above it: use "
                 "memory.size_mib <= {} or dma.descriptor_bytes = 32 or 64",
                 c.memory_size_mib, kCompactMemoryMib);
         }},
        {{{"fault.kind", "iommu.enabled"}, "`fault.kind: translation` needs `iommu.enabled: true`"},
         [](const SimConfig& c) -> std::string {
             if (c.platform.dma.fault.kind != model::FaultKind::translation ||
                 c.platform.iommu.enabled)
                 return {};
             return "fault.kind = translation revokes an IOMMU mapping, so it needs "
                    "iommu.enabled = true";
         }},
        {{{"workload.entries", "workload.segment_bytes", "memory.size_mib"},
          "the workload's buffers (`workload.entries` segments sized by `workload.segment_bytes`, "
          "twice for `mem_to_mem`) and descriptor chunks must fit in `memory.size_mib`, "
          "counted in page frames as the driver allocates them"},
         [](const SimConfig& c) -> std::string {
             const uint64_t pages = list_pages(c.workload, c.descriptor_format, c.platform.dma);
             const uint64_t available = (c.memory_size_mib << 20) / PAGE_SIZE;
             if (pages <= available) return {};
             return fmt::format(
                 "the workload's buffers and descriptor chunks ({} entries) need {} MiB "
                 "of pages but memory.size_mib is {}: raise memory.size_mib or "
                 "shrink the list",
                 c.workload.entries, (pages * PAGE_SIZE + (1 << 20) - 1) >> 20, c.memory_size_mib);
         }},
        // The configured list alone; scenario_refusal() weighs every list a
        // scenario holds at once.
        {{iova_fit_keys(),
          "with `iommu.enabled`, the workload's buffers (`workload.entries` segments of "
          "`workload.segment_bytes` to `workload.segment_bytes_max`) and descriptor chunks, in "
          "`iommu.page_size` pages, must fit the I/O virtual address space `iommu.walk_levels` "
          "levels translate"},
         [](const SimConfig& c) { return iova_fit_error(c, {c.workload}); }},
    };
    return table;
}

}  // namespace

const std::vector<model::CheckedRule<SimConfig>>& memory_check_rules() {
    static const std::vector<model::CheckedRule<SimConfig>> table = {
        {{{"workload.payload", "workload.scenario"},
          "a scenario (`workload.scenario`) that checks memory contents needs "
          "`workload.payload: checked`"},
         [](const SimConfig& c) -> std::string {
             if (c.workload.payload == Payload::checked) return {};
             return fmt::format(
                 "workload.payload = none leaves scenario {} nothing to check (it "
                 "checks memory contents): use workload.payload = checked",
                 c.workload.scenario);
         }},
    };
    return table;
}

const std::vector<model::CheckedRule<SimConfig>>& ring_rules() {
    static const std::vector<model::CheckedRule<SimConfig>> table = {
        // Only a scenario that keeps a descriptor ring can give such an
        // engine work: START alone leaves it idle.
        {{{"dma.submission", "workload.scenario"},
          "`dma.submission: tail_pointer` needs a scenario (`workload.scenario`) that keeps "
          "descriptor rings (trait `kKeepsRing`)"},
         [](const SimConfig& c) -> std::string {
             if (c.platform.dma.submission != model::Submission::tail_pointer) return {};
             return fmt::format(
                 "dma.submission = tail_pointer runs a channel only to its TAIL register, "
                 "which scenario {} never writes: it keeps no descriptor ring (it does not "
                 "declare the trait kKeepsRing); use dma.submission = start, or a scenario "
                 "that keeps a ring",
                 c.workload.scenario);
         }},
    };
    return table;
}

const std::vector<model::CheckedRule<SimConfig>>& trace_rules() {
    static const std::vector<model::CheckedRule<SimConfig>> table = {
        {{{"workload.trace", "workload.scenario"},
          "`workload.trace` needs a scenario (`workload.scenario`) that replays request traces "
          "(trait `kReplaysTraces`)"},
         [](const SimConfig& c) -> std::string {
             if (c.workload.trace.empty()) return {};
             return fmt::format(
                 "workload.trace = {} is not read by scenario {}, which replays no request "
                 "trace (it does not declare the trait kReplaysTraces): unset workload.trace, "
                 "or use a scenario that replays traces",
                 c.workload.trace, c.workload.scenario);
         }},
        {{{"workload.arrival", "workload.scenario"},
          "`workload.arrival: trace` needs a scenario (`workload.scenario`) that replays request "
          "traces (trait `kReplaysTraces`)"},
         [](const SimConfig& c) -> std::string {
             if (c.workload.arrival != Arrival::trace) return {};
             return fmt::format(
                 "workload.arrival = trace is not read by scenario {}, which replays no request "
                 "trace (it does not declare the trait kReplaysTraces)",
                 c.workload.scenario);
         }},
    };
    return table;
}

const std::vector<model::CheckedRule<SimConfig>>& replay_rules() {
    static const std::vector<model::CheckedRule<SimConfig>> table = {
        {{{"workload.arrival", "workload.trace"},
          "in a scenario that replays request traces, `workload.arrival: trace` and "
          "`workload.trace` come together"},
         [](const SimConfig& c) -> std::string {
             const WorkloadConfig& w = c.workload;
             if ((w.arrival == Arrival::trace) != w.trace.empty()) return {};
             if (w.trace.empty())
                 return "workload.arrival: trace replays workload.trace, which is not set";
             return fmt::format("workload.trace = {} is replayed only with workload.arrival: trace",
                                w.trace);
         }},
    };
    return table;
}

const std::vector<model::CheckedRule<SimConfig>>& walk_limit_rules() {
    static const std::vector<model::CheckedRule<SimConfig>> table = {
        {{{"workload.chain_depth", "dma.max_chain_depth"},
          "`workload.chain_depth` - 1 chain links must be at most `dma.max_chain_depth` (but "
          "in scenarios that inject errors)"},
         [](const SimConfig& c) -> std::string {
             const WorkloadConfig& w = c.workload;
             if (w.chain_depth - 1 <= c.platform.dma.max_chain_depth) return {};
             return fmt::format(
                 "workload.chain_depth = {} makes {} chain links, more than "
                 "dma.max_chain_depth = {}: the engine would stop with "
                 "CHAIN_LOOP; raise dma.max_chain_depth or lower "
                 "workload.chain_depth",
                 w.chain_depth, w.chain_depth - 1, c.platform.dma.max_chain_depth);
         }},
        {{{"workload.entries", "dma.max_descriptors"},
          "`workload.entries` must be at most `dma.max_descriptors` (but in scenarios that "
          "inject errors)"},
         [](const SimConfig& c) -> std::string {
             const WorkloadConfig& w = c.workload;
             if (w.entries <= c.platform.dma.max_descriptors) return {};
             return fmt::format(
                 "workload.entries = {} descriptors are more than "
                 "dma.max_descriptors = {}: the engine would stop with "
                 "CHAIN_LOOP; raise dma.max_descriptors or shorten the list",
                 w.entries, c.platform.dma.max_descriptors);
         }},
    };
    return table;
}

namespace {

void append(std::vector<model::ParamProblem>& to, std::vector<model::ParamProblem> from) {
    for (auto& p : from) to.push_back(std::move(p));
}

}  // namespace

std::vector<model::ParamProblem> validate(const WorkloadConfig& w) {
    std::vector<model::ParamProblem> problems =
        model::range_problems(workload_param_rows(), w, [](const auto&) { return true; });
    append(problems, model::check_rules(workload_rules(), w));
    return problems;
}

std::vector<model::ParamProblem> validate(const SimConfig& config) {
    std::vector<model::ParamProblem> problems = validate(config.workload);
    const bool workload_usable = problems.empty();
    append(problems, model::range_problems(testbench_rows(), config,
                                           [](const auto& row) { return !is_workload(row); }));
    append(problems, model::validate(config.platform));
    // A list that breaks its own rules has no size to fit.
    if (workload_usable) append(problems, model::check_rules(config_rules(), config));
    return problems;
}

std::vector<model::ParamRule> rules() {
    std::vector<model::ParamRule> out;
    for (const auto& r : workload_rules()) out.push_back(r.rule);
    for (const auto* table : {&config_rules(), &memory_check_rules(), &walk_limit_rules(),
                              &ring_rules(), &trace_rules(), &replay_rules()})
        for (const auto& r : *table) out.push_back(r.rule);
    return out;
}

}  // namespace dmasim::tb
