// child_jobs.h - commands run as child processes, N at a time: a sweep's
// points and `dmasim advise`'s what-ifs, each a `dmasim run` of its own
// (SystemC elaborates once per process).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace dmasim::sim {

/// One command: argv[0] is a path; the child's stdout goes to /dev/null
/// and its stderr to `log`.
struct ChildJob {
    std::vector<std::string> argv;
    std::string log;
};

/// Status of a job that a signal kept from starting.
inline constexpr int kNotStarted = -1;

/// Runs `jobs`, `parallel` at a time, and returns each one's exit status
/// in job order; `done(i, status)` is called as job i ends. Call
/// forward_signals_to_children() first: after SIGINT/SIGTERM no job
/// starts (its status is kNotStarted) and the running ones are waited for.
std::vector<int> run_children(const std::vector<ChildJob>& jobs, unsigned parallel,
                              const std::function<void(size_t, int)>& done = {});

/// The gist of a child's stderr log: dmasim's own messages if it printed
/// any, else the first lines (e.g. a crash report's headline).
std::string log_gist(const std::string& path);

}  // namespace dmasim::sim
