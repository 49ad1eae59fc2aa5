// temp_files.cc - see temp_files.h.
#include <dmasim/tb/temp_files.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

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
        used[i] = 1;
        return i;
    }
    return -1;
}

void drop(int slot) {
    if (slot >= 0 && slot < kSlots) used[slot] = 0;
}

void remove_all() {
    // Newest first, so a private directory's file goes before the directory.
    for (int i = kSlots - 1; i >= 0; --i) {
        if (!used[i]) continue;
        if (unlink(paths[i]) != 0) rmdir(paths[i]);
        used[i] = 0;
    }
}

}  // namespace dmasim::tb::temp_files
