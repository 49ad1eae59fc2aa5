// csv_table.h - reading a CSV file (RFC 4180 quoting) into a header and
// rows, each row with the line it starts on, for messages that name it.
#pragma once

#include <string>
#include <vector>

namespace dmasim::sim {

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

/// Reads `path`. Throws ConfigError naming the file and line for a file
/// that cannot be read, an unterminated quote, an empty or duplicate
/// column name, or a row whose field count differs from the header's.
/// Blank lines are skipped.
CsvTable read_csv(const std::string& path);

}  // namespace dmasim::sim
