// config_loader.cc - YAML and --set into SimConfig, one key at a time.
#include "config_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "config_units.h"
#include "platform_keys.h"
#include "strict_yaml.h"
#include "suggest.h"

namespace dmasim::sim {
namespace {

std::vector<std::string> key_names() {
    std::vector<std::string> names;
    for (const auto& key : config_keys()) names.push_back(key.name);
    return names;
}

bool is_section(const std::string& name) {
    for (const auto& key : config_keys())
        if (key.name.rfind(name + ".", 0) == 0) return true;
    return false;
}

[[noreturn]] void unknown_key(const std::string& name, const Location& where) {
    if (name.size() > kMaxTextBytes)  // no key is that long: no did-you-mean either
        throw ConfigError(where, fmt::format("unknown key '{}'", excerpt(name)));
    if (is_section(name))
        throw ConfigError(where, fmt::format("'{}' is a section: give its keys under it, "
                                             "e.g. '{}:' followed by indented 'key: value' lines",
                                             name, name));
    if (auto guess = closest_match(name, key_names()))
        throw ConfigError(where,
                          fmt::format("unknown key '{}', did you mean {}?", excerpt(name), *guess));
    throw ConfigError(where, fmt::format("unknown key '{}' (`dmasim config --explain` lists "
                                         "every key)",
                                         excerpt(name)));
}

Location location_of(const YAML::Node& node, const std::string& file) {
    return {file, node.Mark().line + 1};
}

/// `file`'s name with links and dots resolved, to spot a base: cycle.
std::string canonical_name(const std::string& file, const Location& where) {
    std::error_code ec;
    const std::string name = std::filesystem::weakly_canonical(file, ec).string();
    if (ec)
        throw ConfigError(where, fmt::format("base: {} cannot be read: {}", file, ec.message()));
    return name;
}

}  // namespace

// Absolute, so a resolved config (a sweep point's, in another folder)
// still names the same file.
std::string path_from(const std::string& config_file, const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty() || fs::path(path).is_absolute()) return path;
    return fs::absolute(fs::path(config_file).parent_path() / path).lexically_normal().string();
}

const KeyDef& known_key(const std::string& name, const Location& where) {
    const KeyDef* key = find_key(name);
    if (!key) unknown_key(name, where);
    return *key;
}

std::string config_path_at(const YAML::Node& node, const std::string& including_file,
                           const std::string& section) {
    namespace fs = std::filesystem;
    if (!node.IsScalar() || node.Scalar().empty())
        throw ConfigError(location_of(node, including_file),
                          fmt::format("{}: expects a config path", section));
    const fs::path file = fs::path(including_file).parent_path() / node.Scalar();
    // The error_code form: a name the system refuses (too long, a loop of
    // links) is the config's problem, not an exception from elsewhere.
    std::error_code ec;
    const fs::file_type type = fs::status(file, ec).type();
    if (type == fs::file_type::regular) return file.lexically_normal().string();
    const std::string why = type == fs::file_type::not_found ? "not found"
                            : ec                             ? "cannot be read: " + ec.message()
                                                             : "is not a regular file";
    throw ConfigError(location_of(node, including_file),
                      fmt::format("{} config {} {}", section, file.string(), why));
}

void ConfigBuilder::apply_platform_file(const std::string& path) {
    platform_only_ = true;
    try {
        apply_file(path);
    } catch (...) {
        platform_only_ = false;
        throw;
    }
    platform_only_ = false;
}

void ConfigBuilder::apply_file(const std::string& path) {
    YAML::Node root = load_strict_yaml(path, platform_only_ ? "platform" : "config");
    if (root.IsNull()) return;  // an empty config keeps every default
    if (root.IsMap() && root["base"]) {
        const YAML::Node base = root["base"];
        const std::string base_file = config_path_at(base, path);
        const std::string next = canonical_name(base_file, location_of(base, path));
        reading_.push_back(canonical_name(path, location_of(base, path)));
        if (reading_.size() >= kMaxBaseDepth)
            throw ConfigError(location_of(base, path),
                              fmt::format("base: chain longer than {} files: this is file {} "
                                          "and names another (started at {})",
                                          kMaxBaseDepth, reading_.size(), reading_.front()));
        if (std::find(reading_.begin(), reading_.end(), next) != reading_.end())
            throw ConfigError(location_of(base, path),
                              fmt::format("base: {} makes a cycle: {} -> {}", base.Scalar(),
                                          fmt::join(reading_, " -> "), next));
        apply_file(base_file);  // the base first, so this file overrides it
        reading_.pop_back();
        root.remove("base");
    }
    apply_yaml(root, path);
}

void ConfigBuilder::apply_yaml(const YAML::Node& map, const std::string& file) {
    if (!map.IsMap())
        throw ConfigError(location_of(map, file), "expected a map of 'key: value' lines");
    std::map<std::string, Location> seen;
    apply_node("", map, file, seen);
}

void ConfigBuilder::apply_node(const std::string& prefix, const YAML::Node& map,
                               const std::string& file, std::map<std::string, Location>& seen) {
    for (const auto& entry : map) {
        const std::string name =
            prefix.empty() ? entry.first.Scalar() : prefix + "." + entry.first.Scalar();
        const Location where = location_of(entry.first, file);
        const YAML::Node& value = entry.second;
        const KeyDef* key = find_key(name);
        // Checked before the key exists: a whole engine section is refused
        // at its own line, empty or not.
        if (platform_only_ && (key || is_section(name)) && !is_platform_key(key ? key->name : name))
            throw ConfigError(where, fmt::format("{} is not a platform key: a platform file sets "
                                                 "only {}; give it in the engine's config or "
                                                 "with --set",
                                                 name, platform_sections_text()));
        if (value.IsMap() && !key) {
            // Checked here, not only at the leaves: an empty map has none.
            if (!is_section(name)) unknown_key(name, where);
            apply_node(name, value, file, seen);
            continue;
        }
        if (!key) unknown_key(name, where);
        if (!value.IsScalar())
            throw ConfigError(
                where, fmt::format("{} needs a single value ({})", name, describe_allowed(*key)));
        // The parser catches a repeated key in one map; this catches the
        // same key spelled both nested and dotted, or by its old name.
        if (auto [first, fresh] = seen.emplace(key->name, where); !fresh)
            throw ConfigError(
                where, fmt::format("{} is set twice: also at line {}{}", name, first->second.line,
                                   name == key->name ? ""
                                                     : fmt::format(" ({} is the old name of {})",
                                                                   name, key->name)));
        apply(name, key->path ? path_from(file, value.Scalar()) : value.Scalar(), where);
    }
}

void ConfigBuilder::apply_set(const std::string& assignment) {
    const Location where{"--set " + excerpt(assignment), 0};
    size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError(where, "expected KEY=VALUE, e.g. --set workload.entries=1024");
    const std::string name = assignment.substr(0, eq), value = assignment.substr(eq + 1);
    const KeyDef* key = find_key(name);
    // A file named on the command line is relative to the working directory.
    apply(name, key && key->path ? path_from("", value) : value, where);
}

void ConfigBuilder::apply(const std::string& name, const std::string& text, const Location& where) {
    const KeyDef& key = known_key(name, where);
    origin_[key.name] = {where, ++assignments_};
    const auto ns = takes_time(key) ? time_in_ns(text) : std::nullopt;
    if (ns) {
        times_[key.name] = {text, *ns, {}};
        set_cycles_from_time(key);
        return;
    }
    times_.erase(key.name);
    try {
        key.set(config_, parse_value(key, text));
    } catch (const std::invalid_argument& e) {
        throw ConfigError(where, e.what(), {name});
    }
    if (name == "clock_mhz")
        for (const auto& [time_key, value] : times_) set_cycles_from_time(*find_key(time_key));
}

void ConfigBuilder::set_cycles_from_time(const KeyDef& key) {
    TimeValue& time = times_.at(key.name);
    try {
        key.set(config_,
                parse_value(key, cycles_text(key, time.text, time.ns, config_.platform.clock_mhz)));
        time.problem.clear();
    } catch (const std::invalid_argument& e) {
        // Not an error yet: a later clock_mhz may make it whole (validate()).
        time.problem = e.what();
    }
}

void ConfigBuilder::check_times() const {
    for (const auto& [name, time] : times_)
        if (!time.problem.empty())
            throw ConfigError(origin_.at(name).where, time.problem, {name, "clock_mhz"});
}

Location ConfigBuilder::origin(const std::vector<std::string>& keys) const {
    const Origin* last = nullptr;
    for (const auto& key : keys)
        if (auto it = origin_.find(key);
            it != origin_.end() && (!last || it->second.order > last->order))
            last = &it->second;
    if (last) return last->where;
    return {fmt::format("default of {}", keys.front()), 0};
}

ConfigBuilder build_config(const std::vector<std::string>& paths,
                           const std::vector<std::string>& sets, const std::string& platform) {
    ConfigBuilder builder;
    for (const auto& path : paths) builder.apply_file(path);
    if (!platform.empty()) builder.apply_platform_file(platform);
    for (const auto& assignment : sets) builder.apply_set(assignment);
    builder.validate();
    return builder;
}

ConfigBuilder build_config(const std::string& path, const std::vector<std::string>& sets) {
    return build_config(std::vector<std::string>{path}, sets);
}

tb::SimConfig load_config(const std::vector<std::string>& paths,
                          const std::vector<std::string>& sets, const std::string& platform) {
    return build_config(paths, sets, platform).config();
}

tb::SimConfig load_config(const std::string& path, const std::vector<std::string>& sets) {
    return build_config(path, sets).config();
}

}  // namespace dmasim::sim
