// cli.cc - subcommands, their options, and errors to exit status.
#include "cli.h"

#include <dmasim/tb/run.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <thread>

#include "advise.h"
#include "config_docs.h"
#include "config_loader.h"
#include "config_schema.h"
#include "diff.h"
#include "fit.h"
#include "merge.h"
#include "paths.h"
#include "plot.h"
#include "scenario_check.h"
#include "shell_completion.h"
#include "statistics_catalog.h"
#include "sweep_runner.h"
#include "sweep_slurm.h"
#include "trace_import.h"

namespace dmasim::sim {
namespace {

constexpr int kExitUsage = 2;

struct ConfigCommand {
    bool markdown = false;
    bool resolve = false;
    bool schema = false;
    std::vector<std::string> args;  ///< KEYs for --explain, CONFIGs for --resolve
    std::string platform;
    std::vector<std::string> sets;
};

struct SweepCommand {
    SweepOptions options;
    SlurmOptions slurm;
    std::string shard;
    bool no_plot = false;
    CLI::Option* jobs_option = nullptr;
};

struct MergeCommand {
    std::vector<std::string> dirs;
    std::string out;
    bool no_plot = false;
};

/// `run`, `advise` and `config --resolve` take a platform file the same way.
void add_platform(CLI::App& cmd, std::string& platform) {
    cmd.add_option("--platform", platform,
                   "A platform file (configs/platforms/) whose clock, bus, memory and other "
                   "platform keys override the configs'");
}

/// `run` and `sweep` share the limit's name, default and range.
void add_max_sim_cycles(CLI::App& cmd, uint64_t& value, const std::string& help) {
    cmd.add_option("--max-sim-cycles", value, help)
        ->capture_default_str()
        ->check(CLI::Range(uint64_t{1}, uint64_t{1000000000000}));
}

void add_run(CLI::App& app, RunCommand& c) {
    auto* cmd = app.add_subcommand("run", "Simulate one configuration and print a summary");
    cmd->add_option("config", c.configs,
                    "YAML configs, later ones overriding earlier ones (default: "
                    "configs/default.yaml)");
    add_platform(*cmd, c.platform);
    cmd->add_option("--set", c.sets, "Override a key: --set KEY=VALUE (repeatable)");
    cmd->add_option("--report", c.report, "Write the report JSON here");
    auto* trace =
        cmd->add_option("--trace", c.trace, "Write a Chrome/Perfetto trace-event JSON here");
    cmd->add_option("--trace-window", c.trace_window,
                    "Trace only cycles FROM:TO (either side may be empty)");
    c.trace_max_mib = tb::kDefaultTraceMaxMib;
    cmd->add_option("--trace-max-mib", c.trace_max_mib,
                    fmt::format("Stop the trace and the VCD growing past this size (default {})",
                                tb::kDefaultTraceMaxMib))
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 20));
    cmd->add_option("--vcd", c.vcd,
                    "Write a VCD of busy, IRQ, reads/writes in flight and buffer fill here");
    cmd->add_option("--vcd-axi", c.vcd_axi,
                    "Write a VCD of each channel's master port as AXI handshakes (ar/r/aw/w/b "
                    "valid, ready, last, len, addr) here (bus.kind axi)");
    cmd->add_flag("--trace-flows", c.trace_flows,
                  "With --trace: arrows from each descriptor's fetch to its bursts, write-back "
                  "and interrupt")
        ->needs(trace);
    c.max_sim_cycles = tb::kDefaultMaxSimCycles;
    add_max_sim_cycles(*cmd, c.max_sim_cycles,
                       "Stop with an error if the run has not finished after this many "
                       "simulated cycles");
    cmd->add_flag("-q,--quiet", c.quiet, "Print nothing but errors");
}

void add_sweep(CLI::App& app, SweepCommand& c) {
    auto* cmd = app.add_subcommand("sweep",
                                   "Run every point of a sweep file, each in its own "
                                   "process, and write results.csv and plots");
    cmd->add_option("sweep", c.options.sweep_file, "Sweep YAML (docs/sweeps.md)")->required();
    c.options.jobs = std::max(1u, std::thread::hardware_concurrency());
    c.jobs_option =
        cmd->add_option("-j,--jobs", c.options.jobs,
                        "Points run at a time (default: cores; with --slurm: per task, default 1)")
            ->check(CLI::Range(1u, 4096u));
    cmd->add_option("--out", c.options.out_dir,
                    "Output directory (default: results/<sweep name>[-shardKofN])");
    cmd->add_option("--max-points", c.options.max_points,
                    fmt::format("Refuse a sweep with more points (default {})", kDefaultMaxPoints))
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
    add_max_sim_cycles(*cmd, c.options.max_sim_cycles,
                       "Passed to every point's run: a point not finished after this many "
                       "simulated cycles fails");
    auto* shard =
        cmd->add_option("--shard", c.shard, "Run only shard K of N (1-based): index mod N == K-1");
    auto* slurm = cmd->add_option("--slurm", c.slurm.tasks,
                                  "Run on Slurm: a job array of N shards and a merge after it, "
                                  "written to OUT/slurm/ and submitted with sbatch")
                      ->check(CLI::Range(1u, 100000u))
                      ->excludes(shard);
    cmd->add_option("--slurm-option", c.slurm.sbatch_options,
                    "With --slurm: an sbatch option for both jobs, e.g. "
                    "--slurm-option=--partition=debug (repeatable)")
        ->needs(slurm);
    cmd->add_flag("--slurm-script-only", c.slurm.script_only,
                  "With --slurm: write the batch scripts and print how to submit them")
        ->needs(slurm);
    cmd->add_flag("--slurm-wait", c.slurm.wait,
                  "With --slurm: wait for the merge job and exit with its status")
        ->needs(slurm);
    cmd->add_option("--set", c.options.sets, "Fix a key for every point: --set KEY=VALUE");
    cmd->add_flag("--resume", c.options.resume, "Run only points without a complete report");
    cmd->add_flag("--prune", c.options.prune, "Remove the files of points no longer in the sweep");
    cmd->add_flag("--no-plot", c.no_plot, "Do not draw plots");
}

void add_advise(CLI::App& app, AdviseRequest& a) {
    auto* cmd = app.add_subcommand(
        "advise",
        "Run the configuration, then once per knob moved one step its way (each in its own "
        "process), and rank the knobs by cycles saved");
    cmd->add_option("config", a.configs,
                    "YAML configs, later ones overriding earlier ones (default: "
                    "configs/default.yaml)");
    add_platform(*cmd, a.platform);
    cmd->add_option("--set", a.sets, "Override a key: --set KEY=VALUE (repeatable)");
    a.jobs = std::max(1u, std::thread::hardware_concurrency());
    cmd->add_option("-j,--jobs", a.jobs, "Runs at a time (default: cores)")
        ->check(CLI::Range(1u, 4096u));
    cmd->add_option("--json", a.json, "Write the ranked knobs as JSON here");
}

void add_merge(CLI::App& app, MergeCommand& c) {
    auto* cmd = app.add_subcommand("merge", "Join the output directories of a sharded sweep");
    cmd->add_option("dirs", c.dirs, "Shard output directories")->required();
    cmd->add_option("--out", c.out, "Merged output directory")->required();
    cmd->add_flag("--no-plot", c.no_plot, "Do not draw plots");
}

struct PlotCommand {
    PlotRequest request;
    std::vector<std::string> series;
    CLI::Option* series_option = nullptr;
};

void add_plot(CLI::App& app, PlotCommand& c) {
    PlotRequest& r = c.request;
    auto* cmd = app.add_subcommand(
        "plot", "Plot a results.csv with matplotlib (axes default to the sweep's own choice)");
    cmd->add_option("csv", r.csv, "results.csv of a sweep")->required();
    cmd->add_option("-o,--output", r.output, "FILE.png, FILE.svg or FILE.pdf")->required();
    cmd->add_option("--x", r.x, "Column on the x axis (any config key, result or statistic)");
    cmd->add_option("--y", r.y, "Column on the y axis, e.g. dma.ch0.descriptor_wait_cycles");
    c.series_option =
        cmd->add_option("--series", c.series, "Column(s) naming the lines (repeatable)")
            ->allow_extra_args(false);  // one column each, so the CSV may follow
    cmd->add_flag("--logx", r.logx, "Logarithmic x axis (base 2)");
    cmd->add_flag("--logy", r.logy, "Logarithmic y axis");
    cmd->add_flag("--heatmap", r.heatmap, "x against the series key, coloured by y");
    cmd->add_option("--stack", r.stack,
                    "Stacked bars of a statistic group's columns as shares per x, e.g. account "
                    "(the cycle account) or account.ch0");
    cmd->add_option("--where", r.where,
                    "Draw only the rows whose COLUMN holds VALUE: --where COLUMN=VALUE "
                    "(repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--facet", r.facet, "One panel per value of this column");
    cmd->add_option("--title", r.title, "Title (default: y vs. x)");
    cmd->add_option("--xlabel", r.xlabel, "x axis label (default: name and unit of x)");
    cmd->add_option("--ylabel", r.ylabel, "y axis label (default: name and unit of y)");
}

void add_config(CLI::App& app, ConfigCommand& c) {
    auto* cmd = app.add_subcommand(
        "config",
        "Explain config keys (default), print docs/configuration.md or a JSON Schema, or "
        "print a fully resolved config");
    cmd->add_flag("--explain",
                  "List keys (all, or the KEYs/sections given) with default, "
                  "unit, range and description");
    cmd->add_flag("--markdown", c.markdown, "Print docs/configuration.md");
    cmd->add_flag("--schema", c.schema, "Print a JSON Schema of every key (for editors)");
    cmd->add_flag("--resolve", c.resolve, "Print CONFIGs layered, with --set applied, every key");
    cmd->add_option("args", c.args,
                    "--explain: keys or sections; --resolve: configs (default: default.yaml)");
    add_platform(*cmd, c.platform);
    cmd->add_option("--set", c.sets, "Override a key for --resolve: --set KEY=VALUE");
}

void add_diff(CLI::App& app, DiffRequest& d) {
    auto* cmd = app.add_subcommand(
        "diff",
        "Compare two reports (or two sweep folders point by point): config keys that "
        "differ, every statistic side by side with its ratio");
    cmd->add_option("a", d.a, "Report JSON or sweep folder A")
        ->required()
        ->check(CLI::ExistingPath);
    cmd->add_option("b", d.b, "Report JSON or sweep folder B")
        ->required()
        ->check(CLI::ExistingPath);
    cmd->add_option("--threshold", d.threshold,
                    "Flag statistics whose values differ by more than this fraction (default 0.05)")
        ->check(CLI::Range(0.0, 1e9));
    cmd->add_flag("--check", d.fail_on_change, "Exit 1 if anything is flagged (regression checks)");
}

void add_fit(CLI::App& app, FitRequest& f) {
    auto* cmd = app.add_subcommand(
        "fit",
        "Fit whole-number keys of a profile to measured points (docs/engines.md, "
        "\"Fitting a profile with dmasim fit\")");
    cmd->add_option("profile", f.profile, "Profile YAML the fit starts from")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--points", f.points,
                    "CSV: config-key columns per point and a cycles or throughput_gbps column")
        ->required();
    cmd->add_option("--key", f.keys,
                    "A key to fit and its range: --key KEY=LO..HI (repeatable; none: score the "
                    "profile as it is)");
    cmd->add_option("-o,--output", f.output, "The fitted profile YAML to write")->required();
    cmd->add_option("--work", f.work_dir,
                    "Sweep folder of the fit's runs, reused by a rerun (default: OUTPUT.d)");
    f.jobs = std::max(1u, std::thread::hardware_concurrency());
    cmd->add_option("-j,--jobs", f.jobs, "Points run at a time (default: cores)")
        ->check(CLI::Range(1u, 4096u));
    f.max_sim_cycles = tb::kDefaultMaxSimCycles;
    add_max_sim_cycles(*cmd, f.max_sim_cycles,
                       "Passed to every point's run: a point not finished after this many "
                       "simulated cycles fails the fit");
}

void add_trace(CLI::App& app, ImportRequest& t) {
    auto* trace =
        app.add_subcommand("trace", "Request traces for workload.trace (docs/request-traces.md)");
    trace->require_subcommand(1);
    auto* cmd = trace->add_subcommand(
        "import",
        "Convert Linux ftrace text of dma:dma_map_sg and dma:dma_map_page events into a "
        "request trace");
    cmd->add_option("ftrace", t.input, "ftrace text (tracefs 'trace' or 'trace-cmd report')")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", t.output, "The request trace to write")->required();
    cmd->add_option("--device", t.device,
                    "Keep only this device's mappings (as the events name it, e.g. 0000:01:00.0)");
}

void add_stats(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "stats", "Print every result and statistic with unit and meaning (docs/statistics.md)");
    cmd->add_flag("--markdown", "Markdown, as in docs/statistics.md (the default)");
}

int config_command(const ConfigCommand& c) {
    if (c.markdown)
        fmt::print("{}", config_markdown());
    else if (c.schema)
        fmt::print("{}", config_schema());
    else if (c.resolve)
        fmt::print("{}", resolved_yaml(load_config(
                             c.args.empty() ? std::vector{default_config_path()} : c.args, c.sets,
                             c.platform)));
    else
        fmt::print("{}", explain_text(c.args));
    return 0;
}

/// The script exits 0, 1 (matplotlib missing, cannot write) or 2 (bad
/// arguments); anything else (python3 missing, a crash) is reported as 1.
int plot_command(PlotCommand& c) {
    if (c.series_option->count() > 0) c.request.series = c.series;
    const int status = run_plot(c.request);
    return status == 0 || status == kExitUsage ? status : 1;
}

int sweep_command(SweepCommand& c) {
    SweepOptions& o = c.options;
    if (!c.shard.empty()) o.shard = parse_shard(c.shard);
    // Shards default to directories of their own, so they never share files.
    if (o.out_dir.empty())
        o.out_dir =
            fmt::format("results/{}{}", std::filesystem::path(o.sweep_file).stem().string(),
                        o.shard.n > 1 ? fmt::format("-shard{}of{}", o.shard.k, o.shard.n) : "");
    o.plot = !c.no_plot;
    o.default_config = default_config_path();
    o.dmasim_exe = self_exe();
    o.check = check_scenario;
    o.host = {[](const tb::SimConfig& config) { return tb::host_bytes_needed(config); },
              tb::host_bytes_available};
    if (c.slurm.tasks > 0) {
        // This host's cores say nothing of a compute node's: one per task
        // unless -j says otherwise.
        c.slurm.cpus_per_task = c.jobs_option->count() > 0 ? o.jobs : 1;
        return submit_sweep_to_slurm(o, c.slurm);
    }
    return run_sweep(o);
}

int advise_command(AdviseRequest& a) {
    if (a.configs.empty()) a.configs = {default_config_path()};
    a.dmasim_exe = self_exe();
    a.check = check_scenario;
    a.host = {[](const tb::SimConfig& config) { return tb::host_bytes_needed(config); },
              tb::host_bytes_available};
    return run_advise(a);
}

}  // namespace

int cli_main(int argc, char* argv[]) {
    CLI::App app{"dmasim: a cycle-approximate simulator of a scatter/gather DMA engine", "dmasim"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "dmasim " DMASIM_VERSION);
    RunCommand run;
    SweepCommand sweep;
    MergeCommand merge;
    PlotCommand plot;
    ConfigCommand config;
    add_run(app, run);
    add_sweep(app, sweep);
    AdviseRequest advise;
    add_advise(app, advise);
    add_merge(app, merge);
    add_plot(app, plot);
    add_config(app, config);
    add_stats(app);
    DiffRequest diff;
    add_diff(app, diff);
    FitRequest fit;
    add_fit(app, fit);
    ImportRequest import;
    add_trace(app, import);
    app.add_subcommand("completion",
                       "Print the bash completion script: "
                       "source <(dmasim completion bash)")
        ->add_option("shell", "Shell (bash)")
        ->check(CLI::IsMember({"bash"}));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : kExitUsage;  // --help exits 0
    }
    try {
        if (app.got_subcommand("run")) return run_command(run);
        if (app.got_subcommand("sweep")) return sweep_command(sweep);
        if (app.got_subcommand("advise")) return advise_command(advise);
        if (app.got_subcommand("merge")) return merge_sweeps(merge.dirs, merge.out, !merge.no_plot);
        if (app.got_subcommand("plot")) return plot_command(plot);
        if (app.got_subcommand("diff")) return run_diff(diff);
        if (app.got_subcommand("fit")) {
            fit.dmasim_exe = self_exe();
            return run_fit(fit);
        }
        if (app.got_subcommand("trace")) return trace_import_command(import);
        if (app.got_subcommand("stats")) {
            fmt::print("{}", statistics_markdown());
            return 0;
        }
        if (app.got_subcommand("completion")) {
            fmt::print("{}", bash_completion());
            return 0;
        }
        return config_command(config);
    } catch (const ConfigError& e) {
        fmt::print(stderr, "dmasim: error: {}\n", e.what());
        return kExitUsage;
    } catch (const tb::ConfigError& e) {
        fmt::print(stderr, "dmasim: error: {}\n", e.what());
        return kExitUsage;
    } catch (const std::exception& e) {
        fmt::print(stderr, "dmasim: error: {}\n", e.what());
        return 1;
    }
}

}  // namespace dmasim::sim
