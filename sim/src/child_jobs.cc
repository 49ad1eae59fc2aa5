// child_jobs.cc - see child_jobs.h.
#include "child_jobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "process.h"
#include "signals.h"

namespace dmasim::sim {

std::vector<int> run_children(const std::vector<ChildJob>& jobs, unsigned parallel,
                              const std::function<void(size_t, int)>& done) {
    std::vector<int> statuses(jobs.size(), kNotStarted);
    std::map<pid_t, size_t> running;
    size_t next = 0;
    // After SIGINT/SIGTERM (forwarded to the running children) no job
    // starts; the loop only waits for the running ones to clean up.
    while ((next < jobs.size() && !received_signal()) || !running.empty()) {
        while (running.size() < std::max(1u, parallel) && next < jobs.size() &&
               !received_signal()) {
            SignalsBlocked blocked;
            const pid_t pid = spawn(jobs[next].argv, "/dev/null", jobs[next].log);
            track_child(pid);
            running[pid] = next++;
        }
        auto [pid, status] = wait_any();
        untrack_child(pid);
        auto it = running.find(pid);
        if (it == running.end()) continue;
        statuses[it->second] = status;
        if (done) done(it->second, status);
        running.erase(it);
    }
    return statuses;
}

std::string log_gist(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> all, ours;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        all.push_back(line);
        if (line.rfind("dmasim", 0) == 0) ours.push_back(line);
    }
    const auto& lines = ours.empty() ? all : ours;
    const size_t keep = std::min<size_t>(lines.size(), 3);
    return fmt::format("{}", fmt::join(lines.begin(), lines.begin() + keep, "\n      "));
}

}  // namespace dmasim::sim
