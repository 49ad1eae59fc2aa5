// temp_files.h - the temporary files and directories this process is
// writing, so that a SIGINT/SIGTERM/SIGHUP handler can remove them before the
// process exits (a killed run must not leave *.tmp.PID files behind).
#pragma once

#include <signal.h>

#include <string>

namespace dmasim::tb::temp_files {

/// Records `path`; returns a slot for drop(), or -1 if the table is full
/// (the file is then only removed by its owner).
int add(const std::string& path);
/// Forgets a slot (the owner published or removed the file).
void drop(int slot);
/// Removes every recorded file and directory, files before directories. Async-signal-
/// safe: only unlink() and rmdir() on preformatted paths.
void remove_all();

}  // namespace dmasim::tb::temp_files

namespace dmasim::tb {

/// SIGINT, SIGTERM and SIGHUP: the signals that end a run or sweep early.
inline constexpr int kTerminationSignals[] = {SIGINT, SIGTERM, SIGHUP};
/// The same as a set.
sigset_t termination_signals();

/// Holds the termination signals back while in scope, so that no handler runs
/// between creating a file and recording it (or, in a sweep, between
/// fork() and tracking the child); a signal that came meanwhile is
/// delivered when the scope ends.
class SignalsBlocked {
public:
    SignalsBlocked();
    ~SignalsBlocked();
    SignalsBlocked(const SignalsBlocked&) = delete;
    SignalsBlocked& operator=(const SignalsBlocked&) = delete;
};

}  // namespace dmasim::tb
