// atomic_file.h - output files (reports, traces, VCDs, sweep files) that
// appear under their name only when complete and never clobber anything
// else: written to a temporary name in the target's own directory, created
// with O_CREAT|O_EXCL|O_NOFOLLOW (a planted symlink or file is refused, not
// followed), checked for write errors, renamed on commit(), removed if
// never committed or if the process is interrupted (temp_files.h).
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace dmasim::tb {

/// An output file could not be created or written; what() names the path.
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class AtomicFile {
public:
    /// Creates the temporary file next to `path`; throws OutputError.
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::FILE* get() const { return file_; }
    /// Flushes, checks every write succeeded, closes and renames onto the
    /// final path; on any failure removes the temporary file (nothing is
    /// published) and returns why, else "". No exception: it runs after
    /// sc_start, where AddressSanitizer misreports exceptions.
    std::string commit();

private:
    std::string path_;
    std::string temp_;
    std::FILE* file_ = nullptr;
    int slot_ = -1;  ///< temp_files registration
};

/// A private directory (mode 0700, unique name) next to `path` for writers
/// that open their file themselves, like SystemC's VCD writer: nobody else
/// can plant a file or symlink inside it. Removed with its content unless
/// publish() moved the file out.
class PrivateDir {
public:
    /// Throws OutputError.
    explicit PrivateDir(const std::string& path);
    ~PrivateDir();
    PrivateDir(const PrivateDir&) = delete;
    PrivateDir& operator=(const PrivateDir&) = delete;

    /// A file name inside the directory.
    std::string file(const std::string& name) const { return dir_ + "/" + name; }
    /// Registers `name` for removal on interruption (call before it exists).
    void expect(const std::string& name);
    /// Renames file(name) onto the final path; returns why it failed, or "".
    std::string publish(const std::string& name);

private:
    std::string path_;
    std::string dir_;
    std::string expected_;
    int dir_slot_ = -1;
    int file_slot_ = -1;
};

/// Why `path` cannot be written, checked up front before anything long
/// runs (it is a directory, or no temporary file can be created beside
/// it); empty if it can.
std::string unwritable(const std::string& path);

/// Writes `text` to `path` atomically (AtomicFile); returns why it failed,
/// or "".
std::string write_file_atomically_or_error(const std::string& path, const std::string& text);
/// The same; throws OutputError.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace dmasim::tb
