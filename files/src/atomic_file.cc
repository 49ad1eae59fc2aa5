// atomic_file.cc - see atomic_file.h.
#include <dmasim/files/atomic_file.h>
#include <dmasim/files/temp_files.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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

bool writable_in_place(mode_t mode) { return S_ISCHR(mode) || S_ISFIFO(mode); }

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "is a directory";
    if (S_ISBLK(mode)) return "is a block device";
    if (S_ISSOCK(mode)) return "is a socket";
    return "is not a regular file";
}

OutputError refused(const std::string& path, const std::string& why) {
    return OutputError(fmt::format("cannot write {}: {}", path, why));
}

}  // namespace

OutputTarget output_target(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return {path, false};
        throw refused(path, std::strerror(errno));
    }
    const bool link = S_ISLNK(st.st_mode);
    if (link && ::stat(path.c_str(), &st) != 0)
        throw refused(path, fmt::format("it is a symbolic link to nothing ({}); dmasim writes "
                                        "through a link only to an existing file",
                                        std::strerror(errno)));
    if (writable_in_place(st.st_mode)) return {path, true};
    if (!S_ISREG(st.st_mode))
        throw refused(path, fmt::format("it {}; dmasim writes only regular files, character "
                                        "devices and FIFOs",
                                        kind_of(st.st_mode)));
    if (!link) return {path, false};
    // The link stays; its target is replaced atomically in its own folder.
    char resolved[PATH_MAX];
    if (!::realpath(path.c_str(), resolved)) throw refused(path, std::strerror(errno));
    return {resolved, false};
}

int open_in_place(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw refused(path, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !writable_in_place(st.st_mode)) {
        ::close(fd);
        throw refused(path, "it was replaced by something other than a device or FIFO");
    }
    return fd;
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    const OutputTarget target = output_target(path_);
    if (target.in_place) {
        const int fd = open_in_place(target.path);
        file_ = fdopen(fd, "w");
        if (file_) return;
        const int err = errno;
        ::close(fd);
        throw refused(path_, std::strerror(err));
    }
    const std::string& final_path = target.path;
    const SignalsBlocked until_recorded;  // no handler between open() and add()
    int fd = -1;
    for (int attempt = 0; attempt < kNameAttempts && fd < 0; ++attempt) {
        temp_ = temp_candidate(final_path, attempt);
        fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) throw OutputError(fmt::format("cannot create {}: {}", temp_, std::strerror(errno)));
    path_ = final_path;
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
    if (temp_.empty()) return;
    std::remove(temp_.c_str());
    temp_files::drop(slot_);
}

void AtomicFile::write(std::string_view text) {
    if (error_ || text.empty()) return;
    errno = 0;
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) error_ = errno ? errno : EIO;
}

std::string AtomicFile::commit() {
    // fflush reports what the buffered writes hit (ENOSPC, EFBIG, EIO);
    // ferror anything an earlier flush hit.
    errno = 0;
    const bool flushed = !error_ && std::fflush(file_) == 0 && std::ferror(file_) == 0;
    const int flush_err = error_ ? error_ : errno;
    errno = 0;
    const bool closed = std::fclose(file_) == 0;
    const int err = flushed ? errno : flush_err;
    file_ = nullptr;
    const bool in_place = temp_.empty();
    if (!flushed || !closed) {
        if (!in_place) std::remove(temp_.c_str());
        temp_files::drop(slot_);
        return fmt::format("cannot write {}: {}", path_, err ? std::strerror(err) : "write error");
    }
    if (in_place) return {};
    std::string why = rename_onto(temp_, path_);
    if (!why.empty()) std::remove(temp_.c_str());
    temp_files::drop(slot_);
    return why;
}

PrivateDir::PrivateDir(const std::string& path) : target_(output_target(path)) {
    const std::string beside =
        target_.in_place ? (std::filesystem::temp_directory_path() / "dmasim").string()
                         : target_.path;
    std::string pattern = fmt::format("{}.tmp.{}.XXXXXX", beside, getpid());
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
    if (device_ >= 0) ::close(device_);
}

void PrivateDir::expect(const std::string& name) {
    expected_ = name;
    file_slot_ = temp_files::add(file(name));
    if (!target_.in_place) return;
    // The writer opens file(name), which leads to the device or FIFO this
    // process opened and checked, whatever happens to its name meanwhile.
    device_ = open_in_place(target_.path);
    const std::string via = fmt::format("/proc/self/fd/{}", device_);
    if (::symlink(via.c_str(), file(name).c_str()) != 0)
        throw refused(target_.path, std::strerror(errno));
}

std::string PrivateDir::publish(const std::string& name) {
    return target_.in_place ? "" : rename_onto(file(name), target_.path);
}

std::string unwritable(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return "is a directory";
    try {
        // Opening a device or FIFO would already write to it (a FIFO's
        // reader would see the end of its input): only its rights are checked.
        if (const OutputTarget target = output_target(path); target.in_place)
            return ::access(target.path.c_str(), W_OK) == 0 ? ""
                                                             : refused(path, std::strerror(errno)).what();
        AtomicFile probe(path);
    } catch (const OutputError& e) {
        return e.what();
    }
    return {};
}

std::string write_file_atomically_or_error(const std::string& path, const std::string& text) {
    try {
        AtomicFile file(path);
        file.write(text);
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
