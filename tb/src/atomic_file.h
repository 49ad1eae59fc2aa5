// atomic_file.h - an output file that appears under its name only when
// complete: written to a temporary name in the same directory, renamed
// on commit(), removed if never committed.
#pragma once

#include <cstdio>
#include <string>

namespace dmasim::tb {

class AtomicFile {
public:
    /// Opens a temporary file next to `path`; throws std::runtime_error.
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::FILE* get() const { return file_; }
    /// Closes and renames onto the final path. Returns why it failed, or ""
    /// (no exception: it runs after sc_start, where AddressSanitizer
    /// misreports exceptions).
    std::string commit();

    /// The temporary name used for `path` (for writers that open it
    /// themselves, like SystemC's VCD writer).
    static std::string temp_name(const std::string& path);
    /// Renames a finished temporary file onto `path`; returns why it
    /// failed, or "".
    static std::string publish(const std::string& temp, const std::string& path);

private:
    std::string path_;
    std::string temp_;
    std::FILE* file_ = nullptr;
};

}  // namespace dmasim::tb
