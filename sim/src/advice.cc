// advice.cc - see advice.h.
#include "advice.h"

#include <dmasim/tb/figure_format.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace dmasim::sim {

namespace figures = tb::figures;
namespace {

using model::KnobGroup;

struct Group {
    KnobGroup group;
    const char* json_name;
    const char* title;
};
// Engine first: what the engine's designer can change, before what the
// platform (memory, bus, link) or the driver decide.
constexpr Group kGroups[] = {{KnobGroup::engine, "engine", "engine knobs"},
                             {KnobGroup::platform, "platform", "platform knobs"},
                             {KnobGroup::driver, "driver", "driver/workload knobs"}};

std::string move_text(const WhatIfStep& s) {
    const std::string& unit = s.key->unit;
    if (unit.empty()) return fmt::format("{} -> {}", s.from, s.to);
    char* end = nullptr;
    const double to = std::strtod(s.to.c_str(), &end);
    return fmt::format("{} -> {} {}", s.from, s.to,
                       end == s.to.c_str() + s.to.size() ? figures::unit_for(to, unit) : unit);
}

double fraction(int64_t part, uint64_t whole) {
    return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

uint64_t cycles_of(const Json& report) { return report["result"]["cycles"].get<uint64_t>(); }

std::string largest_move_text(const WhatIfResult& r) {
    if (!r.largest_move) return "";
    return fmt::format("{} {:+d}", model::kCauseDefs[r.largest_move->cause].name,
                       r.largest_move->delta());
}

Json step_json(const WhatIfStep& s) {
    return {{"knob", s.key->name}, {"from", s.from}, {"to", s.to}, {"unit", s.key->unit}};
}

}  // namespace

WhatIfResult compare_to_baseline(const WhatIfStep& step, const Json& baseline, const Json& report) {
    WhatIfResult r;
    r.step = step;
    r.cycles = cycles_of(report);
    const uint64_t base = cycles_of(baseline);
    r.saved = static_cast<int64_t>(base) - static_cast<int64_t>(r.cycles);
    r.speedup = r.cycles ? static_cast<double>(base) / static_cast<double>(r.cycles) : 1.0;
    const std::vector<AccountMove> moves = account_moves(baseline, report);
    if (!moves.empty()) r.largest_move = moves.front();
    return r;
}

void rank(std::vector<WhatIfResult>& results) {
    std::stable_sort(
        results.begin(), results.end(),
        [](const WhatIfResult& a, const WhatIfResult& b) { return a.saved > b.saved; });
}

std::string advice_text(const Advice& a) {
    const uint64_t base = cycles_of(a.baseline);
    std::string out =
        fmt::format("baseline: {} cycles, {} B/cycle; {}, each one knob one step\n", base,
                    figures::significant(a.baseline["result"]["bytes_per_cycle"].get<double>()),
                    figures::count(a.results.size() + a.refused.size() + a.failed.size(), "what-if",
                                   "what-ifs"));
    std::vector<std::string> no_effect;
    for (const Group& g : kGroups) {
        std::string rows;
        for (const WhatIfResult& r : a.results) {
            if (r.step.key->what_if.group != g.group) continue;
            if (r.saved == 0) {
                no_effect.push_back(r.step.key->name);
                continue;
            }
            // Fixed decimals, not significant digits: the column compares rows.
            const std::string saved =
                fmt::format("{} ({:.1f} %)", r.saved, 100 * fraction(r.saved, base));
            rows += fmt::format("  {:<34} {:<28} {:>20}  {:>7.3f}x  {}\n", r.step.key->name,
                                move_text(r.step), saved, r.speedup, largest_move_text(r));
        }
        if (rows.empty()) continue;
        out += fmt::format("\n{:<36} {:<28} {:>20}  {:>8}  {}\n{}", g.title, "from -> to",
                           "cycles saved", "speedup", "largest account move", rows);
    }
    if (!no_effect.empty()) out += fmt::format("\nno effect: {}\n", fmt::join(no_effect, ", "));
    for (const RefusedStep& s : a.refused)
        out += fmt::format("not run, breaks a config rule here: {} {}: {}\n", s.step.key->name,
                           move_text(s.step), s.why);
    for (const FailedStep& s : a.failed)
        out += fmt::format("failed (exit status {}): {} {}\n      {}\n", s.status, s.step.key->name,
                           move_text(s.step), s.gist);
    return out;
}

Json advice_json(const Advice& a) {
    const uint64_t base = cycles_of(a.baseline);
    Json out = {{"baseline",
                 {{"cycles", base},
                  {"bytes_per_cycle", a.baseline["result"]["bytes_per_cycle"]},
                  {"throughput_gbps", a.baseline["result"]["throughput_gbps"]}}},
                {"config", a.baseline["config"]}};
    for (const Group& g : kGroups) {
        Json rows = Json::array();
        for (const WhatIfResult& r : a.results) {
            if (r.step.key->what_if.group != g.group) continue;
            Json row = step_json(r.step);
            row["cycles"] = r.cycles;
            row["cycles_saved"] = r.saved;
            row["saved_fraction"] = fraction(r.saved, base);
            row["speedup"] = r.speedup;
            row["largest_move"] =
                r.largest_move ? Json{{"cause", model::kCauseDefs[r.largest_move->cause].name},
                                      {"cycles", r.largest_move->delta()}}
                               : Json();
            rows.push_back(std::move(row));
        }
        out[g.json_name] = std::move(rows);
    }
    Json refused = Json::array(), failed = Json::array();
    for (const RefusedStep& s : a.refused) {
        Json row = step_json(s.step);
        row["why"] = s.why;
        refused.push_back(std::move(row));
    }
    for (const FailedStep& s : a.failed) {
        Json row = step_json(s.step);
        row["exit_status"] = s.status;
        failed.push_back(std::move(row));
    }
    out["not_run"] = std::move(refused);
    out["failed"] = std::move(failed);
    return out;
}

}  // namespace dmasim::sim
