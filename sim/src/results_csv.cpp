// results_csv.cpp - rows of results.csv from point reports.
#include "results_csv.h"

#include <fmt/format.h>

namespace dmasim::sim {
namespace {

/// report[section][key], or null when either is missing.
Json lookup(const Json& report, const char* section, const std::string& key) {
    auto part = report.find(section);
    if (part == report.end()) return nullptr;
    auto value = part->find(key);
    return value == part->end() ? Json() : *value;
}

}  // namespace

const std::vector<std::string>& result_keys() {
    static const std::vector<std::string> keys = {
        "bytes",           "descriptors",     "chain_links",     "cycles",
        "sim_time_ns",     "throughput_gbps", "bytes_per_cycle", "descriptor_bytes_fetched",
        "bus_utilization", "integrity"};
    return keys;
}

std::string csv_field(const Json& value) {
    std::string text;
    if (value.is_string())
        text = value.get<std::string>();
    else if (value.is_number_float())
        text = fmt::format("{}", value.get<double>());  // shortest text that reads back exactly
    else if (!value.is_null())
        text = value.dump();
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char ch : text) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return quoted + "\"";
}

std::string results_csv(const std::vector<std::string>& swept_keys,
                        const std::vector<Json>& reports) {
    std::vector<std::string> header = swept_keys;
    header.insert(header.end(), result_keys().begin(), result_keys().end());
    std::string out = fmt::format("{}\n", fmt::join(header, ","));
    for (const auto& report : reports) {
        std::vector<std::string> row;
        for (const auto& key : swept_keys) row.push_back(csv_field(lookup(report, "config", key)));
        for (const auto& key : result_keys())
            row.push_back(csv_field(lookup(report, "result", key)));
        out += fmt::format("{}\n", fmt::join(row, ","));
    }
    return out;
}

}  // namespace dmasim::sim
