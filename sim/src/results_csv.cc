// results_csv.cc - rows of results.csv from point reports.
#include "results_csv.h"

#include <dmasim/tb/results.h>
#include <fmt/format.h>

#include <set>
#include <utility>

namespace dmasim::sim {
namespace {

/// report[section][key], or null when either is missing.
Json lookup(const Json& report, const char* section, const std::string& key) {
    auto part = report.find(section);
    if (part == report.end()) return nullptr;
    auto value = part->find(key);
    return value == part->end() ? Json() : *value;
}

/// Names in the order first seen, each once: the columns of a CSV whose
/// rows (reports) may each hold a different subset.
class FirstSeenNames {
public:
    void add(const std::string& name) {
        if (seen_.insert(name).second) names_.push_back(name);
    }
    std::vector<std::string> names() && { return std::move(names_); }

private:
    std::vector<std::string> names_;
    std::set<std::string> seen_;
};

/// Names of the scenario results in `reports`, in first-seen order.
std::vector<std::string> scenario_result_names(const std::vector<Json>& reports) {
    FirstSeenNames names;
    for (const auto& report : reports) {
        const Json results = lookup(report, "result", "scenario_results");
        if (!results.is_object()) continue;
        for (const auto& item : results.items()) names.add(item.key());
    }
    return std::move(names).names();
}

/// report.statistics[group][counter].value for "group.counter", or null.
Json statistic(const Json& report, const std::string& column) {
    auto stats = report.find("statistics");
    if (stats == report.end()) return nullptr;
    // Group names hold dots ("dma.ch0"), counter names do not.
    const auto dot = column.rfind('.');
    auto group = stats->find(column.substr(0, dot));
    if (group == stats->end()) return nullptr;
    auto counter = group->find(column.substr(dot + 1));
    return counter == group->end() ? Json() : counter->value("value", Json());
}

}  // namespace

const std::vector<std::string>& result_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k;
        for (const tb::ResultDef& def : tb::kResultDefs) k.push_back(def.name);
        k.push_back("integrity");
        return k;
    }();
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

std::vector<std::string> statistic_columns(const std::vector<Json>& reports) {
    FirstSeenNames columns;
    for (const auto& report : reports) {
        auto stats = report.find("statistics");
        if (stats == report.end()) continue;
        for (const auto& [group, counters] : stats->items())
            for (const auto& [name, unused] : counters.items()) columns.add(group + "." + name);
    }
    return std::move(columns).names();
}

std::string results_csv(const std::vector<std::string>& swept_keys,
                        const std::vector<Json>& reports) {
    const auto scenario_names = scenario_result_names(reports);
    const std::vector<std::string> stat_columns = statistic_columns(reports);
    std::vector<std::string> header = swept_keys;
    header.insert(header.end(), result_keys().begin(), result_keys().end());
    header.insert(header.end(), scenario_names.begin(), scenario_names.end());
    header.insert(header.end(), stat_columns.begin(), stat_columns.end());
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
        for (const auto& column : stat_columns) row.push_back(csv_field(statistic(report, column)));
        out += fmt::format("{}\n", fmt::join(row, ","));
    }
    return out;
}

}  // namespace dmasim::sim
