// number_grammar.h - the one grammar for numbers in config files, --set and
// sweep values: YAML 1.2 core schema integers and floats, except that a
// decimal integer part may not start with 0 (YAML 1.1 reads 017 as octal).
// docs/configuration.md, "Numbers", is the user's copy of these rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dmasim::sim {

struct Number {
    bool integral = false;  ///< written as an integer (decimal, 0x hex or 0o octal)
    bool negative = false;
    /// |value| of an integer; empty if it does not fit 64 bits.
    std::optional<uint64_t> magnitude;
    double value = 0;  ///< the value as a double (may be inf/nan for .inf/.nan)
};

/// Parses `text` with the grammar above; throws std::invalid_argument with
/// the reason (e.g. "not a number", "leading zero ...") if it does not match.
Number parse_number(std::string_view text);

}  // namespace dmasim::sim
