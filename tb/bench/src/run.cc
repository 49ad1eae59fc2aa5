// run.cc - run_simulation(): simulated memory, elaboration, the scenario,
// measurement and teardown, in that order, once per process.
#include <dmasim/model/clock.h>
#include <dmasim/tb/run.h>
#include <dmasim/tb/scenario.h>
#include <dmasim/tb/validate.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sglist/mm.h>

#include <memory>

#include "axi_vcd.h"
#include "chrome_trace.h"
#include "counter_signals.h"
#include "host_memory.h"
#include "measure.h"
#include "sanitizer_stack.h"
#include "testbench.h"
#include "trace_tee.h"
#include "vcd_writer.h"
#include "xfer_spec.h"

namespace dmasim::tb {
namespace {

const ScenarioInfo& find_scenario(const std::string& name) {
    // A scenario declared wrongly (a parameter whose default lies outside
    // its range, ...) would fail every run: refused here as at dmasim's start.
    if (const auto& errors = ScenarioRegistry::instance().errors(); !errors.empty())
        throw ConfigError(errors.front());
    const ScenarioInfo* s = ScenarioRegistry::instance().find(name);
    if (!s)
        throw ConfigError(fmt::format("workload.scenario = {}: unknown; known scenarios: {}", name,
                                      fmt::join(ScenarioRegistry::instance().names(), ", ")));
    return *s;
}

// The simulated RAM for the lifetime of one run.
class SimMemory {
public:
    explicit SimMemory(const SimConfig& config) {
        const uint64_t bytes = config.memory_size_mib << 20;
        if (sim_mem_init(bytes, config.placement, config.workload.seed) != 0)
            throw ConfigError(
                fmt::format("memory.size_mib = {}: cannot reserve {} bytes of simulated memory",
                            config.memory_size_mib, bytes));
    }
    ~SimMemory() { sim_mem_exit(); }
    SimMemory(const SimMemory&) = delete;
    SimMemory& operator=(const SimMemory&) = delete;
};

void judge(const Testbench& tb, bool finished, RunResult& result) {
    if (const auto& f = tb.failure()) {
        result.failure = f->what;
        result.first_bad_address = f->bus_address;
    } else if (!finished) {
        result.failure = fmt::format(
            "the scenario did not finish: the simulation ran out of "
            "events at {}",
            sc_core::sc_time_stamp().to_string());
    } else if (result.leaked_pages > 0) {
        result.failure =
            fmt::format("{} page frames of simulated memory were not freed", result.leaked_pages);
    }
    result.integrity = result.failure.empty();
    result.payload_checked = tb.config().workload.payload == Payload::checked;
}

RunResult simulate(const SimConfig& config, const ScenarioInfo& scenario,
                   const RunOptions& options) {
    model::Platform platform("platform", config.platform);
    Testbench tb("tb", config, platform, scenario);
    const auto& p = config.platform;
    std::unique_ptr<ChromeTrace> trace;
    if (!options.trace_path.empty())
        trace = std::make_unique<ChromeTrace>(
            options.trace_path, p.clock_mhz,
            TraceLimits{options.trace_from_cycle, options.trace_to_cycle, options.trace_max_bytes},
            options.trace_flows);
    std::unique_ptr<CounterSignals> levels;
    std::unique_ptr<VcdWriter> vcd;
    if (!options.vcd_path.empty()) {
        levels = std::make_unique<CounterSignals>("levels", p.clock_mhz, p.dma.channels);
        vcd = std::make_unique<VcdWriter>(options.vcd_path, platform, p.dma.channels, *levels,
                                          options.trace_max_bytes);
    }
    std::unique_ptr<AxiVcd> axi;
    if (!options.vcd_axi_path.empty())
        axi = std::make_unique<AxiVcd>(options.vcd_axi_path, platform.clock(), p.dma.channels,
                                       options.trace_max_bytes);
    std::vector<model::TraceSink*> sinks;
    for (model::TraceSink* s :
         {static_cast<model::TraceSink*>(trace.get()), static_cast<model::TraceSink*>(vcd.get()),
          static_cast<model::TraceSink*>(axi.get())})
        if (s) sinks.push_back(s);
    std::unique_ptr<TraceTee> tee;
    if (sinks.size() > 1) tee = std::make_unique<TraceTee>(sinks);
    model::TraceSink* const sink = tee ? tee.get() : sinks.empty() ? nullptr : sinks.front();
    platform.set_trace(sink);
    tb.set_trace(sink);
    const unsigned long pages_before = sim_mem_pages_in_use();

    // The testbench ends every run with sc_stop(); that is no news to users.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    // Bounded cost: past the limit the run stops with a message instead of
    // running for minutes (sc_start returns with events still pending).
    sc_core::sc_start(platform.clock().at(options.max_sim_cycles));
    restore_sanitizer_stack_bounds();
    const bool finished = tb.finished();
    if (!finished && sc_core::sc_pending_activity())
        throw std::runtime_error(fmt::format(
            "the simulation reached --max-sim-cycles = {} ({} of simulated time) before the "
            "scenario finished; raise --max-sim-cycles if the run is meant to be that long",
            options.max_sim_cycles, sc_core::sc_time_stamp().to_string()));

    RunResult result;
    tb.release_all();
    result.leaked_pages = sim_mem_pages_in_use() - pages_before;
    judge(tb, finished, result);  // first: the invariants depend on integrity
    measure(tb.measured(), platform, tb.host_timeline(), result);
    if (trace && tb.measured()) {
        const WindowCycles edges = window_cycles(*tb.measured(), platform.clock());
        for (unsigned ch = 0; ch < p.dma.channels; ++ch)
            trace->account(ch, platform.channel_timeline(ch), edges.first, edges.last);
    }
    result.scenario_results = tb.results();
    platform.set_trace(nullptr);
    for (const std::string& note :
         {trace ? trace->cap_note() : "", vcd ? vcd->cap_note() : "", axi ? axi->cap_note() : ""})
        if (!note.empty()) result.trace_note += (result.trace_note.empty() ? "" : "; ") + note;
    // A file that cannot be finished must not lose the simulated result.
    for (const std::string& why :
         {trace ? trace->finish() : "", vcd ? vcd->finish() : "", axi ? axi->finish() : ""})
        if (!why.empty()) result.output_errors.push_back(why);
    return result;
}

}  // namespace

uint64_t host_bytes_needed(const SimConfig& config) {
    const ScenarioInfo& scenario = find_scenario(config.workload.scenario);
    SimConfig resolved = config;
    if (scenario.setup) scenario.setup(resolved);
    return host_bytes_needed(scenario.lists(resolved));
}

RunResult run_simulation(const SimConfig& config, const RunOptions& options) {
    const ScenarioInfo& scenario = find_scenario(config.workload.scenario);
    SimConfig resolved = config;
    if (scenario.setup) scenario.setup(resolved);
    if (auto problems = validate(resolved); !problems.empty())
        throw ConfigError(problems.front().message);
    if (auto refusal = scenario_refusal(scenario, resolved)) throw ConfigError(refusal->why);
    if (std::string why = host_memory_error(resolved, scenario.lists(resolved)); !why.empty())
        throw ConfigError(why);
    SimMemory memory(resolved);
    // Checked before elaboration: a list that cannot fit is refused before
    // any of the platform is built.
    const dmasim_load_spec spec =
        make_load_spec(resolved.workload, resolved.descriptor_format, resolved.platform.dma);
    if (std::string why = fit_error(resolved.workload, spec, resolved.memory_size_mib);
        !why.empty())
        throw ConfigError(why);
    resolved.platform.dma.move_payload = resolved.workload.payload == Payload::checked;
    resolved.platform.memory.backing = static_cast<uint8_t*>(sim_mem_base());
    resolved.platform.memory.size_bytes = sim_mem_size();
    return simulate(resolved, scenario, options);
}

}  // namespace dmasim::tb
