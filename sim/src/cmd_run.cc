// cmd_run.cc - `dmasim run`: one simulation in this process.
#include <dmasim/tb/run.h>
#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "cli.h"
#include "config_loader.h"
#include "paths.h"
#include "report.h"
#include "scenario_check.h"
#include "signals.h"

namespace dmasim::sim {
namespace {

/// A result must never be lost after a long simulation: every output path
/// is checked before elaboration (exit 2 naming the option and why).
void check_outputs(const RunCommand& c) {
    const std::pair<const char*, const std::string&> outputs[] = {
        {"--report", c.report}, {"--trace", c.trace}, {"--vcd", c.vcd}, {"--vcd-axi", c.vcd_axi}};
    for (const auto& [option, path] : outputs) {
        if (path.empty()) continue;
        if (std::string why = tb::unwritable(path); !why.empty())
            throw tb::ConfigError(fmt::format("{} {}: {}", option, path, why));
    }
}

/// The run's outputs and limits; --trace-window is "FROM:TO" in cycles,
/// either side optional (exit 2 naming the option).
tb::RunOptions run_options(const RunCommand& c) {
    tb::RunOptions o;
    o.trace_path = c.trace;
    o.vcd_path = c.vcd;
    o.max_sim_cycles = c.max_sim_cycles;
    o.vcd_axi_path = c.vcd_axi;
    o.trace_flows = c.trace_flows;
    o.trace_max_bytes = c.trace_max_mib << 20;
    if (c.trace_window.empty()) return o;
    const Location where{"--trace-window"};
    const auto colon = c.trace_window.find(':');
    if (colon == std::string::npos)
        throw ConfigError(where, fmt::format("{}: expected FROM:TO in cycles, e.g. 10000:20000",
                                             excerpt(c.trace_window)));
    auto cycles = [&](const std::string& text, uint64_t fallback) {
        if (text.empty()) return fallback;
        const bool digits = text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || text.size() > 19)
            throw ConfigError(where, fmt::format("{}: '{}' is not a cycle number (0 to 10^19)",
                                                 excerpt(c.trace_window), excerpt(text)));
        return uint64_t{std::stoull(text)};
    };
    o.trace_from_cycle = cycles(c.trace_window.substr(0, colon), 0);
    o.trace_to_cycle = cycles(c.trace_window.substr(colon + 1), UINT64_MAX);
    if (o.trace_from_cycle >= o.trace_to_cycle)
        throw ConfigError(where, fmt::format("{}: FROM must be below TO", c.trace_window));
    return o;
}

}  // namespace

int run_command(const RunCommand& c) {
    exit_cleanly_on_signals();
    const ConfigBuilder builder = build_config(
        c.configs.empty() ? std::vector{default_config_path()} : c.configs, c.sets, c.platform);
    check_scenario(builder);
    check_outputs(c);
    const tb::SimConfig& config = builder.config();
    if (!c.vcd_axi.empty() && config.platform.bus.kind != model::BusKind::axi)
        throw ConfigError(Location{"--vcd-axi"},
                          "AXI handshakes exist only on the on-chip bus (bus.kind: axi); this "
                          "run's bus is a PCIe link");

    const auto start = std::chrono::steady_clock::now();
    const tb::RunResult result = tb::run_simulation(config, run_options(c));
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // The summary comes first: if an output cannot be written, the
    // simulated result has still reached the terminal. A closed standard
    // output (SIGPIPE is ignored) is one more output not written, not a
    // reason to lose the report.
    std::vector<std::string> unwritten = result.output_errors;
    if (!c.quiet && (std::fputs(summary_text(config, result, wall).c_str(), stdout) < 0 ||
                     std::fflush(stdout) != 0))
        unwritten.push_back(
            fmt::format("the summary (standard output): {}", std::strerror(errno)));
    if (!result.trace_note.empty()) fmt::print(stderr, "dmasim: note: {}\n", result.trace_note);
    if (!c.report.empty())
        if (std::string why = write_file_atomically_or_error(
                c.report, make_report(config, result, wall).dump(2) + "\n");
            !why.empty())
            unwritten.push_back("report: " + why);
    if (result.leaked_pages > 0)
        fmt::print(stderr, "dmasim: warning: {} simulated page frames were not freed\n",
                   result.leaked_pages);
    for (const auto& why : unwritten)
        fmt::print(stderr, "dmasim: error: output not written after the run: {}\n", why);
    if (!result.integrity) {
        fmt::print(stderr, "dmasim: integrity check failed: {}\n", result.failure);
        return 1;
    }
    return unwritten.empty() ? 0 : 1;
}

}  // namespace dmasim::sim
