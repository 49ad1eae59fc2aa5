// scenario_test_main.cc - main() of a scenario test program built with
// dmasim_add_scenario_tests() (docs/scenarios.md). SystemC elaborates once
// per process, so each selected test case runs in a child process of its
// own (this program again, with --gtest_filter naming the case), and the
// program passes only if every child does. Listing the cases, or a command
// line that selects one case (as ctest's do), runs in this process.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char* kChildVariable = "DMASIM_TEST_CASE_PROCESS";

/// Runs this program with `args` appended to `argv`; returns its exit
/// status (1 if it could not run or died), its standard output in `out`
/// if given.
int run_self(const std::vector<std::string>& argv, const std::vector<std::string>& args,
             std::string* out) {
    int pipe_fds[2] = {-1, -1};
    if (out && pipe(pipe_fds) != 0) return 1;
    const pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        if (out) {
            dup2(pipe_fds[1], STDOUT_FILENO);
            close(pipe_fds[0]);
            close(pipe_fds[1]);
        }
        std::vector<char*> child;
        for (const auto& a : argv) child.push_back(const_cast<char*>(a.c_str()));
        for (const auto& a : args) child.push_back(const_cast<char*>(a.c_str()));
        child.push_back(nullptr);
        setenv(kChildVariable, "1", 1);
        execv("/proc/self/exe", child.data());
        _exit(127);
    }
    if (out) {
        close(pipe_fds[1]);
        char buffer[4096];
        for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) out->append(buffer, n);
        close(pipe_fds[0]);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/// "Suite.Case" for every case the command line selects, from the
/// program's own --gtest_list_tests (so every filter rule of GoogleTest
/// applies unchanged).
std::vector<std::string> selected_cases(const std::vector<std::string>& argv) {
    std::string listing;
    if (run_self(argv, {"--gtest_list_tests"}, &listing) != 0) return {};
    std::vector<std::string> cases;
    std::string suite;
    size_t start = 0;
    while (start < listing.size()) {
        size_t end = listing.find('\n', start);
        if (end == std::string::npos) end = listing.size();
        const std::string line = listing.substr(start, end - start);
        start = end + 1;
        const size_t from = line.find_first_not_of(' ');
        if (from == std::string::npos) continue;
        // "Suite." starts a line, "  Case" is indented; "  # ..." follows
        // parameterised names.
        const std::string name = line.substr(from, line.find_first_of(" #", from) - from);
        if (from == 0)
            suite = name;
        else
            cases.push_back(suite + name);
    }
    return cases;
}

}  // namespace

// libsystemc references sc_main; this main() is the one linked, and the
// tests elaborate through run_simulation(), so it is never called.
extern "C" int sc_main(int, char*[]) { return 1; }

int main(int argc, char** argv) {
    const std::vector<std::string> original(argv, argv + argc);
    testing::InitGoogleTest(&argc, argv);
    if (std::getenv(kChildVariable) || GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();
    const std::vector<std::string> cases = selected_cases(original);
    if (cases.size() <= 1) return RUN_ALL_TESTS();

    std::vector<std::string> failed;
    for (const auto& name : cases)
        if (run_self(original, {"--gtest_filter=" + name}, nullptr) != 0) failed.push_back(name);
    std::printf("[ dmasim  ] %zu of %zu test cases passed, each in a process of its own\n",
                cases.size() - failed.size(), cases.size());
    for (const auto& name : failed) std::printf("[  FAILED  ] %s\n", name.c_str());
    return failed.empty() ? 0 : 1;
}
