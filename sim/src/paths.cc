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

}  // namespace

std::string self_exe() { return fs::read_symlink("/proc/self/exe").string(); }

std::string default_config_path() {
    return first_existing({exe_dir() / "../share/dmasim/configs/default.yaml",
                           fs::path(DMASIM_SOURCE_DIR) / "configs/default.yaml"},
                          "configs/default.yaml");
}

std::string plot_script_path() {
    return first_existing(
        {exe_dir() / "dmasim_plot.py", fs::path(DMASIM_SOURCE_DIR) / "sim/plot/dmasim_plot.py"},
        "dmasim_plot.py");
}

}  // namespace dmasim::sim
