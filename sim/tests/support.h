// support.h - helpers shared by the sim/ tests: scratch directories and files.
#pragma once

#include <string>

namespace dmasim::sim::test {

/// A fresh directory under the system temp dir, removed with its contents
/// when the object goes out of scope.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return path_; }
    /// Writes `text` to path()/name and returns the full path.
    std::string write(const std::string& name, const std::string& text) const;

private:
    std::string path_;
};

std::string read_file(const std::string& path);

}  // namespace dmasim::sim::test
