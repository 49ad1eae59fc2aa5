// diff.cc - see diff.h.
#include "diff.h"

#include <dmasim/model/cycle_account.h>
#include <dmasim/tb/figure_format.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <vector>

#include "account_moves.h"
#include "config_error.h"
#include "report_read.h"
#include "results_csv.h"
#include "statistics_catalog.h"
#include "sweep_dir.h"
#include "sweep_manifest.h"

namespace dmasim::sim {

namespace figures = tb::figures;
namespace {

namespace fs = std::filesystem;

/// Every numeric figure of a checked report (report_read.h) by column
/// name, in report order.
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
                out.emplace_back(group + "." + name, counter["value"].get<double>());
    return out;
}

struct Change {
    std::string column;
    double a, b;
    bool flagged;
};

/// B/A; 0/0 has no ratio, and calling it 1 would read as "measured equal".
std::string ratio_text(double a, double b) {
    if (a == 0 && b == 0) return "n/a 0/0";
    if (a == b) return "1";
    if (a == 0) return "new";
    return figures::significant(b / a);
}

std::string unit_of(const std::string& column) {
    const auto info = find_column(column);
    return info ? info->unit : "";
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

/// Six significant digits: a diff shows changes smaller than a summary's.
std::string number(double v) { return figures::significant(v, 6); }

std::string text_of(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

/// A config value as a reader writes it: numbers with the key's unit.
std::string value_text(const std::string& key, const Json& v) {
    const std::string unit = v.is_number() ? unit_of(key) : "";
    return unit.empty()
               ? text_of(v)
               : fmt::format("{} {}", text_of(v), figures::unit_for(v.get<double>(), unit));
}

void print_change(const char* indent, const Change& c) {
    fmt::print("{}{:<46} {:>16} {:>16} {:>8}  {}\n", indent, c.column, number(c.a), number(c.b),
               ratio_text(c.a, c.b), unit_of(c.column));
}

/// The config keys whose values differ between `a` and `b`, with both values.
std::map<std::string, std::set<std::string>> config_changes(const Json& a, const Json& b) {
    std::map<std::string, std::set<std::string>> out;
    for (const auto& [key, va] : a["config"].items()) {
        const Json vb = b["config"].value(key, Json());
        if (va != vb)
            out[key].insert(fmt::format("{} -> {}", value_text(key, va), value_text(key, vb)));
    }
    return out;
}

/// Lists `changes` (key -> its "A -> B" texts, one per distinct pair).
void print_config_changes(const std::map<std::string, std::set<std::string>>& changes) {
    fmt::print("config keys that differ:\n");
    for (const auto& [key, pairs] : changes)
        fmt::print("  {:<36} {}\n", key,
                   pairs.size() == 1 ? *pairs.begin()
                                     : fmt::format("{} different pairs of values", pairs.size()));
    if (changes.empty()) fmt::print("  (none)\n");
}

void print_account_moves(const Json& a, const Json& b) {
    const uint64_t total_a = total(account_of(a)), total_b = total(account_of(b));
    auto share = [](uint64_t part, uint64_t whole) {
        return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
    };
    fmt::print("\ncycle account, the causes that moved (largest move first):\n");
    const auto moves = account_moves(a, b);
    for (const AccountMove& m : moves)
        fmt::print("  {:<18} {:>12} ({:5.1f} %) -> {:>12} ({:5.1f} %)  {:+d} {}\n",
                   model::kCauseDefs[m.cause].name, m.a, share(m.a, total_a), m.b,
                   share(m.b, total_b), m.delta(),
                   figures::unit_for(static_cast<double>(m.delta()), "cycles"));
    if (moves.empty()) fmt::print("  (none)\n");
}

/// The three largest moves of the account on one line, for a sweep point.
std::string account_summary(const Json& a, const Json& b) {
    std::vector<std::string> parts;
    for (const AccountMove& m : account_moves(a, b)) {
        if (parts.size() == 3) break;
        parts.push_back(fmt::format("{} {:+d}", model::kCauseDefs[m.cause].name, m.delta()));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
}

bool diff_reports(const DiffRequest& r) {
    const Json a = read_report(r.a), b = read_report(r.b);
    fmt::print("A: {}\nB: {}\n\n", r.a, r.b);
    print_config_changes(config_changes(a, b));
    print_account_moves(a, b);
    const auto integrity_a = a["result"]["integrity"].get<std::string>(),
               integrity_b = b["result"]["integrity"].get<std::string>();
    fmt::print("\n{:<48} {:>16} {:>16} {:>8}  {}\n", "statistic", "A", "B", "B/A", "unit");
    bool flagged = integrity_a != integrity_b;
    for (const Change& c : compare(a, b, r.threshold)) {
        print_change(c.flagged ? "* " : "  ", c);
        flagged |= c.flagged;
    }
    fmt::print("{} {:<46} {:>16} {:>16}\n", integrity_a != integrity_b ? "*" : " ", "integrity",
               integrity_a, integrity_b);
    fmt::print("\n* changed by more than {} %\n", figures::significant(100 * r.threshold));
    return flagged;
}

/// A point of a sweep folder that has a report: its swept values, their
/// text ("workload.entries=4 ...") and the report.
struct SweptReport {
    Json values;
    std::string label;
    Json report;
};

/// A swept value's text ("16") as a number, if all of it is one.
std::optional<double> numeric(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
    return v;
}

/// Numbers by value, anything else by its text, key by key: 4 < 16.
bool values_before(const Json& a, const Json& b) {
    auto ia = a.begin(), ib = b.begin();
    for (; ia != a.end() && ib != b.end(); ++ia, ++ib) {
        const std::string ta = text_of(*ia), tb = text_of(*ib);
        if (ta == tb) continue;
        const auto na = numeric(ta), nb = numeric(tb);
        return na && nb && *na != *nb ? *na < *nb : ta < tb;
    }
    return ia == a.end() && ib != b.end();
}

/// The reports of a sweep folder in the order of their swept values; a
/// point whose values repeat another's shares its report (one run).
std::vector<SweptReport> sweep_points(const std::string& root) {
    const SweepDir dir{root};
    const Json manifest = read_manifest(dir.manifest());
    std::vector<SweptReport> out;
    std::set<std::string> labels;
    for (const auto& point : manifest["points"]) {
        if (point.contains("skipped")) continue;
        std::string label;
        for (const auto& [key, value] : point["values"].items())
            label += fmt::format("{}{}={}", label.empty() ? "" : " ", key, text_of(value));
        if (labels.count(label)) continue;
        if (auto report = read_complete_report(dir.report(point["id"].get<std::string>()))) {
            labels.insert(label);
            out.push_back({point["values"], label, std::move(*report)});
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const SweptReport& x, const SweptReport& y) {
        return values_before(x.values, y.values);
    });
    return out;
}

bool diff_sweeps(const DiffRequest& r) {
    const auto a = sweep_points(r.a), b = sweep_points(r.b);
    fmt::print("A: {} ({})\nB: {} ({})\n\n", r.a, figures::count(a.size(), "point", "points"), r.b,
               figures::count(b.size(), "point", "points"));
    std::map<std::string, const SweptReport*> in_b;
    for (const auto& point : b) in_b[point.label] = &point;
    std::map<std::string, std::set<std::string>> changed_keys;
    for (const auto& point : a)
        if (const auto it = in_b.find(point.label); it != in_b.end())
            for (auto& [key, pairs] : config_changes(point.report, it->second->report))
                changed_keys[key].insert(pairs.begin(), pairs.end());
    print_config_changes(changed_keys);

    bool flagged = false;
    size_t matched = 0;
    std::set<std::string> in_a;
    for (const auto& point : a) {
        in_a.insert(point.label);
        const auto it = in_b.find(point.label);
        if (it == in_b.end()) {
            fmt::print("\n{}: only in A\n", point.label);
            continue;
        }
        ++matched;
        std::vector<Change> changes;
        for (const Change& c : compare(point.report, it->second->report, r.threshold))
            if (c.flagged) changes.push_back(c);
        if (changes.empty()) continue;
        flagged = true;
        fmt::print("\n{}:\n", point.label);
        for (const Change& c : changes) print_change("  ", c);
        if (const std::string moved = account_summary(point.report, it->second->report);
            !moved.empty())
            fmt::print("  cycle account moved: {}\n", moved);
    }
    for (const auto& point : b)
        if (!in_a.count(point.label)) fmt::print("\n{}: only in B\n", point.label);
    fmt::print("\n{} in both; {} with a statistic changed by more than {} %\n",
               figures::count(matched, "point", "points"), flagged ? "some" : "none",
               figures::significant(100 * r.threshold));
    return flagged;
}

}  // namespace

int run_diff(const DiffRequest& r) {
    std::error_code ec;  // a name that cannot be a folder is read as a report, and refused there
    const bool dirs = fs::is_directory(r.a, ec), dir_b = fs::is_directory(r.b, ec);
    if (dirs != dir_b)
        throw ConfigError({r.b}, "compare two reports or two sweep folders, not one of each");
    const bool flagged = dirs ? diff_sweeps(r) : diff_reports(r);
    return r.fail_on_change && flagged ? 1 : 0;
}

}  // namespace dmasim::sim
