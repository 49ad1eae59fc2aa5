// e2e_support.cc - child processes for the end-to-end tests.
#include "e2e_support.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "process.h"

namespace dmasim::sim::test {

std::string dmasim_exe() { return DMASIM_EXE; }

Outcome run_program(const TempDir& scratch, const std::vector<std::string>& argv) {
    const std::string out = scratch.path() + "/.stdout", err = scratch.path() + "/.stderr";
    pid_t pid = spawn(argv, out, err);
    int status = 0;
    waitpid(pid, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_file(out),
            read_file(err)};
}

std::string report_of_run(const TempDir& scratch, const std::vector<std::string>& args) {
    const std::string report = scratch.path() + "/report.json";
    std::vector<std::string> argv = {"run", "--quiet", "--report", report};
    argv.insert(argv.end(), args.begin(), args.end());
    const Outcome r = run_dmasim(scratch, argv);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? read_file(report) : std::string();
}

Outcome run_dmasim(const TempDir& scratch, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {dmasim_exe()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_program(scratch, argv);
}

}  // namespace dmasim::sim::test
