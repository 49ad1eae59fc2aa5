// sweep_spec.cc - reads a sweep file's sections in file order.
#include "sweep_spec.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "config_loader.h"
#include "strict_yaml.h"
#include "suggest.h"
#include "sweep_values.h"

namespace dmasim::sim {
namespace {

Location where_of(const YAML::Node& node, const std::string& file) {
    return {file, node.Mark().line + 1};
}

/// Points so far against --max-points: each new axis may have at most
/// max / points values, so the product never overflows and no axis is
/// built past the cap.
struct PointBudget {
    uint64_t max = kDefaultMaxPoints;
    uint64_t points = 1;

    uint64_t axis_limit() const { return max / points; }
    void add(const SweepAxis& axis) { points *= axis.steps.size(); }
};

SweepAxis single_key_axis(const YAML::Node& key_node, const YAML::Node& values,
                          const std::string& file, const PointBudget& budget) {
    const KeyDef& key = known_key(key_node.Scalar(), where_of(key_node, file));
    SweepAxis axis;
    axis.keys = {key.name};
    for (auto& a : expand_value_list(key, values, file, budget.axis_limit()))
        axis.steps.push_back({a});
    return axis;
}

SweepAxis zip_axis(const YAML::Node& zip, const std::string& file, const PointBudget& budget) {
    if (!zip.IsMap() || zip.size() == 0)
        throw ConfigError(where_of(zip, file), "zip: expects 'key: value list' lines");
    SweepAxis axis;
    axis.zipped = true;
    for (const auto& entry : zip) {
        SweepAxis one = single_key_axis(entry.first, entry.second, file, budget);
        if (!axis.steps.empty() && one.steps.size() != axis.steps.size())
            throw ConfigError(
                where_of(entry.first, file),
                fmt::format("zip: {} has {} values but {} has {}; zipped lists "
                            "must be equally long",
                            one.keys[0], one.steps.size(), axis.keys[0], axis.steps.size()));
        axis.steps.resize(one.steps.size());
        for (size_t i = 0; i < one.steps.size(); ++i) axis.steps[i].push_back(one.steps[i][0]);
        axis.keys.push_back(one.keys[0]);
    }
    return axis;
}

/// `base:` listing several configs: one axis, a value per config, named
/// by its file stem (the CSV column and the plot's categories).
SweepAxis base_axis(const YAML::Node& list, const std::string& file, const PointBudget& budget,
                    SweepSpec& spec) {
    if (list.size() == 0) throw ConfigError(where_of(list, file), "base: lists no config");
    if (list.size() > budget.axis_limit())
        throw ConfigError(where_of(list, file),
                          fmt::format("base: more than {} configs: the sweep would have more "
                                      "than --max-points points",
                                      budget.axis_limit()));
    SweepAxis axis;
    axis.keys = {kBaseAxis};
    for (const auto& item : list) {
        const std::string path = config_path_at(item, file);
        const std::string name = std::filesystem::path(path).stem().string();
        if (!spec.base_files.emplace(name, path).second)
            throw ConfigError(where_of(item, file),
                              fmt::format("base: lists two configs named {} ({} and {}): "
                                          "their points could not be told apart",
                                          name, spec.base_files[name], path));
        axis.steps.push_back({Assignment{kBaseAxis, name, where_of(item, file)}});
    }
    spec.base = spec.base_files.at(axis.steps.front().front().text);
    return axis;
}

void add_sweep_axes(const YAML::Node& sweep, const std::string& file, PointBudget& budget,
                    std::vector<SweepAxis>& axes) {
    if (!sweep.IsMap())
        throw ConfigError(where_of(sweep, file), "sweep: expects 'key: value list' lines");
    for (const auto& entry : sweep) {
        axes.push_back(single_key_axis(entry.first, entry.second, file, budget));
        budget.add(axes.back());
    }
}

/// The dotted keys a (possibly nested) `set:` map names.
void collect_keys(const YAML::Node& map, const std::string& prefix, std::set<std::string>& out) {
    for (const auto& entry : map) {
        std::string name = prefix + entry.first.Scalar();
        const KeyDef* key = find_key(name);
        if (entry.second.IsMap() && !key)
            collect_keys(entry.second, name + ".", out);
        else
            out.insert(key ? key->name : name);  // an old name is its key
    }
}

/// A key may be swept once, and not also fixed under `set:`.
void check_no_key_twice(const SweepSpec& spec) {
    std::set<std::string> seen;
    if (spec.set.IsMap()) collect_keys(spec.set, "", seen);
    for (const auto& axis : spec.axes)
        for (size_t k = 0; k < axis.keys.size(); ++k)
            if (!seen.insert(axis.keys[k]).second)
                throw ConfigError(axis.steps[0][k].where,
                                  fmt::format("{} is set or swept twice", axis.keys[k]));
}

}  // namespace

SweepSpec load_sweep(const std::string& path, const std::string& default_base,
                     uint64_t max_points) {
    const YAML::Node root = load_strict_yaml(path, "sweep");
    if (!root.IsMap())
        throw ConfigError({path, 0}, "a sweep file is a map with base/platform/set/sweep/zip");
    SweepSpec spec;
    PointBudget budget{max_points};
    spec.file = path;
    spec.base = default_base;
    const std::vector<std::string> sections = {"base", "platform", "set", "sweep", "zip"};
    for (const auto& entry : root) {
        const std::string name = entry.first.Scalar();
        if (name == "base" && entry.second.IsSequence()) {
            spec.axes.push_back(base_axis(entry.second, path, budget, spec));
            budget.add(spec.axes.back());
        } else if (name == "base") {
            spec.base = config_path_at(entry.second, path);
        } else if (name == "platform") {
            spec.platform = config_path_at(entry.second, path, "platform");
        } else if (name == "set") {
            spec.set = entry.second;
        } else if (name == "sweep") {
            add_sweep_axes(entry.second, path, budget, spec.axes);
        } else if (name == "zip") {
            spec.axes.push_back(zip_axis(entry.second, path, budget));
            budget.add(spec.axes.back());
        } else {
            auto guess = closest_match(name, sections);
            throw ConfigError(where_of(entry.first, path),
                              fmt::format("unknown sweep section '{}'{}", excerpt(name),
                                          guess ? ", did you mean " + *guess + "?" : ""));
        }
    }
    if (spec.axes.empty())
        throw ConfigError({path, 0},
                          "nothing to sweep: add a sweep: or zip: section, or list several "
                          "configs under base:");
    check_no_key_twice(spec);
    return spec;
}

}  // namespace dmasim::sim
