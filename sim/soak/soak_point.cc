// soak_point.cc - draws soak points: every row of the parameter table,
// each within its own range (or the narrower soak range the row gives),
// so a new row is soaked without a line here. Sizes are log-uniform so
// small and large lists, and tiny and huge segments, are all common.
#include "soak_point.h"

#include <dmasim/tb/validate.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

#include "config_error.h"
#include "config_keys.h"
#include "config_loader.h"

namespace dmasim::soak {
namespace {

using Row = model::ParamDef<tb::SimConfig>;

class Draw {
public:
    explicit Draw(uint64_t seed) : rng_(seed) {}

    uint64_t uniform(uint64_t lo, uint64_t hi) {
        return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
    }
    /// log-uniform in [lo, hi], lo >= 1
    uint64_t log_uniform(uint64_t lo, uint64_t hi) {
        const double e = std::uniform_real_distribution<double>(std::log(double(lo)),
                                                                std::log(double(hi) + 1))(rng_);
        const double v = std::exp(e);
        return v >= double(hi) ? hi : std::max<uint64_t>(uint64_t(v), lo);
    }
    /// log-uniform in [lo, hi], lo > 0, to one significant digit (0.5, 4,
    /// 60, 2000: values a person would set, and a clock whose period is
    /// whole picoseconds as often as not).
    double log_uniform_real(double lo, double hi) {
        const double v =
            std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(rng_));
        const double decade = std::pow(10.0, std::floor(std::log10(v)));
        return std::clamp(std::round(v / decade) * decade, lo, hi);
    }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    template <class T>
    const T& pick(const std::vector<T>& options) {
        return options[uniform(0, options.size() - 1)];
    }

private:
    std::mt19937_64 rng_;
};

/// Rows the soak leaves at their defaults, each with its reason.
const std::vector<std::string> kNotSoakedKeys = {
    // An injected fault ends its transfer with an error on purpose; the
    // soak checks runs that succeed (the bus_fault and error_injection
    // scenarios test faults).
    "fault.kind",
};

/// Scenarios whose reports the soak knows how to check (soak_check.cc),
/// a request stream in a quarter of points.
const std::vector<std::string> kScenarios = {"throughput", "throughput", "multi_channel",
                                             "requests"};

// Where a range includes 0 it is a mode (no cap, no timer, no traffic,
// on demand), so a quarter of draws take it.
constexpr double kZeroShare = 0.25;

/// A value of integer row `r`: log-uniform (a power of two in half the
/// draws, as most hardware sizes are), or one of its allowed values.
uint64_t draw_integer(Draw& d, const model::IntRange& r) {
    if (!r.values.empty()) return d.pick(r.values);
    const uint64_t lo = r.soak.narrowed ? r.soak.min : r.min;
    const uint64_t hi = r.soak.narrowed ? r.soak.max : r.max;
    if (r.power_of_two)
        return uint64_t{1} << d.uniform(__builtin_ctzll(lo), 63 - __builtin_clzll(hi));
    if (lo == 0 && d.chance(kZeroShare)) return 0;
    const uint64_t v = d.log_uniform(std::max<uint64_t>(lo, 1), std::max<uint64_t>(hi, 1));
    if (!d.chance(0.5)) return v;
    const uint64_t rounded = uint64_t{1} << (63 - __builtin_clzll(v));
    return rounded >= lo ? rounded : v;
}

/// A value of real row `r`, log-uniform over its soak range (from 0, over
/// the range's top three decades). 0 is drawn only where the soak range has it.
double draw_real(Draw& d, const model::RealRange& r) {
    const double lo = r.soak.narrowed ? r.soak.min : r.min;
    const double hi = r.soak.narrowed ? r.soak.max : r.max;
    if (lo == 0 && d.chance(kZeroShare)) return 0;
    return d.log_uniform_real(lo > 0 ? lo : hi / 1000, hi);
}

struct Builder {
    Point p;
    /// The value drawn for `key`, which must have been drawn.
    const std::string& get(const std::string& key) const {
        const auto it = std::find_if(p.sets.begin(), p.sets.end(),
                                     [&key](const auto& kv) { return kv.first == key; });
        if (it == p.sets.end()) throw std::logic_error("soak: " + key + " is not drawn");
        return it->second;
    }
    uint64_t number(const std::string& key) const { return std::stoull(get(key)); }
};

/// `r`'s value as a config spells it.
std::string draw_row(Draw& d, const Row& r) {
    switch (r.kind) {
        case model::ParamKind::integer:
            return std::to_string(draw_integer(d, r.int_range));
        case model::ParamKind::real:
            return fmt::format("{}", draw_real(d, r.real_range));
        case model::ParamKind::boolean:
            return d.chance(0.5) ? "true" : "false";
        case model::ParamKind::choice:
            return d.pick(r.choices);
        case model::ParamKind::text:
            break;
    }
    if (r.key == "workload.scenario") return d.pick(kScenarios);
    throw std::logic_error(fmt::format(
        "soak: no way to draw text key {}: teach generate_point or list it in kNotSoakedKeys",
        r.key));
}

/// One of the first `kinds` directions of the key's table.
const std::string& any_direction(Draw& d, size_t kinds) {
    const auto& directions = sim::find_key("workload.direction")->choices;
    return directions[d.uniform(0, std::min(kinds, directions.size()) - 1)];
}

/// A trace of 1 to 40 requests in a mix of up to `kinds` directions, 1 to
/// 8 entries of 1 B to 64 KiB each, at in-page offsets if `offsets`,
/// arriving together or apart (docs/request-traces.md).
std::string any_trace(Draw& d, size_t kinds, bool offsets) {
    std::string text;
    uint64_t at = 0;
    for (uint64_t r = d.uniform(1, 40); r > 0; --r) {
        at += d.chance(0.3) ? 0 : d.log_uniform(1, 100000);
        text += fmt::format("{} {}", at, any_direction(d, kinds));
        for (uint64_t e = d.log_uniform(1, 8); e > 0; --e) {
            text += fmt::format(" {}", d.log_uniform(1, 65536));
            if (offsets && d.chance(0.3)) text += fmt::format("@{}", d.uniform(0, 4095));
        }
        text += "\n";
    }
    return text;
}

/// The keys that set the size of the point's lists.
const std::vector<std::string> kSizeKeys = {"workload.entries", "workload.segment_bytes",
                                            "workload.segment_bytes_max", "workload.requests",
                                            "dma.channels"};

/// Whether the point's lists fit the soak's budget: at most kMaxListBytes
/// each, kMaxPointBytes and kMaxPointDescriptors in all, so hundreds of
/// points stay fast.
/// A budget, not a rule: the rows' ranges allow more.
bool within_budget(const Builder& b) {
    const std::string& scenario = b.get("workload.scenario");
    const uint64_t entries = b.number("workload.entries");
    const uint64_t largest =
        std::max(b.number("workload.segment_bytes"), b.number("workload.segment_bytes_max"));
    const uint64_t lists = scenario == "requests"        ? b.number("workload.requests")
                           : scenario == "multi_channel" ? b.number("dma.channels")
                                                         : 1;
    return entries * largest <= kMaxListBytes && lists * entries * largest <= kMaxPointBytes &&
           lists * entries <= kMaxPointDescriptors;
}

/// The keys a scenario's own rules read.
const std::vector<std::string> kScenarioKeys = {"workload.scenario", "dma.submission",
                                                "workload.arrival"};

/// Whether the point's scenario takes what was drawn for it. A scenario's
/// traits (kKeepsRing, kReplaysTraces) live in the testbench, which the
/// soak does not link, so its rules on them are not in load_config(): of
/// the soak's scenarios only `requests` keeps a ring and replays traces.
bool fits_scenario(const Builder& b) {
    return b.get("workload.scenario") == "requests" ||
           (b.get("dma.submission") == "start" && b.get("workload.arrival") != "trace");
}

/// Whether the point replays a request trace (written once it is drawn).
bool replays_trace(const Builder& b) {
    return b.get("workload.scenario") == "requests" && b.get("workload.arrival") == "trace";
}

/// A refusal: the keys it names, none if it names none.
using Refusal = std::optional<std::vector<std::string>>;

/// The first refusal by the model's or the testbench's rules, none if they
/// take the point (a trace's own lines are checked by the run that
/// replays it, so its arrival is left at the default here).
Refusal rule_refusal(const Builder& b) {
    std::vector<std::string> sets;
    const bool trace = replays_trace(b);
    for (const auto& [key, value] : b.p.sets)
        if (key != "workload.arrival" || !trace) sets.push_back(key + "=" + value);
    try {
        sim::load_config(std::vector<std::string>{}, sets);
        return std::nullopt;
    } catch (const sim::ConfigError& e) {
        return e.keys;
    }
}

/// The first refusal of the point, cheapest check first; none if the
/// budget, the scenario and the rules all take it.
Refusal refusal(const Builder& b) {
    if (!within_budget(b)) return kSizeKeys;
    if (!fits_scenario(b)) return kScenarioKeys;
    return rule_refusal(b);
}

const Row* find_row(const std::string& key) {
    for (const Row& r : tb::param_table())
        if (r.key == key) return &r;
    return nullptr;
}

/// Draws again each of `keys` the point draws; false if it draws none
/// (then only a new point can help).
bool redraw(Draw& d, Builder& b, const std::vector<std::string>& keys) {
    bool any = false;
    for (auto& [key, value] : b.p.sets)
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
            value = draw_row(d, *find_row(key));
            any = true;
        }
    return any;
}

Builder draw_point(Draw& d, uint64_t seed) {
    Builder b;
    b.p.seed = seed;
    for (const Row& r : tb::param_table()) {
        // The trace is written once the point is drawn, if it replays one.
        if (r.key == "workload.trace" || !is_soaked(r.key)) continue;
        b.p.sets.emplace_back(r.key, draw_row(d, r));
    }
    return b;
}

// Each repair that failed this often in a row starts the point over, so
// a refusal whose keys cannot fix it alone cannot hold a seed forever.
constexpr int kRepairsBeforeRestart = 64;

}  // namespace

bool is_soaked(const std::string& key) {
    return std::find(kNotSoakedKeys.begin(), kNotSoakedKeys.end(), key) == kNotSoakedKeys.end();
}

// Values are drawn key by key within each key's range, with no rule across
// keys restated here: a draw the rules refuse (a buffer smaller than two
// bursts, a coalescing threshold without its timer, IOTLB ways that do not
// divide the entries) or over the budget draws again, from the same random
// stream, only the keys the refusal names. Drawing the whole point again
// took hundreds of draws and checks a point (about 0.3 s); a refusal's keys
// take a few.
Point generate_point(uint64_t seed) {
    Draw d(seed);
    Builder b = draw_point(d, seed);
    for (int attempt = 1; attempt <= 10000; ++attempt) {
        const Refusal keys = refusal(b);
        if (!keys) {
            // With the engine's rings each direction takes a channel of its
            // own. A trace's lines are checked only by the run that replays
            // them, so its offsets keep the rule that packed buffers take none.
            if (replays_trace(b))
                b.p.trace = any_trace(
                    d, b.get("dma.submission") == "tail_pointer" ? b.number("dma.channels") : 3,
                    b.get("workload.buffers") != "packed");
            return b.p;
        }
        if (attempt % kRepairsBeforeRestart == 0 || !redraw(d, b, *keys)) b = draw_point(d, seed);
    }
    throw std::logic_error(fmt::format("soak seed {}: no valid point in 10000 draws", seed));
}

std::vector<std::string> set_args(const Point& p, const std::string& trace_path) {
    std::vector<std::string> args;
    for (const auto& [key, value] : p.sets) {
        args.push_back("--set");
        args.push_back(fmt::format("{}={}", key, value));
    }
    if (!p.trace.empty()) {
        args.push_back("--set");
        args.push_back("workload.trace=" + trace_path);
    }
    return args;
}

std::string reproducer(const Point& p, const std::string& trace_path) {
    return fmt::format("dmasim run {}", fmt::join(set_args(p, trace_path), " "));
}

}  // namespace dmasim::soak
