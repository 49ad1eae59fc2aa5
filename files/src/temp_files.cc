// temp_files.cc - see temp_files.h.
#include <dmasim/files/temp_files.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace dmasim::tb::temp_files {
namespace {

// Fixed storage: the signal handler must not allocate or lock. A process
// has at most a report, a trace and a VCD (file and directory) open.
constexpr int kSlots = 16;
char paths[kSlots][PATH_MAX];
volatile sig_atomic_t used[kSlots];

}  // namespace

int add(const std::string& path) {
    if (path.size() >= PATH_MAX) return -1;
    for (int i = 0; i < kSlots; ++i) {
        if (used[i]) continue;
        std::memcpy(paths[i], path.c_str(), path.size() + 1);
        // The handler must never see the slot used before its path is there.
        std::atomic_signal_fence(std::memory_order_seq_cst);
        used[i] = 1;
        return i;
    }
    return -1;
}

void drop(int slot) {
    if (slot >= 0 && slot < kSlots) used[slot] = 0;
}

void remove_all() {
    // Files first, then directories: slots are reused, so a private
    // directory's file may sit in a lower slot than the directory.
    for (int i = 0; i < kSlots; ++i)
        if (used[i] && unlink(paths[i]) == 0) used[i] = 0;
    for (int i = 0; i < kSlots; ++i)
        if (used[i]) {
            rmdir(paths[i]);
            used[i] = 0;
        }
}

}  // namespace dmasim::tb::temp_files

namespace dmasim::tb {

sigset_t termination_signals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kTerminationSignals) sigaddset(&set, sig);
    return set;
}

SignalsBlocked::SignalsBlocked() {
    const sigset_t set = termination_signals();
    sigprocmask(SIG_BLOCK, &set, nullptr);
}

SignalsBlocked::~SignalsBlocked() {
    const sigset_t set = termination_signals();
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace dmasim::tb
