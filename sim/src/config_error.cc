// config_error.cc - "file:line: message" formatting for user errors.
#include "config_error.h"

#include <fmt/format.h>

namespace dmasim::sim {

std::string Location::to_string() const {
    return line > 0 ? fmt::format("{}:{}", file, line) : file;
}

ConfigError::ConfigError(const Location& where, const std::string& message,
                         std::vector<std::string> keys)
    : std::runtime_error(fmt::format("{}: {}", where.to_string(), message)),
      keys(std::move(keys)) {}

}  // namespace dmasim::sim
