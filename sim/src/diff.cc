// diff.cc - see diff.h.
#include "diff.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "config_error.h"
#include "results_csv.h"
#include "sweep_dir.h"

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

/// Every numeric figure of a report by column name, in report order.
std::vector<std::pair<std::string, double>> figures(const Json& report) {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& key : result_keys()) {
        const auto it = report["result"].find(key);
        if (it != report["result"].end() && it->is_number())
            out.emplace_back(key, it->get<double>());
    }
    if (report.contains("statistics"))
        for (const auto& [group, counters] : report["statistics"].items())
            for (const auto& [name, counter] : counters.items())
                if (counter.contains("value") && counter["value"].is_number())
                    out.emplace_back(group + "." + name, counter["value"].get<double>());
    return out;
}

struct Change {
    std::string column;
    double a, b;
    bool flagged;
};

std::string ratio_text(double a, double b) {
    if (a == b) return "1";
    if (a == 0) return "new";
    return fmt::format("{:.4g}", b / a);
}

std::vector<Change> compare(const Json& a, const Json& b, double threshold) {
    std::map<std::string, double> in_b;
    for (const auto& [column, value] : figures(b)) in_b[column] = value;
    std::vector<Change> out;
    for (const auto& [column, va] : figures(a)) {
        const auto it = in_b.find(column);
        if (it == in_b.end()) continue;
        const double vb = it->second;
        const double scale = std::max(std::fabs(va), std::fabs(vb));
        out.push_back({column, va, vb, scale > 0 && std::fabs(vb - va) / scale > threshold});
    }
    return out;
}

/// Integral values in full ("1048576"), others to six significant digits.
std::string number(double v) {
    return std::fabs(v) < 1e15 && v == std::floor(v) ? fmt::format("{:.0f}", v)
                                                     : fmt::format("{:.6g}", v);
}

std::string text_of(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

bool diff_reports(const DiffRequest& r) {
    const Json a = read_json_file(r.a), b = read_json_file(r.b);
    fmt::print("A: {}\nB: {}\n\nconfig keys that differ:\n", r.a, r.b);
    size_t differing = 0;
    for (const auto& [key, va] : a["config"].items()) {
        const Json vb = b["config"].value(key, Json());
        if (va == vb) continue;
        ++differing;
        fmt::print("  {:<36} {:>16} -> {}\n", key, text_of(va), text_of(vb));
    }
    if (differing == 0) fmt::print("  (none)\n");
    const auto integrity_a = a["result"].value("integrity", ""),
               integrity_b = b["result"].value("integrity", "");
    fmt::print("\n{:<48} {:>16} {:>16} {:>8}\n", "statistic", "A", "B", "B/A");
    bool flagged = integrity_a != integrity_b;
    for (const Change& c : compare(a, b, r.threshold)) {
        fmt::print("{} {:<46} {:>16} {:>16} {:>8}\n", c.flagged ? "*" : " ", c.column, number(c.a),
                   number(c.b), ratio_text(c.a, c.b));
        flagged |= c.flagged;
    }
    fmt::print("{} {:<46} {:>16} {:>16}\n", integrity_a != integrity_b ? "*" : " ", "integrity",
               integrity_a, integrity_b);
    fmt::print("\n* changed by more than {:g} %\n", 100 * r.threshold);
    return flagged;
}

/// Point reports of a sweep folder keyed by their swept values' text.
std::map<std::string, Json> sweep_points(const std::string& root) {
    const SweepDir dir{root};
    const Json manifest = read_json_file(dir.manifest());
    std::map<std::string, Json> out;
    for (const auto& point : manifest["points"]) {
        if (point.contains("skipped")) continue;
        if (auto report = read_complete_report(dir.report(point["id"].get<std::string>()))) {
            std::string label;
            for (const auto& [key, value] : point["values"].items())
                label += fmt::format("{}{}={}", label.empty() ? "" : " ", key, text_of(value));
            out[label] = std::move(*report);
        }
    }
    return out;
}

bool diff_sweeps(const DiffRequest& r) {
    const auto a = sweep_points(r.a), b = sweep_points(r.b);
    fmt::print("A: {} ({} points)\nB: {} ({} points)\n", r.a, a.size(), r.b, b.size());
    bool flagged = false;
    size_t matched = 0;
    for (const auto& [label, report_a] : a) {
        const auto it = b.find(label);
        if (it == b.end()) {
            fmt::print("\n{}: only in A\n", label);
            continue;
        }
        ++matched;
        std::vector<Change> changes;
        for (const Change& c : compare(report_a, it->second, r.threshold))
            if (c.flagged) changes.push_back(c);
        if (changes.empty()) continue;
        flagged = true;
        fmt::print("\n{}:\n", label);
        for (const Change& c : changes)
            fmt::print("  {:<46} {:>16} {:>16} {:>8}\n", c.column, number(c.a), number(c.b),
                       ratio_text(c.a, c.b));
    }
    for (const auto& [label, unused] : b)
        if (!a.count(label)) fmt::print("\n{}: only in B\n", label);
    fmt::print("\n{} points in both; {} with a statistic changed by more than {:g} %\n", matched,
               flagged ? "some" : "none", 100 * r.threshold);
    return flagged;
}

}  // namespace

int run_diff(const DiffRequest& r) {
    const bool dirs = fs::is_directory(r.a), dir_b = fs::is_directory(r.b);
    if (dirs != dir_b)
        throw ConfigError({r.b}, "compare two reports or two sweep folders, not one of each");
    const bool flagged = dirs ? diff_sweeps(r) : diff_reports(r);
    return r.fail_on_change && flagged ? 1 : 0;
}

}  // namespace dmasim::sim
