// signals.cc - see signals.h. Handlers use only async-signal-safe calls.
#include "signals.h"

#include <dmasim/files/temp_files.h>
#include <signal.h>
#include <unistd.h>

namespace dmasim::sim {
namespace {

// Enough for --jobs up to its CLI maximum.
constexpr int kMaxChildren = 4096;
volatile pid_t children[kMaxChildren];
volatile sig_atomic_t received = 0;

// Preformatted: a handler cannot format.
const char* stop_message(int sig) {
    switch (sig) {
        case SIGINT:
            return "dmasim: stopped by SIGINT: temporary files removed, nothing published\n";
        case SIGTERM:
            return "dmasim: stopped by SIGTERM: temporary files removed, nothing published\n";
        case SIGHUP:
            return "dmasim: stopped by SIGHUP (hang-up): temporary files removed, nothing "
                   "published\n";
    }
    return "dmasim: stopped by a signal: temporary files removed, nothing published\n";
}

void exit_handler(int sig) {
    tb::temp_files::remove_all();
    const char* message = stop_message(sig);
    size_t length = 0;
    while (message[length]) ++length;
    // Nothing to do if stderr is gone too; the exit status still tells.
    [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, length);
    _exit(128 + sig);
}

void forward_handler(int sig) {
    received = sig;
    for (int i = 0; i < kMaxChildren; ++i)
        if (children[i] > 0) kill(children[i], sig);
}

// The signals whose default action would kill the process mid-write. A
// write past RLIMIT_FSIZE or into a pipe without reader then fails with
// EFBIG or EPIPE instead, and the writer names the file it could not write.
constexpr int kWriteSignals[] = {SIGPIPE, SIGXFSZ};

void install(void (*handler)(int)) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sa.sa_mask = tb::termination_signals();
    for (int sig : tb::kTerminationSignals) sigaction(sig, &sa, nullptr);
    for (int sig : kWriteSignals) signal(sig, SIG_IGN);
}

}  // namespace

void exit_cleanly_on_signals() { install(exit_handler); }

void forward_signals_to_children() { install(forward_handler); }

void track_child(pid_t pid) {
    for (int i = 0; i < kMaxChildren; ++i)
        if (children[i] <= 0) {
            children[i] = pid;
            return;
        }
}

void untrack_child(pid_t pid) {
    for (int i = 0; i < kMaxChildren; ++i)
        if (children[i] == pid) children[i] = 0;
}

int received_signal() { return received; }

int interrupt_status() { return 128 + received; }

void reset_signals_in_child() {
    for (int sig : tb::kTerminationSignals) signal(sig, SIG_DFL);
    for (int sig : kWriteSignals) signal(sig, SIG_DFL);  // SIG_IGN would survive exec
    const sigset_t set = tb::termination_signals();
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace dmasim::sim
