// results_csv.cpp - rows of results.csv from point reports.
#include "results_csv.h"

#include <fmt/format.h>

#include <algorithm>

namespace dmasim::sim {
namespace {

/// report[section][key], or null when either is missing.
Json lookup(const Json& report, const char* section, const std::string& key) {
    auto part = report.find(section);
    if (part == report.end()) return nullptr;
    auto value = part->find(key);
    return value == part->end() ? Json() : *value;
}

/// Names of the scenario results in `reports`, in first-seen order.
std::vector<std::string> scenario_result_names(const std::vector<Json>& reports) {
    std::vector<std::string> names;
    for (const auto& report : reports) {
        const Json results = lookup(report, "result", "scenario_results");
        if (!results.is_object()) continue;
        for (const auto& item : results.items())
            if (std::find(names.begin(), names.end(), item.key()) == names.end())
                names.push_back(item.key());
    }
    return names;
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
    const auto scenario_names = scenario_result_names(reports);
    std::vector<std::string> header = swept_keys;
    header.insert(header.end(), result_keys().begin(), result_keys().end());
    header.insert(header.end(), scenario_names.begin(), scenario_names.end());
    std::string out = fmt::format("{}\n", fmt::join(header, ","));
    for (const auto& report : reports) {
        std::vector<std::string> row;
        for (const auto& key : swept_keys) row.push_back(csv_field(lookup(report, "config", key)));
        for (const auto& key : result_keys())
            row.push_back(csv_field(lookup(report, "result", key)));
        const Json results = lookup(report, "result", "scenario_results");
        for (const auto& name : scenario_names)
            row.push_back(results.is_object() && results.contains(name)
                              ? csv_field(results[name]["value"])
                              : std::string());
        out += fmt::format("{}\n", fmt::join(row, ","));
    }
    return out;
}

}  // namespace dmasim::sim
