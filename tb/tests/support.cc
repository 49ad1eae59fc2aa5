// support.cc - see support.h.
#include "support.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "../config/src/xfer_spec.h"

namespace dmasim::tb::test {

SimConfig small_config() {
    SimConfig c;
    c.memory_size_mib = 64;
    c.placement = SIM_MEM_SCATTERED;
    c.workload.entries = 37;
    c.workload.segment_bytes = 1001;
    c.workload.offset = 13;
    c.workload.chain_depth = 3;
    c.workload.seed = 7;
    return c;
}

namespace {

/// The child's side: runs `c` and writes "integrity bytes held classes failure".
[[noreturn]] void report_run(const SimConfig& c, int fd) {
    std::string text;
    try {
        const RunResult r = run_simulation(c);
        unsigned held = 0, classes = 0;
        for (const ScenarioResult& s : r.scenario_results)
            if (s.name.size() > 5 && s.name.compare(s.name.size() - 5, 5, ".held") == 0) {
                ++classes;
                held += s.value == 1;
            }
        text =
            fmt::format("{} {} {} {} {}", r.integrity ? 1 : 0, r.bytes, held, classes, r.failure);
    } catch (const std::exception& e) {
        text = fmt::format("0 0 0 0 run_simulation threw: {}", e.what());
    }
    const bool sent = write(fd, text.data(), text.size()) == ssize_t(text.size());
    _exit(sent ? 0 : 1);
}

}  // namespace

ChildRun run_in_child(const SimConfig& c) {
    int fds[2];
    if (pipe(fds) != 0) return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        report_run(c, fds[1]);
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
    close(fds[0]);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return {};
    ChildRun o;
    unsigned integrity = 0;
    int used = 0;
    unsigned long long bytes = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        std::sscanf(text.c_str(), "%u %llu %u %u %n", &integrity, &bytes, &o.held, &o.classes,
                    &used) != 4)
        return o;
    o.ran = true;
    o.integrity = integrity == 1;
    o.bytes = bytes;
    o.failure = text.substr(size_t(used));
    return o;
}

uint64_t list_bytes(const WorkloadConfig& w) {
    dmasim_load_spec spec = make_load_spec(w, DMA_HW_FMT_CHAINED_PAGES);
    dmasim_seg_rng rng;
    dmasim_seg_rng_init(&rng, &spec.seg);
    uint64_t bytes = 0;
    for (uint64_t i = 0; i < w.entries; ++i) bytes += dmasim_seg_next_len(&rng, &spec.seg);
    return bytes;
}

const ScenarioInfo& scenario(const char* name) {
    const ScenarioInfo* info = ScenarioRegistry::instance().find(name);
    EXPECT_NE(info, nullptr) << name;
    return *info;
}

}  // namespace dmasim::tb::test

// libsystemc references sc_main even though gtest's main() runs the tests.
extern "C" int sc_main(int, char*[]) { return 0; }
