// advise.cc - the what-ifs of `dmasim advise`: choosing and checking the
// steps, running them as children, and reading their reports back.
#include "advise.h"

#include <dmasim/files/atomic_file.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "advice.h"
#include "child_jobs.h"
#include "config_docs.h"
#include "config_loader.h"
#include "progress.h"
#include "report_read.h"
#include "signals.h"
#include "sweep_identity.h"
#include "what_if.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

/// A private folder for the runs' config, reports and logs, removed with
/// everything in it when advise ends (an interrupted one too: signals
/// are forwarded to the runs, then advise returns through here).
class WorkDir {
public:
    WorkDir() {
        std::string name = (fs::temp_directory_path() / "dmasim-advise.XXXXXX").string();
        if (!mkdtemp(name.data()))
            throw std::runtime_error(
                fmt::format("cannot create a folder for the runs: {}", std::strerror(errno)));
        path_ = name;
    }
    ~WorkDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;

    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

/// Every knob's what-if step that this configuration allows: a step that
/// breaks a config rule (or the scenario's check) here is refused.
void choose_steps(const ConfigBuilder& base, const PointCheck& check,
                  std::vector<WhatIfStep>& steps, std::vector<RefusedStep>& refused) {
    const Location where{"what-if"};
    for (const KeyDef& key : config_keys()) {
        const Value current = key.get(base.config());
        const std::optional<Value> to = what_if_value(key, current);
        if (!to) continue;
        const WhatIfStep step{&key, format_value(current), format_value(*to)};
        ConfigBuilder moved = base;
        try {
            moved.apply(key.name, step.to, where);
            moved.validate();
            if (check) check(moved);
            steps.push_back(step);
        } catch (const ConfigError& e) {
            refused.push_back({step, e.what()});
        }
    }
}

/// `dmasim run` of the resolved configuration, with `sets` on top.
ChildJob run_job(const AdviseRequest& r, const WorkDir& work, size_t index,
                 std::vector<std::string> sets) {
    std::vector<std::string> argv = {r.dmasim_exe,
                                     "run",
                                     work.file("config.yaml"),
                                     "--report",
                                     work.file(fmt::format("{}.json", index)),
                                     "--max-sim-cycles",
                                     std::to_string(r.max_sim_cycles),
                                     "--quiet"};
    for (auto& set : sets) {
        argv.push_back("--set");
        argv.push_back(std::move(set));
    }
    return {argv, work.file(fmt::format("{}.log", index))};
}

}  // namespace

int run_advise(const AdviseRequest& r) {
    const ConfigBuilder base = build_config(r.configs, r.sets, r.platform);
    if (r.check) r.check(base);
    // Every run reads the configuration's files again, in a process of its own.
    check_rereadable_inputs(base.config());
    if (!r.json.empty())
        if (std::string why = tb::unwritable(r.json); !why.empty())
            throw ConfigError({"--json " + excerpt(r.json)}, why);
    std::vector<const tb::SimConfig*> one = {&base.config()};
    if (std::string why = host_memory_at_once_error(r.host, one, r.jobs); !why.empty())
        throw ConfigError({fmt::format("-j {}", r.jobs)}, why);

    Advice advice;
    std::vector<WhatIfStep> steps;
    choose_steps(base, r.check, steps, advice.refused);

    const WorkDir work;
    tb::write_file_atomically(work.file("config.yaml"), resolved_yaml(base.config()));
    std::vector<ChildJob> jobs = {run_job(r, work, 0, {})};
    for (size_t i = 0; i < steps.size(); ++i)
        jobs.push_back(
            run_job(r, work, i + 1, {fmt::format("{}={}", steps[i].key->name, steps[i].to)}));

    forward_signals_to_children();
    std::optional<Progress> progress;
    if (isatty(STDOUT_FILENO)) progress.emplace(jobs.size(), true);
    const std::vector<int> statuses = run_children(jobs, r.jobs, [&](size_t i, int status) {
        if (progress) progress->point_done(i, status);
    });
    if (progress) progress->finish();
    if (received_signal()) {
        fmt::print(stderr, "dmasim: advise interrupted by signal {}: the runs were stopped\n",
                   received_signal());
        return interrupt_status();
    }
    if (statuses[0] != 0)
        throw std::runtime_error(
            fmt::format("the configuration itself failed to run (exit status {}):\n      {}",
                        statuses[0], log_gist(jobs[0].log)));

    advice.baseline = read_report(work.file("0.json"));
    for (size_t i = 0; i < steps.size(); ++i) {
        if (statuses[i + 1] != 0) {
            advice.failed.push_back({steps[i], statuses[i + 1], log_gist(jobs[i + 1].log)});
            continue;
        }
        const Json report = read_report(work.file(fmt::format("{}.json", i + 1)));
        advice.results.push_back(compare_to_baseline(steps[i], advice.baseline, report));
    }
    rank(advice.results);
    fmt::print("{}", advice_text(advice));
    if (!r.json.empty())
        if (std::string why =
                tb::write_file_atomically_or_error(r.json, advice_json(advice).dump(2) + "\n");
            !why.empty())
            throw std::runtime_error(fmt::format("--json not written: {}", why));
    return advice.failed.empty() ? 0 : 1;
}

}  // namespace dmasim::sim
