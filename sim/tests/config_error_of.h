// config_error_of.h - the message of the ConfigError a load throws, for
// tests of what the config loader refuses.
#pragma once

#include <string>

#include "config_error.h"

namespace dmasim::sim::test {

/// The message of the ConfigError `load` throws ("" if none).
template <typename Load>
std::string error_of(Load load) {
    try {
        load();
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

}  // namespace dmasim::sim::test
