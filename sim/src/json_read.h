// json_read.h - checked reads of JSON that dmasim may not have written
// (sweep folders, shards, reports given to diff/merge/--resume). Each
// accessor returns the type asked for or throws ConfigError naming the file
// and the JSON path ("sweep.json: /points/3/id: expected a string, found
// null"), so a malformed or hostile file is exit 2, never a crash or a raw
// library exception.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report.h"

namespace dmasim::sim {

/// A value inside a JSON file and where it is; `value` must outlive it.
struct JsonAt {
    const Json& value;
    std::string file;
    std::string path;  ///< JSON pointer from the top ("" for the top)

    /// Throws ConfigError: "FILE: PATH: problem".
    [[noreturn]] void fail(const std::string& problem) const;

    /// The member `key` of this object (which must exist).
    JsonAt operator[](const std::string& key) const;
    /// Whether this object has `key` (fails if this is not an object).
    bool has(const std::string& key) const;
    /// The elements of this array.
    std::vector<JsonAt> elements() const;
    /// The members of this object, in file order.
    std::vector<std::pair<std::string, JsonAt>> members() const;

    const Json& object() const;
    std::string string() const;
    double number() const;
    size_t count() const;  ///< a non-negative integer
    bool boolean() const;
    std::vector<std::string> strings() const;
};

/// The top of a JSON file read with read_json_file().
inline JsonAt json_at(const Json& value, const std::string& file) { return {value, file, ""}; }

}  // namespace dmasim::sim
