// paths.cc - the search order: beside the executable (installed layout),
// then the source tree the executable was built from.
#include "paths.h"

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

namespace dmasim::sim {
namespace {

namespace fs = std::filesystem;

std::string first_existing(const std::vector<fs::path>& candidates, const char* what) {
    for (const auto& c : candidates)
        if (fs::is_regular_file(c)) return fs::absolute(c).lexically_normal().string();
    throw std::runtime_error(
        fmt::format("cannot find {} (looked in {} places beside the "
                    "executable and in the source tree)",
                    what, candidates.size()));
}

fs::path exe_dir() { return fs::path(self_exe()).parent_path(); }

fs::path& install_prefix() {
    static fs::path prefix;
    return prefix;
}

/// `beside` (relative to the executable's folder), then `relative` under
/// the prefix a dmasim_add_scenarios() executable was built against.
std::vector<fs::path> installed(const fs::path& beside, const fs::path& relative) {
    std::vector<fs::path> out{exe_dir() / beside};
    if (!install_prefix().empty()) out.push_back(install_prefix() / relative);
    return out;
}

}  // namespace

bool use_install_prefix(const char* prefix) {
    install_prefix() = prefix;
    return true;
}

std::string self_exe() { return fs::read_symlink("/proc/self/exe").string(); }

std::string default_config_path() {
    auto candidates =
        installed("../share/dmasim/configs/default.yaml", "share/dmasim/configs/default.yaml");
    candidates.push_back(fs::path(DMASIM_SOURCE_DIR) / "configs/default.yaml");
    return first_existing(candidates, "configs/default.yaml");
}

std::string plot_script_path() {
    auto candidates = installed("dmasim_plot.py", "bin/dmasim_plot.py");
    candidates.push_back(fs::path(DMASIM_SOURCE_DIR) / "sim/plot/dmasim_plot.py");
    return first_existing(candidates, "dmasim_plot.py");
}

}  // namespace dmasim::sim
