// strict_yaml.h - reads a config or sweep file as YAML with the ambiguities
// and traps of the format turned into errors (docs/configuration.md,
// "YAML rules"): one document, no duplicate keys, no alias that refers to
// itself, aliases that expand to at most kMaxAliasNodes nodes in all, and
// at most kMaxYamlDepth levels of nesting.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace dmasim::sim {

/// Nodes aliases may add in one file once expanded: far more than reusing a
/// section a few times needs, far less than an "alias bomb" would build.
inline constexpr uint64_t kMaxAliasNodes = 10000;

/// Lists and maps a file may nest: a config needs 2, a sweep file 4; the
/// bound keeps every recursive walk over a file (the parser's, the
/// loader's) shallow, whatever the input.
inline constexpr size_t kMaxYamlDepth = 32;

/// Files larger than this are refused (read up to it, never past) before
/// they are parsed.
inline constexpr uint64_t kMaxYamlFileBytes = 64u << 20;

/// Nodes a file may hold as written (a sweep's longest useful value list
/// is --max-points long; the default is 100,000).
inline constexpr uint64_t kMaxYamlNodes = 1000000;

/// The bytes of `path` as tb::read_bounded_input() reads them (once, as a
/// stream, at most `max_bytes`); `what` ("config", "CSV") names the kind of
/// file. Throws ConfigError at `path` naming why it cannot be read.
std::string read_input_file(const std::string& path, uint64_t max_bytes, std::string_view what);

/// Loads `path`; `what` ("config", "sweep") names the file in errors.
/// Throws ConfigError naming the file and line(s) for anything that is not
/// a readable, strictly valid YAML file.
YAML::Node load_strict_yaml(const std::string& path, std::string_view what);

/// The same checks for YAML already in memory (tests, fuzzing).
YAML::Node parse_strict_yaml(const std::string& text, const std::string& file);

}  // namespace dmasim::sim
