// sweep_points.cc - numbering, resolving and sharding the points of a sweep.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "config_loader.h"
#include "sweep_identity.h"
#include "sweep_spec.h"

namespace dmasim::sim {

std::vector<std::string> SweepSpec::swept_keys() const {
    std::vector<std::string> keys;
    for (const auto& axis : axes) keys.insert(keys.end(), axis.keys.begin(), axis.keys.end());
    return keys;
}

size_t SweepSpec::point_count() const {
    size_t count = 1;
    for (const auto& axis : axes) count *= axis.steps.size();
    return count;
}

std::vector<Assignment> SweepSpec::point_values(size_t index) const {
    // Mixed-radix digits of the index, least significant = last axis.
    std::vector<const std::vector<Assignment>*> chosen(axes.size());
    for (size_t a = axes.size(); a-- > 0;) {
        chosen[a] = &axes[a].steps[index % axes[a].steps.size()];
        index /= axes[a].steps.size();
    }
    std::vector<Assignment> values;
    for (const auto* step : chosen) values.insert(values.end(), step->begin(), step->end());
    return values;
}

const std::string& SweepSpec::base_of(const std::vector<Assignment>& values) const {
    for (const auto& a : values)
        if (a.key == kBaseAxis) return base_files.at(a.text);
    return base;
}

namespace {

ConfigBuilder common_builder(const SweepSpec& spec, const std::string& base) {
    ConfigBuilder common;
    if (!base.empty()) common.apply_file(base);
    if (!spec.platform.empty()) common.apply_platform_file(spec.platform);
    if (!spec.set.IsNull()) common.apply_yaml(spec.set, spec.file);
    const auto swept = spec.swept_keys();
    for (const auto& assignment : spec.cli_sets) {
        common.apply_set(assignment);
        const std::string key = assignment.substr(0, assignment.find('='));
        if (std::find(swept.begin(), swept.end(), key) != swept.end())
            throw ConfigError({"--set " + excerpt(assignment), 0},
                              fmt::format("{} is swept by {}; --set fixes keys the sweep does "
                                          "not vary",
                                          key, spec.file));
    }
    return common;
}

}  // namespace

tb::SimConfig common_config(const SweepSpec& spec) {
    return common_builder(spec, spec.base).config();
}

std::vector<SweepPoint> expand_sweep(const SweepSpec& spec, const PointCheck& check) {
    // Every base is read (and any error in it reported) before a point runs.
    std::map<std::string, ConfigBuilder> commons;
    if (spec.base_files.empty()) commons.emplace(spec.base, common_builder(spec, spec.base));
    for (const auto& [name, path] : spec.base_files)
        commons.emplace(path, common_builder(spec, path));
    const std::vector<std::string> swept = spec.swept_keys();
    auto involves_swept = [&](const ConfigError& e) {
        return std::any_of(e.keys.begin(), e.keys.end(), [&](const std::string& key) {
            return std::find(swept.begin(), swept.end(), key) != swept.end();
        });
    };

    // Bases may set any key: with a base axis a check may fail on some
    // points only, and stops the sweep only if it fails on all.
    const bool base_axis = !spec.base_files.empty();
    std::optional<ConfigError> first_failure;
    std::vector<SweepPoint> points;
    for (size_t i = 0; i < spec.point_count(); ++i) {
        SweepPoint point;
        point.index = i;
        point.values = spec.point_values(i);
        ConfigBuilder builder = commons.at(spec.base_of(point.values));
        try {
            for (const auto& a : point.values)
                if (a.key != kBaseAxis) builder.apply(a.key, a.text, a.where);
            builder.validate();
            check_rereadable_inputs(builder.config());
            if (check) check(builder);
        } catch (const ConfigError& e) {
            if (!involves_swept(e) && !base_axis) throw;
            if (!first_failure) first_failure = e;
            point.skipped = e.what();
        }
        point.config = builder.config();
        point.id = point_id(point.config);
        points.push_back(std::move(point));
    }
    if (base_axis && std::all_of(points.begin(), points.end(),
                                 [](const SweepPoint& p) { return !p.skipped.empty(); }))
        throw *first_failure;
    return points;
}

Shard parse_shard(const std::string& text) {
    Shard shard;
    size_t slash = text.find('/');
    auto number = [&](size_t from, size_t to, size_t& out) {
        auto [ptr, ec] = std::from_chars(text.data() + from, text.data() + to, out);
        return ec == std::errc() && ptr == text.data() + to && from < to;
    };
    if (slash == std::string::npos || !number(0, slash, shard.k) ||
        !number(slash + 1, text.size(), shard.n) || shard.k < 1 || shard.k > shard.n)
        throw ConfigError({"--shard " + excerpt(text), 0},
                          "expected K/N with 1 <= K <= N, e.g. 2/4");
    return shard;
}

}  // namespace dmasim::sim
