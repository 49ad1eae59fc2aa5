// process.cc - fork, exec and wait.
#include "process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "signals.h"

namespace dmasim::sim {
namespace {

/// In the child: point `fd` at `path` (opened for writing), or die. A
/// symlink planted at a point's log name is refused, never followed into
/// a file to truncate.
void redirect(int fd, const char* path) {
    int target = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (target < 0 || dup2(target, fd) < 0) _exit(127);
    close(target);
}

int status_code(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 127;
}

}  // namespace

pid_t spawn(const std::vector<std::string>& argv, const std::string& stdout_path,
            const std::string& stderr_path, unsigned cpu_seconds) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(fmt::format("fork failed: {}", std::strerror(errno)));
    if (pid == 0) {
        reset_signals_in_child();
        if (!stdout_path.empty()) redirect(STDOUT_FILENO, stdout_path.c_str());
        if (!stderr_path.empty()) redirect(STDERR_FILENO, stderr_path.c_str());
        if (cpu_seconds != 0) {
            // SIGXCPU at the soft limit ends it; the hard one is a backstop.
            const rlimit cpu{cpu_seconds, cpu_seconds + 1};
            setrlimit(RLIMIT_CPU, &cpu);
        }
        execv(args[0], args.data());
        // Only reached if exec failed; the parent reads this from the log.
        fmt::print(stderr, "cannot run {}: {}\n", argv[0], std::strerror(errno));
        _exit(127);
    }
    return pid;
}

std::pair<pid_t, int> wait_any() {
    int status = 0;
    pid_t pid;
    do {
        pid = waitpid(-1, &status, 0);
    } while (pid < 0 && errno == EINTR);
    if (pid < 0) throw std::runtime_error(fmt::format("waitpid failed: {}", std::strerror(errno)));
    return {pid, status_code(status)};
}

int run_and_wait(const std::vector<std::string>& argv) {
    pid_t pid = spawn(argv, "", "");
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw std::runtime_error("waitpid failed");
    return status_code(status);
}

int run_and_capture(const std::vector<std::string>& argv, std::string& out) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(fmt::format("pipe failed: {}", std::strerror(errno)));
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        throw std::runtime_error(fmt::format("fork failed: {}", std::strerror(errno)));
    }
    if (pid == 0) {
        reset_signals_in_child();
        if (dup2(fds[1], STDOUT_FILENO) < 0) _exit(127);
        execv(args[0], args.data());
        fmt::print(stderr, "cannot run {}: {}\n", argv[0], std::strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    out.clear();
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(fds[0], buffer, sizeof buffer);
        if (n > 0)
            out.append(buffer, static_cast<size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw std::runtime_error("waitpid failed");
    return status_code(status);
}

std::string find_on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::istringstream folders(path ? path : "");
    for (std::string folder; std::getline(folders, folder, ':');) {
        if (folder.empty()) continue;  // "" means the current folder: not looked in
        const std::filesystem::path candidate = std::filesystem::path(folder) / program;
        std::error_code ec;
        if (std::filesystem::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0)
            return std::filesystem::absolute(candidate, ec).string();
    }
    return "";
}

}  // namespace dmasim::sim
