// number_grammar.cc - see number_grammar.h.
#include "number_grammar.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace dmasim::sim {
namespace {

bool all_of(std::string_view s, int (*is)(int)) {
    if (s.empty()) return false;
    for (unsigned char c : s)
        if (!is(c)) return false;
    return true;
}

int is_octal(int c) { return c >= '0' && c <= '7'; }

Number integer(std::string_view digits, int base, bool negative) {
    Number n;
    n.integral = true;
    n.negative = negative;
    uint64_t v = 0;
    const auto ec = std::from_chars(digits.data(), digits.data() + digits.size(), v, base).ec;
    if (ec == std::errc()) n.magnitude = v;
    // Past 64 bits it is still a number, larger than any key allows.
    n.value = n.magnitude ? static_cast<double>(v) : std::ldexp(1.0, 64);
    if (negative) n.value = -n.value;
    return n;
}

/// [0-9]+ ( . [0-9]* )? | . [0-9]+, then an optional exponent.
bool is_float_body(std::string_view s) {
    size_t i = 0, int_digits = 0, frac_digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++int_digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++frac_digits;
    }
    if (int_digits == 0 && frac_digits == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (!all_of(s.substr(i), isdigit)) return false;
        i = s.size();
    }
    return i == s.size();
}

}  // namespace

Number parse_number(std::string_view text) {
    if (text.size() > 2 && text[0] == '0' && text[1] == 'x' && all_of(text.substr(2), isxdigit))
        return integer(text.substr(2), 16, false);
    if (text.size() > 2 && text[0] == '0' && text[1] == 'o' && all_of(text.substr(2), is_octal))
        return integer(text.substr(2), 8, false);

    const bool negative = !text.empty() && text[0] == '-';
    const bool signed_ = !text.empty() && (text[0] == '-' || text[0] == '+');
    const std::string_view body = text.substr(signed_ ? 1 : 0);
    if (body == ".inf" || body == ".Inf" || body == ".INF") {
        Number n;
        n.negative = negative;
        n.value = negative ? -HUGE_VAL : HUGE_VAL;
        return n;
    }
    if (text == ".nan" || text == ".NaN" || text == ".NAN") return Number{false, false, {}, NAN};

    const bool is_integer = all_of(body, isdigit);
    if (!is_integer && !is_float_body(body)) throw std::invalid_argument("not a number");
    if (body.size() > 1 && body[0] == '0' && std::isdigit(static_cast<unsigned char>(body[1])))
        throw std::invalid_argument(
            "leading zero (YAML 1.1 reads 017 as octal 15, YAML 1.2 as 17): write 17, or "
            "0o17 for octal");
    if (is_integer) return integer(body, 10, negative);
    Number n;
    n.negative = negative;
    n.value = std::strtod(std::string(text).c_str(), nullptr);
    return n;
}

}  // namespace dmasim::sim
