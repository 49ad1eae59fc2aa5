// atomic_file.cc - see atomic_file.h.
#include "atomic_file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace dmasim::tb {

std::string AtomicFile::temp_name(const std::string& path) {
    return fmt::format("{}.tmp.{}", path, ::getpid());
}

std::string AtomicFile::publish(const std::string& temp, const std::string& path) {
    if (std::rename(temp.c_str(), path.c_str()) == 0) return "";
    const std::string why =
        fmt::format("cannot rename {} to {}: {}", temp, path, std::strerror(errno));
    std::remove(temp.c_str());
    return why;
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), temp_(temp_name(path_)) {
    file_ = std::fopen(temp_.c_str(), "w");
    if (!file_)
        throw std::runtime_error(fmt::format("cannot write {}: {}", temp_, std::strerror(errno)));
}

AtomicFile::~AtomicFile() {
    if (!file_) return;
    std::fclose(file_);
    std::remove(temp_.c_str());
}

std::string AtomicFile::commit() {
    const bool failed = std::ferror(file_) != 0;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (failed || !closed) {
        std::remove(temp_.c_str());
        return fmt::format("cannot write {}", temp_);
    }
    return publish(temp_, path_);
}

}  // namespace dmasim::tb
