// temp_files.h - the temporary files and directories this process is
// writing, so that a SIGINT/SIGTERM handler can remove them before the
// process exits (a killed run must not leave *.tmp.PID files behind).
#pragma once

#include <string>

namespace dmasim::tb::temp_files {

/// Records `path`; returns a slot for drop(), or -1 if the table is full
/// (the file is then only removed by its owner).
int add(const std::string& path);
/// Forgets a slot (the owner published or removed the file).
void drop(int slot);
/// Removes every recorded file and directory, newest first. Async-signal-
/// safe: only unlink() and rmdir() on preformatted paths.
void remove_all();

}  // namespace dmasim::tb::temp_files
