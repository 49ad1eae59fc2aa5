// fit.cc - the search behind `dmasim fit`, its sweeps, and what it prints
// and writes.
#include "fit.h"

#include <dmasim/files/atomic_file.h>
#include <dmasim/tb/figure_format.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>

#include "config_docs.h"
#include "config_error.h"
#include "config_loader.h"
#include "csv_table.h"
#include "fit_input.h"
#include "json_read.h"
#include "process.h"
#include "sweep_dir.h"

namespace dmasim::sim {

namespace figures = tb::figures;
namespace {

namespace fs = std::filesystem;

/// Grid points per key and round: the window around the best shrinks by
/// about this factor each round, so a range of R values takes log_8(R)
/// rounds of one sweep each.
constexpr uint64_t kGrid = 9;
/// Passes of the grid phase over all keys; it stops earlier once a pass
/// changes nothing.
constexpr int kMaxPasses = 3;
/// Sweeps the pattern phase may take (each scores 2n^2 neighbours).
constexpr size_t kMaxPatternSweeps = 200;
/// A change of the training error this small (0.05 percentage points of
/// mean |relative error|) is no change: the points do not see the move.
constexpr double kFlatError = 0.0005;

using Assignment = std::vector<uint64_t>;  ///< value index per fitted key

struct Score {
    double train = 0, held_out = 0;              ///< mean |relative error| per measured value
    std::vector<std::vector<double>> predicted;  ///< [row][measure]
    /// Why the values break a config rule at some point (the sweep skipped
    /// it), or empty; such values score +inf and are never chosen.
    std::string invalid;
};

std::string yaml_list(const std::vector<std::string>& items) {
    return fmt::format("[{}]", fmt::join(items, ", "));
}

class Fitter {
public:
    Fitter(const FitRequest& r, std::vector<FitKey> keys, FitPoints points, fs::path work)
        : r_(r), keys_(std::move(keys)), points_(std::move(points)), work_(std::move(work)) {}

    /// First each key in turn over shrinking grids (fast on separable
    /// errors), then a pattern search over every key at once (keys that
    /// trade off against each other leave a diagonal valley that one key
    /// at a time cannot walk along).
    Assignment search(const Assignment& start) {
        Assignment best = start;
        for (int pass = 0; pass < kMaxPasses; ++pass) {
            const Assignment before = best;
            for (size_t k = 0; k < keys_.size(); ++k) best[k] = search_key(best, k);
            if (best == before) break;
        }
        return pattern_search(best);
    }

    Score score(const Assignment& a) { return evaluate({a}).front(); }

    /// What the points leave open around `best` (training error `error`),
    /// one sentence each: a key whose neighbouring values (one step either
    /// way) score within kFlatError of it, and a pair of keys that each
    /// move the error alone but leave it that flat when both move one step
    /// together (both up, or one up and the other down): the points see
    /// only their sum or difference. The neighbours are the pattern
    /// search's last ones, so the sweep finds them already run.
    std::vector<std::string> indistinct(const Assignment& best, double error) {
        const std::vector<Assignment> around =
            neighbours(best, std::vector<uint64_t>(keys_.size(), 1));
        if (around.empty()) return {};  // every key holds one value
        const std::vector<Score> scores = evaluate(around);
        // -1, 0 or +1: how assignment `a` moved key k from `best`.
        auto move_of = [&](const Assignment& a, size_t k) {
            return a[k] > best[k] ? 1 : a[k] < best[k] ? -1 : 0;
        };
        // Whether every valid neighbour that `moves` picks scores within
        // kFlatError, given it picks at least one.
        auto flat = [&](auto moves) {
            bool any = false;
            for (size_t i = 0; i < around.size(); ++i) {
                if (!scores[i].invalid.empty() || !moves(around[i])) continue;
                if (std::fabs(scores[i].train - error) > kFlatError) return false;
                any = true;
            }
            return any;
        };
        auto only = [&](const Assignment& a, size_t k, size_t j) {
            for (size_t other = 0; other < keys_.size(); ++other)
                if (other != k && other != j && move_of(a, other) != 0) return false;
            return true;
        };
        std::vector<std::string> found;
        std::vector<bool> alone_flat(keys_.size());
        for (size_t k = 0; k < keys_.size(); ++k) {
            alone_flat[k] =
                flat([&](const Assignment& a) { return move_of(a, k) != 0 && only(a, k, k); });
            if (alone_flat[k])
                found.push_back(fmt::format(
                    "{} = {}: one step either way changes the mean |relative error| by less than "
                    "{} percentage points; these points barely fix it",
                    keys_[k].def->name, keys_[k].value(best[k]), 100 * kFlatError));
        }
        for (size_t k = 0; k < keys_.size(); ++k)
            for (size_t j = k + 1; j < keys_.size(); ++j) {
                if (alone_flat[k] || alone_flat[j]) continue;
                for (int sign : {1, -1}) {
                    if (!flat([&](const Assignment& a) {
                            return move_of(a, k) != 0 && move_of(a, j) == sign * move_of(a, k) &&
                                   only(a, k, j);
                        }))
                        continue;
                    found.push_back(fmt::format(
                        "keys {} and {} cannot be told apart by these points: moving both one "
                        "step ({}) changes the mean |relative error| by less than {} percentage "
                        "points, though each alone changes it",
                        keys_[k].def->name, keys_[j].def->name,
                        sign > 0 ? "both up or both down" : "one up, the other down",
                        100 * kFlatError));
                }
            }
        return found;
    }
    size_t evaluations() const { return evaluations_; }
    /// Value combinations the search met that break a config rule at some
    /// point, and one of them with its reason.
    size_t invalid_combinations() const { return invalid_.size(); }
    const std::string& invalid_example() const { return invalid_example_; }
    const std::vector<FitKey>& keys() const { return keys_; }
    const FitPoints& points() const { return points_; }

private:
    uint64_t search_key(const Assignment& a, size_t k) {
        uint64_t lo = 0, hi = keys_[k].size() - 1, best = a[k];
        while (true) {
            std::vector<uint64_t> grid = grid_over(lo, hi);
            if (std::find(grid.begin(), grid.end(), best) == grid.end()) grid.push_back(best);
            std::sort(grid.begin(), grid.end());
            std::vector<Assignment> candidates(grid.size(), a);
            for (size_t i = 0; i < grid.size(); ++i) candidates[i][k] = grid[i];
            const std::vector<Score> scores = evaluate(candidates);
            size_t at = std::find(grid.begin(), grid.end(), best) - grid.begin();
            for (size_t i = 0; i < grid.size(); ++i)
                if (scores[i].train < scores[at].train) at = i;
            best = grid[at];
            if (hi - lo + 1 <= kGrid) return best;
            lo = at > 0 ? grid[at - 1] : grid[at];
            hi = at + 1 < grid.size() ? grid[at + 1] : grid[at];
            if (hi - lo < 2) return best;
        }
    }

    static std::vector<uint64_t> grid_over(uint64_t lo, uint64_t hi) {
        std::vector<uint64_t> grid;
        const uint64_t span = hi - lo;
        const uint64_t steps = std::min<uint64_t>(span, kGrid - 1);
        // span * i needs more than 64 bits on a range over 2^61 values.
        for (uint64_t i = 0; i <= steps; ++i)
            grid.push_back(lo + (steps ? static_cast<uint64_t>(
                                             static_cast<unsigned __int128>(span) * i / steps)
                                       : 0));
        grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
        return grid;
    }

    /// Moves to the best of the neighbours at the current steps
    /// while that improves, halving the steps when none does, down to 1.
    Assignment pattern_search(Assignment best) {
        std::vector<uint64_t> step(keys_.size());
        for (size_t k = 0; k < keys_.size(); ++k)
            step[k] = std::max<uint64_t>(1, keys_[k].size() / 16);
        double best_error = score(best).train;
        for (size_t sweeps = 0; sweeps < kMaxPatternSweeps; ++sweeps) {
            const std::vector<Assignment> around = neighbours(best, step);
            const std::vector<Score> scores = evaluate(around);
            size_t at = around.size();
            for (size_t i = 0; i < around.size(); ++i)
                if (scores[i].train < best_error &&
                    (at == around.size() || scores[i].train < scores[at].train))
                    at = i;
            if (at < around.size()) {
                best = around[at];
                best_error = scores[at].train;
            } else if (*std::max_element(step.begin(), step.end()) > 1) {
                for (auto& s : step) s = std::max<uint64_t>(1, s / 2);
            } else {
                break;
            }
        }
        return best;
    }

    /// The assignments one step away along one key, or along two at once
    /// (a valley where two keys trade off runs diagonally in their plane):
    /// 2n^2 neighbours rather than all 3^n - 1, so five keys cost 50 runs
    /// per step, not 242.
    std::vector<Assignment> neighbours(const Assignment& at,
                                       const std::vector<uint64_t>& step) const {
        auto moved = [&](Assignment a, size_t k, int dir) -> std::optional<Assignment> {
            if (dir < 0 ? a[k] < step[k] : a[k] + step[k] >= keys_[k].size()) return std::nullopt;
            a[k] = dir < 0 ? a[k] - step[k] : a[k] + step[k];
            return a;
        };
        std::vector<Assignment> out;
        for (size_t k = 0; k < keys_.size(); ++k)
            for (int dk : {-1, 1}) {
                const std::optional<Assignment> one = moved(at, k, dk);
                if (!one) continue;
                out.push_back(*one);
                for (size_t j = k + 1; j < keys_.size(); ++j)
                    for (int dj : {-1, 1})
                        if (auto two = moved(*one, j, dj)) out.push_back(*two);
            }
        return out;
    }

    /// Scores every assignment in one sweep: each assignment's values for
    /// the fitted keys, zipped with each point's.
    std::vector<Score> evaluate(const std::vector<Assignment>& assignments) {
        ++evaluations_;
        const std::string sweep = (work_ / "fit-sweep.yaml").string();
        tb::write_file_atomically(sweep, sweep_yaml(assignments));
        const std::string log = (work_ / "fit-sweep.log").string();
        const std::vector<std::string> argv = {r_.dmasim_exe,
                                               "sweep",
                                               sweep,
                                               "--out",
                                               (work_ / "points").string(),
                                               "-j",
                                               std::to_string(r_.jobs),
                                               "--resume",
                                               "--no-plot",
                                               "--max-sim-cycles",
                                               std::to_string(r_.max_sim_cycles)};
        const pid_t pid = spawn(argv, log, log);
        int status = 0;
        for (pid_t done = 0; done != pid;) std::tie(done, status) = wait_any();
        if (status != 0)
            throw std::runtime_error(fmt::format(
                "a point of the fit's sweep failed (exit status {}); see {}", status, log));
        std::vector<Score> scores = read_scores(assignments);
        for (size_t i = 0; i < scores.size(); ++i)
            if (!scores[i].invalid.empty() && invalid_.insert(assignments[i]).second &&
                invalid_example_.empty())
                invalid_example_ =
                    fmt::format("{}: {}", describe(assignments[i]), scores[i].invalid);
        return scores;
    }

    /// "KEY=VALUE ..." of the fitted keys.
    std::string describe(const Assignment& a) const {
        std::vector<std::string> kv;
        for (size_t k = 0; k < keys_.size(); ++k)
            kv.push_back(fmt::format("{}={}", keys_[k].def->name, keys_[k].value(a[k])));
        return fmt::format("{}", fmt::join(kv, " "));
    }

    /// The points the sweep skipped (values that break a config rule), by
    /// their values in the order read_scores() matches rows, with why.
    std::map<std::vector<std::string>, std::string> skipped_points() const {
        std::map<std::vector<std::string>, std::string> skipped;
        const Json manifest = read_json_file((work_ / "points" / "sweep.json").string());
        for (const Json& point : manifest.value("points", Json::array())) {
            if (!point.is_object() || !point.contains("skipped") || !point.contains("values"))
                continue;
            const Json& values = point["values"];
            std::vector<std::string> id;
            auto add = [&](const std::string& key) {
                id.push_back(values.contains(key) && values[key].is_string()
                                 ? values[key].get<std::string>()
                                 : "");
            };
            for (const auto& key : keys_) add(key.def->name);
            for (const auto& key : points_.keys) add(key);
            skipped[id] = point["skipped"].is_string() ? point["skipped"].get<std::string>() : "";
        }
        return skipped;
    }

    /// The values of a zipped column: each assignment's, for every point.
    std::string sweep_yaml(const std::vector<Assignment>& assignments) const {
        std::string y = fmt::format(
            "# Written by dmasim fit: one evaluation of its search.\n"
            "base: {}\nzip:\n",
            nlohmann::json(fs::absolute(r_.profile).string()).dump());
        for (size_t k = 0; k < keys_.size(); ++k) {
            std::vector<std::string> column;
            for (const Assignment& a : assignments)
                column.insert(column.end(), points_.measured.size(),
                              std::to_string(keys_[k].value(a[k])));
            y += fmt::format("  {}: {}\n", keys_[k].def->name, yaml_list(column));
        }
        for (size_t c = 0; c < points_.keys.size(); ++c) {
            const KeyDef& key = *find_key(points_.keys[c]);
            std::vector<std::string> column;
            for (size_t i = 0; i < assignments.size(); ++i)
                for (const auto& row : points_.values) column.push_back(yaml_scalar(key, row[c]));
            y += fmt::format("  {}: {}\n", key.name, yaml_list(column));
        }
        return y;
    }

    /// Reads the sweep's results.csv back, matching rows by their swept
    /// values (so the sweep's point order does not matter).
    std::vector<Score> read_scores(const std::vector<Assignment>& assignments) const {
        const CsvTable results = read_csv((work_ / "points" / "results.csv").string());
        std::vector<int> columns, measures;
        for (const auto& key : keys_) columns.push_back(results.column(key.def->name));
        for (const auto& key : points_.keys) columns.push_back(results.column(key));
        for (const auto& m : points_.measures) measures.push_back(results.column(m));
        const auto missing = [](const std::vector<int>& c) {
            return std::find(c.begin(), c.end(), -1) != c.end();
        };
        // No row at all (every point skipped) has no statistic columns either.
        if (!results.rows.empty() && (missing(columns) || missing(measures)))
            throw std::runtime_error(
                fmt::format("{}: the fit's sweep results lack a column", results.file));
        const auto skipped = skipped_points();
        std::map<std::vector<std::string>, const CsvRow*> by_point;
        for (const CsvRow& row : results.rows) {
            std::vector<std::string> id;
            for (int c : columns) id.push_back(row.fields[c]);
            by_point[id] = &row;
        }
        std::vector<Score> scores;
        for (const Assignment& a : assignments) {
            Score s;
            size_t train = 0, held = 0;
            for (size_t p = 0; p < points_.measured.size(); ++p) {
                std::vector<std::string> id;
                for (size_t k = 0; k < keys_.size(); ++k)
                    id.push_back(std::to_string(keys_[k].value(a[k])));
                id.insert(id.end(), points_.values[p].begin(), points_.values[p].end());
                const auto it = by_point.find(id);
                if (const auto why = skipped.find(id);
                    it == by_point.end() && why != skipped.end()) {
                    s.invalid = why->second;
                    break;
                }
                if (it == by_point.end())
                    throw std::runtime_error(fmt::format("{}: no result for the point of {}:{}",
                                                         results.file, points_.file,
                                                         points_.lines[p]));
                std::vector<double> predicted;
                for (size_t m = 0; m < measures.size(); ++m) {
                    predicted.push_back(number(results, *it->second, measures[m]));
                    const auto& measured = points_.measured[p][m];
                    if (!measured) continue;
                    const double error = std::fabs(predicted.back() / *measured - 1);
                    (points_.held_out[p] ? s.held_out : s.train) += error;
                    ++(points_.held_out[p] ? held : train);
                }
                s.predicted.push_back(std::move(predicted));
            }
            if (!s.invalid.empty()) {
                s.train = s.held_out = std::numeric_limits<double>::infinity();
                s.predicted.clear();
            }
            if (train && s.invalid.empty()) s.train /= train;
            if (held && s.invalid.empty()) s.held_out /= held;
            scores.push_back(std::move(s));
        }
        return scores;
    }

    /// A result the sweep wrote; a point that lacks it (a statistic of a
    /// channel the run does not have) cannot be scored.
    static double number(const CsvTable& results, const CsvRow& row, int column) {
        const std::string& text = row.fields[column];
        try {
            return std::stod(text);
        } catch (const std::exception&) {
            throw std::runtime_error(fmt::format("{}:{}: column '{}' holds '{}', not a number",
                                                 results.file, row.line, results.header[column],
                                                 text));
        }
    }

    const FitRequest& r_;
    std::vector<FitKey> keys_;
    FitPoints points_;
    fs::path work_;
    size_t evaluations_ = 0;
    std::set<Assignment> invalid_;
    std::string invalid_example_;
};

/// The profile's own value of each key (nearest allowed), where the search starts.
Assignment starting_point(const std::vector<FitKey>& keys, const tb::SimConfig& config) {
    Assignment a;
    for (const FitKey& key : keys)
        a.push_back(key.index_of(std::get<uint64_t>(key.def->get(config))));
    return a;
}

std::vector<std::string> split_dots(const std::string& name) {
    std::vector<std::string> parts;
    for (size_t from = 0;;) {
        const size_t dot = name.find('.', from);
        parts.push_back(name.substr(from, dot - from));
        if (dot == std::string::npos) return parts;
        from = dot + 1;
    }
}

/// One line per measured value; every column as wide as its widest cell,
/// so long point names keep the figures lined up.
void print_residuals(const Fitter& f, const Score& s) {
    const FitPoints& p = f.points();
    using Row = std::array<std::string, 6>;  // line, point, measurement, measured, dmasim, error
    std::vector<Row> rows = {{"line", "point", "measurement", "measured", "dmasim", "error"}};
    std::vector<bool> held_out = {false};
    for (size_t r = 0; r < p.measured.size(); ++r) {
        std::vector<std::string> kv;
        for (size_t c = 0; c < p.keys.size(); ++c)
            kv.push_back(fmt::format("{}={}", p.keys[c], p.values[r][c]));
        for (size_t m = 0; m < p.measures.size(); ++m) {
            if (!p.measured[r][m]) continue;
            const double measured = *p.measured[r][m], predicted = s.predicted[r][m];
            rows.push_back({std::to_string(p.lines[r]), fmt::format("{}", fmt::join(kv, " ")),
                            p.measures[m], figures::significant(measured, 6),
                            figures::significant(predicted, 6),
                            fmt::format("{:+.2f}%", 100 * (predicted / measured - 1))});
            held_out.push_back(p.held_out[r]);
        }
    }
    std::array<size_t, 6> width{};
    for (const Row& row : rows)
        for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        fmt::print("{:>{}}  {:<{}} {:<{}} {:>{}} {:>{}} {:>{}}{}\n", row[0], width[0], row[1],
                   width[1], row[2], width[2], row[3], width[3], row[4], width[4], row[5], width[5],
                   held_out[i] ? "  held out" : "");
    }
}

/// Warns of each fitted key that stopped at an end of the values it could
/// take: of the searched range (the best may lie beyond: widen it) or of
/// the key's own range (the points want what the key cannot give).
void warn_at_range_ends(const std::vector<FitKey>& keys, const Assignment& best) {
    for (size_t k = 0; k < keys.size(); ++k) {
        const FitKey& key = keys[k];
        const bool low = best[k] == 0, high = best[k] + 1 == key.size();
        if (key.size() < 2 || (!low && !high)) continue;
        const KeyDef& def = *key.def;
        const uint64_t v = key.value(best[k]);
        const bool key_end = low ? (def.power_of_two ? v / 2 < def.int_min : v == def.int_min)
                                 : (def.power_of_two ? v > def.int_max / 2 : v == def.int_max);
        fmt::print("warning: {} stopped at {}, the {} end of {}\n", def.name, v,
                   low ? "lower" : "upper",
                   key_end ? fmt::format("the key's own range ({}): the points want a value it "
                                         "cannot take, or a mechanism the profile lacks",
                                         describe_allowed(def))
                           : fmt::format("the searched range {}..{}: the best value may lie "
                                         "beyond it, widen --key {}",
                                         key.lo, key.hi, def.name));
    }
}

/// The median and largest |relative error| over every measured value,
/// training and held out alike: the figures a validation bound is set on.
void print_spread(const Fitter& f, const Score& s) {
    const FitPoints& p = f.points();
    std::vector<double> errors;
    for (size_t r = 0; r < p.measured.size(); ++r)
        for (size_t m = 0; m < p.measures.size(); ++m)
            if (p.measured[r][m])
                errors.push_back(std::fabs(s.predicted[r][m] / *p.measured[r][m] - 1));
    std::sort(errors.begin(), errors.end());
    const size_t n = errors.size();
    const double median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    fmt::print("all {}: median |relative error| {:.2f} %, max {:.2f} %\n",
               figures::count(n, "measured value", "measured values"), 100 * median,
               100 * errors.back());
}

std::string held_out_text(const FitPoints& p, const Score& s) {
    const auto n = std::count(p.held_out.begin(), p.held_out.end(), true);
    return n ? fmt::format("{:.2f} % ({})", 100 * s.held_out, figures::count(n, "point", "points"))
             : std::string("none (fewer than 5 points)");
}

/// The fitted profile: the original as its base, the fitted keys nested
/// by section, each with a comment saying what it was fitted to.
std::string fitted_yaml(const FitRequest& r, const Fitter& f, const Assignment& a, const Score& s) {
    const FitPoints& p = f.points();
    const fs::path out_dir = fs::absolute(r.output).parent_path();
    std::string y = fmt::format(
        "# Fitted by `dmasim fit` to {} ({} points; measured {}).\n"
        "# Mean |relative error|: training {:.2f} %, held-out {}.\n"
        "base: {}\n",
        r.points, p.measured.size(), fmt::join(p.measures, ", "), 100 * s.train,
        held_out_text(p, s),
        nlohmann::json(fs::relative(fs::absolute(r.profile), out_dir).string()).dump());
    // Sorted by name, so each section opens once; a section header is
    // written where a key's path first differs from the previous key's.
    std::vector<size_t> order(f.keys().size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t i, size_t j) {
        return split_dots(f.keys()[i].def->name) < split_dots(f.keys()[j].def->name);
    });
    std::vector<std::string> previous;
    for (size_t k : order) {
        const FitKey& key = f.keys()[k];
        const std::vector<std::string> path = split_dots(key.def->name);
        size_t same = 0;
        while (same + 1 < path.size() && same < previous.size() && path[same] == previous[same])
            ++same;
        for (size_t d = same; d + 1 < path.size(); ++d)
            y += fmt::format("{:{}}{}:\n", "", 2 * d, path[d]);
        y += fmt::format("{:{}}{}: {}  # fitted over {}..{}\n", "", 2 * (path.size() - 1),
                         path.back(), key.value(a[k]), key.lo, key.hi);
        previous = path;
    }
    return y;
}

/// Every point must be a valid configuration with the fitted keys at any
/// value of their ranges; checked at both ends of each range, before
/// anything runs, so a bad row is named rather than skipped by a sweep.
void check_points(const std::string& profile, const std::vector<FitKey>& keys,
                  const FitPoints& points) {
    for (size_t r = 0; r < points.measured.size(); ++r) {
        for (const bool high : {false, true}) {
            std::vector<std::string> sets;
            for (size_t c = 0; c < points.keys.size(); ++c)
                sets.push_back(points.keys[c] + "=" + points.values[r][c]);
            for (const FitKey& key : keys)
                sets.push_back(fmt::format("{}={}", key.def->name, high ? key.hi : key.lo));
            try {
                load_config(profile, sets);
            } catch (const ConfigError& e) {
                throw ConfigError({points.file, points.lines[r]}, e.what(), e.keys);
            } catch (const tb::ConfigError& e) {
                throw ConfigError({points.file, points.lines[r]}, e.what());
            }
        }
    }
}

/// Refuses a folder under /dev, /proc or /sys: nothing dmasim writes
/// belongs there (as root, /dev would take it).
void refuse_system_folder(const std::string& option, const fs::path& path) {
    std::error_code ec;
    const fs::path full = fs::weakly_canonical(fs::absolute(path), ec);
    for (const char* system : {"/dev", "/proc", "/sys"}) {
        const auto rel = full.lexically_relative(system);
        if (!rel.empty() && *rel.begin() != "..")
            throw ConfigError(
                {fmt::format("{} {}", option, path.string()), 0},
                fmt::format("is under {}: the fit writes no work files there", system));
    }
}

/// -o and the work folder, checked before anything runs (exit 2 naming
/// the path): -o must be writable (output_target(): not a folder, a
/// dangling link, ...), the default work folder OUTPUT.d exists only beside
/// a regular OUTPUT (never beside /dev/null or a FIFO), and the work folder
/// must be a folder, or be creatable, outside /dev, /proc and /sys.
fs::path work_folder(const FitRequest& r) {
    if (std::string why = tb::unwritable(r.output); !why.empty())
        throw ConfigError({"-o " + r.output, 0}, why);
    fs::path work = r.work_dir;
    if (work.empty()) {
        if (tb::output_target(r.output).in_place)
            throw ConfigError({"-o " + r.output, 0},
                              "is a device or FIFO, so there is no OUTPUT.d work folder beside "
                              "it: give --work DIR");
        work = r.output + ".d";
    }
    const std::string option = r.work_dir.empty() ? "-o " + r.output + " (work folder)" : "--work";
    refuse_system_folder(option, work);
    std::error_code ec;
    const fs::file_status status = fs::status(work, ec);
    if (fs::exists(status) && !fs::is_directory(status))
        throw ConfigError({fmt::format("{} {}", option, work.string()), 0},
                          "exists and is not a folder");
    if (!fs::exists(status) && !fs::is_directory(fs::absolute(work).parent_path(), ec))
        throw ConfigError({fmt::format("{} {}", option, work.string()), 0},
                          fmt::format("its parent {} is not a folder",
                                      fs::absolute(work).parent_path().string()));
    return work;
}

}  // namespace

int run_fit(const FitRequest& r) {
    const fs::path work = work_folder(r);
    const tb::SimConfig profile = load_config(r.profile, {});
    std::vector<FitKey> keys;
    for (const auto& arg : r.keys) {
        keys.push_back(parse_fit_key(arg, profile.platform.clock_mhz));
        for (size_t i = 0; i + 1 < keys.size(); ++i)
            if (keys[i].def == keys.back().def)
                throw ConfigError({"--key", 0},
                                  fmt::format("'{}' is given twice", keys.back().def->name));
    }
    FitPoints points = read_fit_points(r.points, keys);
    check_points(r.profile, keys, points);
    SweepDir{(work / "points").string()}.create();
    Fitter fitter(r, keys, std::move(points), work);
    // No key to fit: the profile is only scored.
    const Assignment best =
        keys.empty() ? Assignment{} : fitter.search(starting_point(keys, profile));
    const Score s = fitter.score(best);
    if (!s.invalid.empty())
        throw ConfigError({"--key", 0},
                          fmt::format("no values the search tried are a valid configuration at "
                                      "every point; e.g. {}",
                                      fitter.invalid_example()));

    print_residuals(fitter, s);
    for (size_t k = 0; k < keys.size(); ++k)
        fmt::print("fitted {} = {} (searched {}..{})\n", keys[k].def->name, keys[k].value(best[k]),
                   keys[k].lo, keys[k].hi);
    fmt::print("mean |relative error|: training {:.2f} %, held-out {}; {}\n", 100 * s.train,
               held_out_text(fitter.points(), s),
               figures::count(fitter.evaluations(), "sweep", "sweeps"));
    print_spread(fitter, s);
    warn_at_range_ends(keys, best);
    if (!keys.empty())
        for (const std::string& open : fitter.indistinct(best, s.train))
            fmt::print("warning: {}\n", open);
    if (const size_t n = fitter.invalid_combinations())
        fmt::print("skipped {} of values that break a config rule at some point, e.g. {}\n",
                   figures::count(n, "combination", "combinations"), fitter.invalid_example());
    tb::write_file_atomically(r.output, fitted_yaml(r, fitter, best, s));
    fmt::print("wrote {}\n", r.output);
    return 0;
}

}  // namespace dmasim::sim
