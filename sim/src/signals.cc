// signals.cc - see signals.h. Handlers use only async-signal-safe calls.
#include "signals.h"

#include <dmasim/tb/temp_files.h>
#include <signal.h>
#include <unistd.h>

namespace dmasim::sim {
namespace {

// Enough for --jobs up to its CLI maximum.
constexpr int kMaxChildren = 4096;
volatile pid_t children[kMaxChildren];
volatile sig_atomic_t received = 0;

void exit_handler(int sig) {
    tb::temp_files::remove_all();
    _exit(128 + sig);
}

void forward_handler(int sig) {
    received = sig;
    for (int i = 0; i < kMaxChildren; ++i)
        if (children[i] > 0) kill(children[i], sig);
}

void install(void (*handler)(int)) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
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
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const sigset_t set = tb::termination_signals();
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace dmasim::sim
