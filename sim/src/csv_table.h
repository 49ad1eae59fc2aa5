// csv_table.h - reading a CSV file (RFC 4180 quoting) into a header and
// rows, each row with the line it starts on, for messages that name it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dmasim::sim {

/// Bytes a CSV file may hold (fit points, a sweep's results.csv): far more
/// than a million points need; a larger input (or /dev/zero) is refused at
/// this limit rather than read until memory runs out.
inline constexpr uint64_t kMaxCsvFileBytes = uint64_t{64} << 20;

struct CsvRow {
    int line = 0;  ///< 1-based line of the file the row starts on
    std::vector<std::string> fields;
};

struct CsvTable {
    std::string file;
    std::vector<std::string> header;
    std::vector<CsvRow> rows;

    /// Index of the column named `name`, or -1.
    int column(const std::string& name) const;
};

/// Reads `path` once, as a stream (a pipe works), at most kMaxCsvFileBytes.
/// Throws ConfigError naming the file for one that cannot be read or is too
/// long, and naming the file and line for an unterminated quote, an empty or duplicate
/// column name, or a row whose field count differs from the header's.
/// Blank lines are skipped.
CsvTable read_csv(const std::string& path);

}  // namespace dmasim::sim
