// signals.h - SIGINT, SIGTERM and SIGHUP: a run removes its temporary
// files, says so and exits 128 + signal (130, 143, 129); a sweep forwards
// the signal to the points it is running, waits for them and then does the
// same. SIGPIPE and SIGXFSZ are ignored, so a write into a pipe without a
// reader or past the file size limit fails with an error naming the file.
#pragma once

#include <dmasim/files/temp_files.h>
#include <sys/types.h>

namespace dmasim::sim {

/// `dmasim run`: on SIGINT/SIGTERM/SIGHUP remove this process's temporary
/// files (tb::temp_files) and exit 128 + signal at once.
void exit_cleanly_on_signals();

/// `dmasim sweep`: on SIGINT/SIGTERM/SIGHUP send the signal on to every tracked
/// child and remember it; the sweep stops starting points, waits for the
/// running ones and exits with interrupt_status().
void forward_signals_to_children();
/// Held while a child is started and tracked, so no signal arrives
/// between fork() and track_child(). Children unblock before exec.
using tb::SignalsBlocked;
void track_child(pid_t pid);
void untrack_child(pid_t pid);
/// The signal received (0 if none).
int received_signal();
/// 128 + the signal received, as shells report a process killed by it.
int interrupt_status();
/// For a freshly forked child: default dispositions and nothing blocked.
void reset_signals_in_child();

}  // namespace dmasim::sim
