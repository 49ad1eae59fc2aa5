// sweep_slurm.h - `dmasim sweep SWEEP.yaml --slurm N`: the sweep as a Slurm
// job array (task K runs `dmasim sweep --shard K/N`) and a merge job that
// depends on it (`dmasim merge`), both written as batch scripts under
// OUT/slurm/ and submitted with sbatch (docs/sweeps.md, "On a cluster").
#pragma once

#include <string>
#include <vector>

#include "sweep_runner.h"

namespace dmasim::sim {

struct SlurmOptions {
    unsigned tasks = 0;          ///< array tasks, one shard each (clamped to the runnable points)
    unsigned cpus_per_task = 1;  ///< each task's `#SBATCH --cpus-per-task` and `-j`
    /// --slurm-option: more sbatch options (`--partition=p`), one `#SBATCH`
    /// line each in both scripts.
    std::vector<std::string> sbatch_options;
    bool script_only = false;  ///< write the scripts, print how to submit them
    bool wait = false;         ///< sbatch --wait on the merge job: return its status
};

/// Checks the sweep as `dmasim sweep` would (a bad file throws ConfigError,
/// exit 2), checks OUT can become a sweep folder, writes OUT/slurm/shards.sbatch
/// and OUT/slurm/merge.sbatch, and unless `script_only` submits both.
/// Returns 0 once submitted (with `wait`: the merge job's exit status), 1 if
/// sbatch refused a job. Throws ConfigError if sbatch is not on PATH, or an
/// option or the output folder cannot be used.
int submit_sweep_to_slurm(const SweepOptions& sweep, const SlurmOptions& slurm);

}  // namespace dmasim::sim
