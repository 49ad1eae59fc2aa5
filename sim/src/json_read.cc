// json_read.cc - see json_read.h.
#include "json_read.h"

#include <fmt/format.h>

#include "config_error.h"

namespace dmasim::sim {
namespace {

/// How an error names a value it did not expect: its type, and short
/// scalars in full.
std::string found(const Json& v) {
    if (v.is_object()) return "an object";
    if (v.is_array()) return "an array";
    const std::string text = v.dump();
    return text.size() <= 40 ? text : text.substr(0, 37) + "...";
}

/// A JSON pointer reference token: "~" and "/" escaped (RFC 6901).
std::string token(const std::string& key) {
    std::string out;
    for (char ch : key) out += ch == '~' ? "~0" : ch == '/' ? "~1" : std::string(1, ch);
    return out;
}

}  // namespace

void JsonAt::fail(const std::string& problem) const {
    throw ConfigError({file, 0}, fmt::format("{}: {}", path.empty() ? "top level" : path, problem));
}

const Json& JsonAt::object() const {
    if (!value.is_object()) fail(fmt::format("expected an object, found {}", found(value)));
    return value;
}

bool JsonAt::has(const std::string& key) const { return object().contains(key); }

JsonAt JsonAt::operator[](const std::string& key) const {
    const auto it = object().find(key);
    if (it == value.end()) fail(fmt::format("missing \"{}\"", key));
    return {*it, file, path + "/" + token(key)};
}

std::vector<JsonAt> JsonAt::elements() const {
    if (!value.is_array()) fail(fmt::format("expected an array, found {}", found(value)));
    std::vector<JsonAt> out;
    for (size_t i = 0; i < value.size(); ++i)
        out.push_back({value[i], file, fmt::format("{}/{}", path, i)});
    return out;
}

std::vector<std::pair<std::string, JsonAt>> JsonAt::members() const {
    std::vector<std::pair<std::string, JsonAt>> out;
    for (const auto& [key, member] : object().items())
        out.emplace_back(key, JsonAt{member, file, path + "/" + token(key)});
    return out;
}

std::string JsonAt::string() const {
    if (!value.is_string()) fail(fmt::format("expected a string, found {}", found(value)));
    return value.get<std::string>();
}

double JsonAt::number() const {
    if (!value.is_number()) fail(fmt::format("expected a number, found {}", found(value)));
    return value.get<double>();
}

size_t JsonAt::count() const {
    if (!value.is_number_unsigned())
        fail(fmt::format("expected a non-negative integer, found {}", found(value)));
    return value.get<size_t>();
}

bool JsonAt::boolean() const {
    if (!value.is_boolean()) fail(fmt::format("expected true or false, found {}", found(value)));
    return value.get<bool>();
}

std::vector<std::string> JsonAt::strings() const {
    std::vector<std::string> out;
    for (const JsonAt& element : elements()) out.push_back(element.string());
    return out;
}

}  // namespace dmasim::sim
