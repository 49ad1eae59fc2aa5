// config_error.h - a user error in a config, --set or sweep file: carries
// where it happened so main() can print one clear line and exit 2.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dmasim::sim {

/// Bytes a key or value may have (the longest useful value is a file
/// path): a config file or --set with a longer one is refused before any
/// lookup or suggestion spends time on it.
inline constexpr size_t kMaxTextBytes = 4096;

/// Characters of user input a message quotes at most.
inline constexpr size_t kMaxQuotedChars = 80;

/// `text` as a message quotes it: whole if short, else its first
/// kMaxQuotedChars characters, "..." and its length, so a huge value
/// cannot make a huge message. Every message that quotes input uses it.
std::string excerpt(std::string_view text);

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
