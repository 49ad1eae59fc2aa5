// atomic_file.h - output files (reports, traces, VCDs, sweep files) that
// appear under their name only when complete and never clobber anything
// else: written to a temporary name in the target's own directory, created
// with O_CREAT|O_EXCL|O_NOFOLLOW (a planted symlink or file is refused, not
// followed), checked for write errors, renamed on commit(), removed if
// never committed or if the process is interrupted (temp_files.h).
// A path that is not a regular file is never replaced (output_target()).
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dmasim::tb {

/// An output file could not be created or written; what() names the path.
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Where an output named `path` goes. A missing path or a regular file is
/// replaced atomically. A character device or FIFO (/dev/null, a named
/// pipe) is opened and written in place: replacing it would break the
/// system or the reader. A symbolic link is never replaced: it is followed
/// and its target decides (so /dev/stdout works, and a link to a regular
/// file keeps pointing at the rewritten file). Anything else (a folder, a
/// block device, a socket, a link to nothing) is refused.
struct OutputTarget {
    std::string path;       ///< the file to write: `path`, or a link's target
    bool in_place = false;  ///< a character device or FIFO
};
/// Throws OutputError naming `path` and why it is refused.
OutputTarget output_target(const std::string& path);

/// Opens the character device or FIFO at `path` for writing, without
/// creating or truncating anything, and checks it still is one (it may
/// have been replaced since output_target()); returns the descriptor or
/// throws OutputError. Opening a FIFO waits for its reader.
int open_in_place(const std::string& path);

class AtomicFile {
public:
    /// Creates the temporary file next to `path` (or opens a device or
    /// FIFO in place, see output_target()); throws OutputError.
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Appends `text`. The first write error is kept and later writes are
    /// dropped; commit() reports it. Never throws, so a full file system
    /// cannot abort a simulation that writes as it goes.
    void write(std::string_view text);
    /// Flushes, checks every write succeeded, closes and renames onto the
    /// final path; on any failure removes the temporary file (nothing is
    /// published) and returns why, else "". No exception: it runs after
    /// a simulation, whose result a failed file must not lose.
    std::string commit();

private:
    std::string path_;
    std::string temp_;  ///< empty when written in place
    std::FILE* file_ = nullptr;
    int slot_ = -1;     ///< temp_files registration
    int error_ = 0;     ///< errno of the first failed write
};

/// A private directory (mode 0700, unique name) next to `path` for writers
/// that open their file themselves, like SystemC's VCD writer: nobody else
/// can plant a file or symlink inside it. Removed with its content unless
/// publish() moved the file out.
class PrivateDir {
public:
    /// Throws OutputError. For a character device or FIFO the directory
    /// is made in the temporary folder and the file inside it is a link
    /// to the opened device, so the writer writes into it in place.
    explicit PrivateDir(const std::string& path);
    ~PrivateDir();
    PrivateDir(const PrivateDir&) = delete;
    PrivateDir& operator=(const PrivateDir&) = delete;

    /// A file name inside the directory.
    std::string file(const std::string& name) const { return dir_ + "/" + name; }
    /// Registers `name` for removal on interruption (call before it exists).
    void expect(const std::string& name);
    /// Renames file(name) onto the final path (nothing to do in place);
    /// returns why it failed, or "".
    std::string publish(const std::string& name);

private:
    OutputTarget target_;
    int device_ = -1;  ///< the opened device or FIFO, in place only
    std::string dir_;
    std::string expected_;
    int dir_slot_ = -1;
    int file_slot_ = -1;
};

/// Why `path` cannot be written, checked up front before anything long
/// runs (output_target() refuses it, a device or FIFO is not writable,
/// or no temporary file can be created beside it); empty if it can.
std::string unwritable(const std::string& path);

/// Writes `text` to `path` atomically (AtomicFile); returns why it failed,
/// or "".
std::string write_file_atomically_or_error(const std::string& path, const std::string& text);
/// The same; throws OutputError.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace dmasim::tb
