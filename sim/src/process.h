// process.h - child processes for sweeps and plots (fork + exec).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace dmasim::sim {

/// Starts argv[0] (a path) with `argv`. The child's stdout goes to
/// /dev/null when `discard_stdout`; its stderr to `stderr_path` when not
/// empty. Throws std::runtime_error if the process cannot be started.
pid_t spawn(const std::vector<std::string>& argv, const std::string& stderr_path,
            bool discard_stdout);

/// Waits for any child to end; returns its pid and exit status
/// (128 + signal number if it was killed, as shells report it).
std::pair<pid_t, int> wait_any();

/// Runs argv with the parent's stdout and stderr and returns its status.
int run_and_wait(const std::vector<std::string>& argv);

}  // namespace dmasim::sim
