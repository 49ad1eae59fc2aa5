// config_error.cc - "file:line: message" formatting for user errors.
#include "config_error.h"

#include <fmt/format.h>

namespace dmasim::sim {

std::string excerpt(std::string_view text) {
    if (text.size() <= kMaxQuotedChars) return std::string(text);
    size_t cut = kMaxQuotedChars;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;  // not inside a UTF-8 sequence
    return fmt::format("{}... ({} bytes)", text.substr(0, cut), text.size());
}

std::string Location::to_string() const {
    return line > 0 ? fmt::format("{}:{}", file, line) : file;
}

ConfigError::ConfigError(const Location& where, const std::string& message,
                         std::vector<std::string> keys)
    : std::runtime_error(fmt::format("{}: {}", where.to_string(), message)),
      keys(std::move(keys)) {}

}  // namespace dmasim::sim
