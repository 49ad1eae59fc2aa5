// process.h - child processes for sweeps and plots (fork + exec).
#pragma once

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace dmasim::sim {

/// Starts argv[0] (a path) with `argv`. The child's stdout and stderr go
/// to the named files (created or truncated), or stay the parent's when a
/// name is empty. With `cpu_seconds`, the child is ended by SIGXCPU once
/// it has used that much CPU. Throws std::runtime_error if the process
/// cannot be started.
pid_t spawn(const std::vector<std::string>& argv, const std::string& stdout_path,
            const std::string& stderr_path, unsigned cpu_seconds = 0);

/// Waits for any child to end; returns its pid and exit status
/// (128 + signal number if it was killed, as shells report it).
std::pair<pid_t, int> wait_any();

/// Runs argv with the parent's stdout and stderr and returns its status.
int run_and_wait(const std::vector<std::string>& argv);

/// Runs argv with its stdout captured into `out` (stderr stays the
/// parent's) and returns its status, as run_and_wait().
int run_and_capture(const std::vector<std::string>& argv, std::string& out);

/// The absolute path of `program` in a folder of $PATH that holds it as an
/// executable file, or "" if none does.
std::string find_on_path(const std::string& program);

}  // namespace dmasim::sim
