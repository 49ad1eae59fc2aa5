// e2e_support.h - running the real dmasim binary (path from CMake) as a
// child process and capturing what it prints.
#pragma once

#include <string>
#include <vector>

#include "support.h"

namespace dmasim::sim::test {

struct Outcome {
    int status = -1;
    std::string out;
    std::string err;
};

/// Runs `dmasim args...` with stdout and stderr captured into `scratch`.
Outcome run_dmasim(const TempDir& scratch, const std::vector<std::string>& args);

/// Runs `dmasim run --quiet --report R args...` and returns R's text, or
/// an empty string, with a test failure naming stderr, if the run failed.
std::string report_of_run(const TempDir& scratch, const std::vector<std::string>& args);

/// Runs any program (argv[0] a path) the same way.
Outcome run_program(const TempDir& scratch, const std::vector<std::string>& argv);

/// The dmasim binary under test.
std::string dmasim_exe();

}  // namespace dmasim::sim::test
