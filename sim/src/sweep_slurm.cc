// sweep_slurm.cc - writes the two batch scripts of a sweep on Slurm (a job
// array of shards, a merge after it) and submits them with sbatch. The
// scripts only call `dmasim sweep --shard` and `dmasim merge`, so what runs
// on the cluster is what runs on one machine.
#include "sweep_slurm.h"

#include <dmasim/tb/figure_format.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "config_error.h"
#include "process.h"
#include "report.h"
#include "sweep_dir.h"

namespace dmasim::sim {

namespace figures = tb::figures;
namespace {

namespace fs = std::filesystem;

/// The second line of every script this file writes: a script there
/// without it is someone else's and is never replaced.
constexpr const char* kMarker = "# Written by `dmasim sweep --slurm`";

/// `text` as one shell word.
std::string shell_quote(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// The batch scripts name OUT in `#SBATCH --output=` lines, which sbatch
/// splits at blanks and in which it expands `%` patterns: refuse what would
/// change the path rather than write logs somewhere else.
void check_sbatch_path(const std::string& out) {
    if (out.find_first_of(" \t\n\r%'\"\\") != std::string::npos)
        throw ConfigError({"--out", 0},
                          fmt::format("{}: with --slurm the output folder may not contain blanks, "
                                      "quotes, backslashes or '%' (the batch scripts' #SBATCH "
                                      "lines name it)",
                                      excerpt(out)));
}

/// --slurm-option values: one sbatch option each, as `#SBATCH` lines. The
/// array, the dependency and --wait are this command's own.
void check_sbatch_options(const std::vector<std::string>& options) {
    for (const auto& option : options) {
        const std::string name = option.substr(0, option.find('='));
        std::string why;
        if (option.size() < 2 || option[0] != '-')
            why = "is not an sbatch option (write --slurm-option=--partition=NAME)";
        else if (option.find_first_of(" \t\n\r") != std::string::npos)
            why = "contains a blank (an #SBATCH line would split it; use --opt=value)";
        else if (name == "--array" || name == "-a" || name == "--dependency" || name == "-d" ||
                 name == "--wait" || name == "-W")
            why =
                "is set by dmasim sweep --slurm itself (the array of shards and the merge "
                "that waits for it)";
        if (!why.empty())
            throw ConfigError({"--slurm-option", 0}, fmt::format("{} {}", excerpt(option), why));
    }
}

/// Writes `text` at `path` unless something dmasim did not write is there.
void write_script(const std::string& path, const std::string& text) {
    std::error_code ec;
    const auto status = fs::symlink_status(path, ec);
    if (fs::exists(status)) {
        std::ifstream in(path);
        std::string first, second;
        std::getline(in, first);
        std::getline(in, second);
        if (status.type() != fs::file_type::regular || second.rfind(kMarker, 0) != 0)
            throw ConfigError({path, 0},
                              "is already there and was not written by dmasim sweep --slurm; "
                              "move it away or choose another --out");
    }
    write_file_atomically(path, text);
}

std::string job_name(const std::string& sweep_file) {
    std::string name = "dmasim-" + fs::path(sweep_file).stem().string();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
            c = '_';
    return name;
}

struct Scripts {
    std::string dir;  ///< OUT/slurm
    std::string shards;
    std::string merge;
};

std::string header(const std::string& what, const std::string& name, const std::string& log) {
    return fmt::format(
        "#!/bin/bash\n{}; the next one into this folder rewrites it.\n# {}\n"
        "#SBATCH --job-name={}\n#SBATCH --output={}\n",
        kMarker, what, name, log);
}

std::string user_options(const SlurmOptions& s) {
    std::string text;
    for (const auto& option : s.sbatch_options) text += fmt::format("#SBATCH {}\n", option);
    return text;
}

/// Task K of the array runs shard K/N into OUT/shard-K, with the sweep's
/// own options; plots are drawn once, by the merge.
std::string shards_script(const SweepOptions& o, const SlurmOptions& s, const std::string& sweep,
                          const std::string& out) {
    std::string text = header("The shards of the sweep: task K runs shard K/N into shard-K/.",
                              job_name(sweep), out + "/slurm/shard-%a.out");
    text +=
        fmt::format("#SBATCH --array=1-{}\n#SBATCH --cpus-per-task={}\n", s.tasks, s.cpus_per_task);
    text += user_options(s);
    text += "set -eu\n";
    text += fmt::format(
        "exec {} sweep {} --out {}\"/shard-$SLURM_ARRAY_TASK_ID\" \\\n"
        "    --shard \"$SLURM_ARRAY_TASK_ID/{}\" -j \"${{SLURM_CPUS_PER_TASK:-{}}}\" --no-plot \\\n"
        "    --max-points {} --max-sim-cycles {}",
        shell_quote(o.dmasim_exe), shell_quote(sweep), shell_quote(out), s.tasks, s.cpus_per_task,
        o.max_points, o.max_sim_cycles);
    for (const auto& set : o.sets) text += " --set " + shell_quote(set);
    if (o.resume) text += " --resume";
    if (o.prune) text += " --prune";
    return text + "\n";
}

std::string merge_script(const SweepOptions& o, const SlurmOptions& s, const std::string& sweep,
                         const std::string& out) {
    std::string text = header("Joins the shards into this folder once every task has ended.",
                              job_name(sweep) + "-merge", out + "/slurm/merge.out");
    text += user_options(s);
    text += fmt::format("set -eu\nexec {} merge", shell_quote(o.dmasim_exe));
    for (unsigned k = 1; k <= s.tasks; ++k)
        text += fmt::format(" \\\n    {}", shell_quote(fmt::format("{}/shard-{}", out, k)));
    text += fmt::format(" \\\n    --out {}{}\n", shell_quote(out), o.plot ? "" : " --no-plot");
    return text;
}

/// The job id in `sbatch --parsable` output: "ID" or "ID;CLUSTER".
std::string parsable_job_id(const std::string& printed) {
    const std::string id = printed.substr(0, printed.find_first_of(";\n"));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) return "";
    return id;
}

}  // namespace

int submit_sweep_to_slurm(const SweepOptions& o, const SlurmOptions& requested) {
    SlurmOptions s = requested;
    check_sbatch_options(s.sbatch_options);
    const std::string sweep = fs::absolute(o.sweep_file).lexically_normal().string();
    const std::string out = fs::absolute(o.out_dir).lexically_normal().string();
    check_sbatch_path(out);
    const std::string sbatch = s.script_only ? "" : find_on_path("sbatch");
    if (!s.script_only && sbatch.empty())
        throw ConfigError({"--slurm", 0},
                          "sbatch (Slurm's client) is not on PATH: install it (Debian: "
                          "slurm-client), or add --slurm-script-only and submit the scripts "
                          "where Slurm is");

    // The whole sweep is read and every point resolved here, so a bad file
    // fails now (exit 2), not in N jobs later.
    SweepSpec spec = load_sweep(sweep, o.default_config, o.max_points);
    spec.cli_sets = o.sets;
    const std::vector<SweepPoint> points = expand_sweep(spec, o.check);
    const size_t runnable = std::count_if(points.begin(), points.end(),
                                          [](const SweepPoint& p) { return p.skipped.empty(); });
    if (s.tasks > std::max<size_t>(runnable, 1)) {
        fmt::print(
            "{}: {} instead of {}\n", figures::count(runnable, "runnable point", "runnable points"),
            figures::count(std::max<size_t>(runnable, 1), "array task", "array tasks"), s.tasks);
        s.tasks = static_cast<unsigned>(std::max<size_t>(runnable, 1));
    }

    // Every folder a job will write is checked (and made) now, as the
    // sweep and the merge would check it, so a refusal comes before any
    // job is queued.
    SweepDir{out}.create();
    for (unsigned k = 1; k <= s.tasks; ++k) SweepDir{fmt::format("{}/shard-{}", out, k)}.create();
    const Scripts scripts{out + "/slurm", out + "/slurm/shards.sbatch",
                          out + "/slurm/merge.sbatch"};
    std::error_code ec;
    fs::create_directories(scripts.dir, ec);
    if (ec) throw ConfigError({scripts.dir, 0}, fmt::format("cannot create it: {}", ec.message()));
    write_script(scripts.shards, shards_script(o, s, sweep, out));
    write_script(scripts.merge, merge_script(o, s, sweep, out));
    fmt::print("sweep {}: {}, {} skipped: {} of {} each\n", sweep,
               figures::count(points.size(), "point", "points"), points.size() - runnable,
               figures::count(s.tasks, "Slurm array task", "Slurm array tasks"),
               figures::count(s.cpus_per_task, "cpu", "cpus"));
    fmt::print("wrote {} and {}\n", scripts.shards, scripts.merge);

    if (s.script_only) {
        fmt::print(
            "submit them with\n"
            "  job=$(sbatch --parsable {})\n"
            "  sbatch --dependency=afterany:${{job%%;*}} {}\n",
            scripts.shards, scripts.merge);
        return 0;
    }
    std::fflush(stdout);
    std::string printed;
    const int status = run_and_capture({sbatch, "--parsable", scripts.shards}, printed);
    const std::string array = parsable_job_id(printed);
    if (status != 0 || array.empty()) {
        fmt::print(stderr, "dmasim: error: sbatch {} failed (exit status {}){}\n", scripts.shards,
                   status, printed.empty() ? "" : ": " + printed);
        return 1;
    }
    fmt::print("submitted the shards: job array {} (logs {}/shard-K.out)\n", array, scripts.dir);
    std::fflush(stdout);
    // afterany: a shard with a failed point exits 1, and its other points
    // are still worth merging; the merge names the points without a report.
    std::vector<std::string> merge{sbatch, "--dependency=afterany:" + array,
                                   "--kill-on-invalid-dep=yes"};
    if (s.wait) {
        merge.push_back("--wait");
        merge.push_back(scripts.merge);
        fmt::print("the merge writes {}/results.csv (log {}/merge.out); waiting for it\n", out,
                   scripts.dir);
        std::fflush(stdout);
        const int merged = run_and_wait(merge);
        if (merged != 0)
            fmt::print(stderr, "dmasim: the merge job (or sbatch --wait) ended with status {}\n",
                       merged);
        return merged == 0 ? 0 : 1;
    }
    merge.insert(merge.begin() + 1, "--parsable");
    merge.push_back(scripts.merge);
    if (run_and_capture(merge, printed) != 0 || parsable_job_id(printed).empty()) {
        fmt::print(stderr,
                   "dmasim: error: sbatch {} failed{}; the shards (job {}) still run: merge "
                   "them with sbatch --dependency=afterany:{} {}\n",
                   scripts.merge, printed.empty() ? "" : ": " + printed, array, array,
                   scripts.merge);
        return 1;
    }
    fmt::print(
        "submitted the merge: job {}, after job {}; it writes {}/results.csv (log {}/merge.out)\n",
        parsable_job_id(printed), array, out, scripts.dir);
    return 0;
}

}  // namespace dmasim::sim
