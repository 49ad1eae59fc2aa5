// csv_table.cc - the CSV reader behind `dmasim fit` (and its sweeps' results).
#include "csv_table.h"

#include <fmt/format.h>

#include <set>

#include "config_error.h"
#include "strict_yaml.h"

namespace dmasim::sim {
namespace {

/// Splits `text` into records of fields; a quoted field may hold commas,
/// doubled quotes and newlines.
std::vector<CsvRow> parse_records(const std::string& file, const std::string& text) {
    std::vector<CsvRow> rows;
    CsvRow row{1, {}};
    std::string field;
    int line = 1;
    bool quoted = false, field_started = false;
    auto end_field = [&] {
        row.fields.push_back(field);
        field.clear();
        field_started = false;
    };
    auto end_row = [&] {
        const bool blank = row.fields.empty() && field.empty() && !field_started;
        if (!blank) {
            end_field();
            rows.push_back(row);
        }
        row = CsvRow{line + 1, {}};
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                if (c == '\n') ++line;
                field += c;
            }
        } else if (c == '"' && field.empty()) {
            quoted = field_started = true;
        } else if (c == ',') {
            end_field();
            field_started = true;
        } else if (c == '\n') {
            end_row();
            ++line;
        } else if (c != '\r') {
            field += c;
        }
    }
    if (quoted) throw ConfigError({file, row.line}, "unterminated quoted field");
    end_row();
    return rows;
}

}  // namespace

int CsvTable::column(const std::string& name) const {
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    return -1;
}

CsvTable read_csv(const std::string& path) {
    std::vector<CsvRow> records =
        parse_records(path, read_input_file(path, kMaxCsvFileBytes, "CSV"));
    if (records.empty()) throw ConfigError({path, 0}, "the file is empty: it needs a header row");

    CsvTable table{path, records.front().fields, {}};
    std::set<std::string> seen;
    for (size_t i = 0; i < table.header.size(); ++i) {
        const std::string& name = table.header[i];
        if (name.empty()) throw ConfigError({path, 1}, fmt::format("column {} has no name", i + 1));
        if (!seen.insert(name).second)
            throw ConfigError({path, 1}, fmt::format("column '{}' appears twice", name));
    }
    for (size_t r = 1; r < records.size(); ++r) {
        if (records[r].fields.size() != table.header.size())
            throw ConfigError({path, records[r].line},
                              fmt::format("{} fields where the header has {}",
                                          records[r].fields.size(), table.header.size()));
        table.rows.push_back(std::move(records[r]));
    }
    return table;
}

}  // namespace dmasim::sim
