// atomic_file.cc - see atomic_file.h.
#include <dmasim/tb/atomic_file.h>
#include <dmasim/tb/temp_files.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace dmasim::tb {
namespace {

// A temporary left by a killed run whose PID was reused makes O_EXCL
// fail; try a few suffixed names before giving up.
constexpr int kNameAttempts = 16;

std::string temp_candidate(const std::string& path, int attempt) {
    return attempt == 0 ? fmt::format("{}.tmp.{}", path, getpid())
                        : fmt::format("{}.tmp.{}.{}", path, getpid(), attempt);
}

std::string rename_onto(const std::string& from, const std::string& to) {
    if (std::rename(from.c_str(), to.c_str()) == 0) return {};
    return fmt::format("cannot rename {} to {}: {}", from, to, std::strerror(errno));
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    const SignalsBlocked until_recorded;  // no handler between open() and add()
    int fd = -1;
    for (int attempt = 0; attempt < kNameAttempts && fd < 0; ++attempt) {
        temp_ = temp_candidate(path_, attempt);
        fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) throw OutputError(fmt::format("cannot create {}: {}", temp_, std::strerror(errno)));
    slot_ = temp_files::add(temp_);
    file_ = fdopen(fd, "w");
    if (!file_) {
        const int err = errno;
        ::close(fd);
        std::remove(temp_.c_str());
        temp_files::drop(slot_);
        throw OutputError(fmt::format("cannot write {}: {}", temp_, std::strerror(err)));
    }
}

AtomicFile::~AtomicFile() {
    if (!file_) return;
    std::fclose(file_);
    std::remove(temp_.c_str());
    temp_files::drop(slot_);
}

std::string AtomicFile::commit() {
    // fflush reports what the buffered writes hit (ENOSPC, EFBIG, EIO);
    // ferror anything an earlier flush hit.
    errno = 0;
    const bool flushed = std::fflush(file_) == 0 && std::ferror(file_) == 0;
    const int flush_err = errno;
    const bool closed = std::fclose(file_) == 0;
    const int err = flushed ? errno : flush_err;
    file_ = nullptr;
    if (!flushed || !closed) {
        std::remove(temp_.c_str());
        temp_files::drop(slot_);
        return fmt::format("cannot write {}: {}", path_, err ? std::strerror(err) : "write error");
    }
    std::string why = rename_onto(temp_, path_);
    if (!why.empty()) std::remove(temp_.c_str());
    temp_files::drop(slot_);
    return why;
}

PrivateDir::PrivateDir(const std::string& path) : path_(path) {
    std::string pattern = fmt::format("{}.tmp.{}.XXXXXX", path, getpid());
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const SignalsBlocked until_recorded;  // no handler between mkdtemp() and add()
    if (!mkdtemp(name.data()))
        throw OutputError(
            fmt::format("cannot create a directory beside {}: {}", path, std::strerror(errno)));
    dir_ = name.data();
    dir_slot_ = temp_files::add(dir_);
}

PrivateDir::~PrivateDir() {
    if (!expected_.empty()) std::remove(file(expected_).c_str());
    ::rmdir(dir_.c_str());
    temp_files::drop(file_slot_);
    temp_files::drop(dir_slot_);
}

void PrivateDir::expect(const std::string& name) {
    expected_ = name;
    file_slot_ = temp_files::add(file(name));
}

std::string PrivateDir::publish(const std::string& name) { return rename_onto(file(name), path_); }

std::string unwritable(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return "is a directory";
    try {
        AtomicFile probe(path);
    } catch (const OutputError& e) {
        return e.what();
    }
    return {};
}

std::string write_file_atomically_or_error(const std::string& path, const std::string& text) {
    try {
        AtomicFile file(path);
        if (std::fwrite(text.data(), 1, text.size(), file.get()) != text.size())
            return fmt::format("cannot write {}: {}", path, std::strerror(errno));
        return file.commit();
    } catch (const OutputError& e) {
        return e.what();
    }
}

void write_file_atomically(const std::string& path, const std::string& text) {
    if (std::string why = write_file_atomically_or_error(path, text); !why.empty())
        throw OutputError(why);
}

}  // namespace dmasim::tb
