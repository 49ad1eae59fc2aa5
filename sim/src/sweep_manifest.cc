// sweep_manifest.cc - sweep.json, and results.csv plus plots from it.
#include "sweep_manifest.h"

#include <fmt/format.h>

#include <algorithm>

#include "config_keys.h"
#include "json_read.h"
#include "plot.h"
#include "results_csv.h"
#include "sweep_identity.h"

namespace dmasim::sim {
namespace {

const SweepAxis& axis_of(const SweepSpec& spec, const std::string& key) {
    for (const auto& axis : spec.axes)
        if (std::find(axis.keys.begin(), axis.keys.end(), key) != axis.keys.end()) return axis;
    return spec.axes.front();
}

bool numeric(const std::string& key) {
    const KeyDef* def = find_key(key);
    return def && (def->type == KeyType::integer || def->type == KeyType::real);
}

/// x: the list length if swept, else the chain depth, else the numeric
/// swept key with the most steps (a category reads badly on x); one
/// line per combination of the other axes' keys (chain depth first); a log
/// x axis when x is numeric and spans a factor of 16 or more.
Json choose_plot(const SweepSpec& spec) {
    const auto keys = spec.swept_keys();
    std::string x = keys.front();
    size_t most_steps = 0;
    for (const auto& key : keys)
        if (numeric(key) && axis_of(spec, key).steps.size() > most_steps) {
            x = key;
            most_steps = axis_of(spec, key).steps.size();
        }
    for (const char* preferred : {"workload.chain_depth", "workload.entries"})
        if (std::find(keys.begin(), keys.end(), preferred) != keys.end()) x = preferred;
    const SweepAxis& x_axis = axis_of(spec, x);

    std::vector<std::string> series;
    for (const auto& axis : spec.axes)
        if (&axis != &x_axis) series.insert(series.end(), axis.keys.begin(), axis.keys.end());
    std::stable_partition(series.begin(), series.end(),
                          [](const std::string& k) { return k == "workload.chain_depth"; });

    const size_t column =
        std::find(x_axis.keys.begin(), x_axis.keys.end(), x) - x_axis.keys.begin();
    bool logx = numeric(x);
    if (logx) {
        double lo = 1e300, hi = 0;
        for (const auto& step : x_axis.steps) {
            double v = std::stod(step[column].text);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        logx = lo > 0 && hi / lo >= 16;
    }
    return {{"x", x}, {"y", "throughput_gbps"}, {"series", series}, {"logx", logx}};
}

Json point_json(const SweepPoint& point) {
    Json values = Json::object();
    for (const auto& a : point.values)
        values[a.key] =
            a.key == kBaseAxis ? a.text : format_value(find_key(a.key)->get(point.config));
    Json out = {{"index", point.index}, {"id", point.id}, {"values", values}};
    if (!point.skipped.empty()) out["skipped"] = point.skipped;
    return out;
}

void draw_plots(const SweepDir& dir, const Json& manifest) {
    const Json& choice = manifest["plot"];
    PlotRequest request;
    request.csv = dir.csv();
    request.x = choice["x"].get<std::string>();
    request.y = choice["y"].get<std::string>();
    request.series = choice["series"].get<std::vector<std::string>>();
    request.logx = choice["logx"].get<bool>();
    // A 2-D grid also gets a heatmap: lines that coincide hide nothing there.
    const bool grid = request.series->size() == 1;
    for (const char* ext : {"png", "svg"}) {
        request.output = dir.plot(ext);
        request.heatmap = false;
        if (run_plot(request) != 0)
            fmt::print(stderr, "dmasim: warning: could not draw {}\n", request.output);
        if (!grid) continue;
        request.output = dir.heatmap(ext);
        request.heatmap = true;
        if (run_plot(request) != 0)
            fmt::print(stderr, "dmasim: warning: could not draw {}\n", request.output);
    }
}

}  // namespace

Json make_manifest(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                   const Shard& shard) {
    Json list = Json::array();
    for (const auto& p : points) list.push_back(point_json(p));
    Json manifest = {{"sweep_file", spec.file},
                     {"base", spec.base},
                     {"build", build_id()},
                     {"shard", {{"k", shard.k}, {"n", shard.n}}},
                     {"swept_keys", spec.swept_keys()},
                     {"plot", choose_plot(spec)},
                     {"points", list}};
    if (!spec.platform.empty()) manifest["platform_file"] = spec.platform;
    // One platform for all points, unless each base brings its own.
    if (spec.base_files.empty())
        manifest["platform"] = platform_line(common_config(spec));
    else
        manifest["base"] = spec.base_files;
    return manifest;
}

Json read_manifest(const std::string& path) {
    Json manifest = read_json_file(path);
    const JsonAt top = json_at(manifest, path);
    top["swept_keys"].strings();
    const JsonAt shard = top["shard"];
    if (shard["k"].count() < 1 || shard["k"].count() > shard["n"].count())
        shard.fail("expected 1 <= k <= n");
    const JsonAt plot = top["plot"];
    plot["x"].string();
    plot["y"].string();
    plot["series"].strings();
    plot["logx"].boolean();
    for (const JsonAt& point : top["points"].elements()) {
        point["index"].count();
        checked_point_id(point["id"]);
        point["values"].object();
        if (point.has("skipped")) point["skipped"].string();
    }
    return manifest;
}

Shard manifest_shard(const Json& manifest) {
    return {manifest["shard"]["k"].get<size_t>(), manifest["shard"]["n"].get<size_t>()};
}

std::set<std::string> recorded_ids(const Json& manifest) {
    std::set<std::string> ids;
    auto keep = [&ids](const Json& id) {
        if (id.is_string() && is_point_id(id.get<std::string>())) ids.insert(id.get<std::string>());
    };
    for (const auto& point : manifest["points"])
        if (point.is_object() && point.contains("id")) keep(point["id"]);
    for (const auto& id : manifest.value("stale_ids", Json::array())) keep(id);
    return ids;
}

Collected write_results(const SweepDir& dir, const Json& manifest, bool plot) {
    const Shard shard = manifest_shard(manifest);
    Collected collected;
    std::vector<Json> reports;
    for (const auto& point : manifest["points"]) {
        const size_t index = point["index"].get<size_t>();
        if (!shard.contains(index) || point.contains("skipped")) continue;
        if (auto report = read_complete_report(dir.report(point["id"].get<std::string>()))) {
            // A point's base is no key of the config its report resolves: the manifest names it.
            const Json& values = point["values"];
            if (values.contains(kBaseAxis) && (*report)["config"].is_object())
                (*report)["config"][kBaseAxis] = values[kBaseAxis];
            reports.push_back(std::move(*report));
        } else
            collected.missing.push_back(index);
    }
    collected.rows = reports.size();
    write_file_atomically(
        dir.csv(), results_csv(manifest["swept_keys"].get<std::vector<std::string>>(), reports));
    if (plot && collected.rows > 0) draw_plots(dir, manifest);
    return collected;
}

}  // namespace dmasim::sim
