// config_error.h - a user error in a config, --set or sweep file: carries
// where it happened so main() can print one clear line and exit 2.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace dmasim::sim {

/// Where a value came from: a file and 1-based line, or "--set" (line 0).
struct Location {
    std::string file;
    int line = 0;

    std::string to_string() const;
};

struct ConfigError : std::runtime_error {
    ConfigError(const Location& where, const std::string& message,
                std::vector<std::string> keys = {});

    /// The keys a failed cross-key check involves (empty for other errors):
    /// a sweep skips a point only if one of them is swept.
    std::vector<std::string> keys;
};

}  // namespace dmasim::sim
