// json_fuzz.cc - libFuzzer harness for the JSON readers of sweep folders
// and reports (dmasim_cli): what `merge`, `diff` and `sweep --resume` read.
//
// Input: up to three NUL-separated parts: a sweep.json, the report of point
// 0123456789abcdef in that folder, and a second report. They go through
// read_manifest() and read_complete_report() as --resume reads them, then
// `diff` of the two reports and of the folder with itself, then `merge` of
// the folder. Every input must give a result or ConfigError (exit 2); any
// other exception, crash or sanitizer report is a finding, and so is a
// point id that would name a file outside the folder's points/.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "config_error.h"
#include "diff.h"
#include "merge.h"
#include "sweep_dir.h"
#include "sweep_manifest.h"

namespace dmasim::sim::fuzz {
namespace {

namespace fs = std::filesystem;

constexpr const char* kId = "0123456789abcdef";

std::string root;  // a private folder in /tmp, removed at exit

[[noreturn]] void fail(const std::string& what) {
    fmt::print(stderr, "json_fuzz: {}\n", what);
    std::abort();
}

void write_file(const std::string& path, std::string_view bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0)
        fail(fmt::format("cannot write {}", path));
}

/// Runs `step`; ConfigError is the expected refusal, anything else aborts.
template <typename Step>
void expect_config_error_only(const char* what, Step step) {
    try {
        step();
    } catch (const ConfigError&) {
    } catch (const std::exception& e) {
        fail(fmt::format("{} threw something other than ConfigError: {}", what, e.what()));
    }
}

void read_like_resume(const SweepDir& dir) {
    const Json manifest = read_manifest(dir.manifest());
    for (const auto& point : manifest["points"]) {
        const std::string report = dir.report(point["id"].get<std::string>());
        if (fs::path(report).parent_path() != fs::path(dir.root) / "points")
            fail(fmt::format("point id {} names a file outside points/", point["id"].dump()));
        read_complete_report(report);
    }
}

void remove_root() { fs::remove_all(root); }

}  // namespace
}  // namespace dmasim::sim::fuzz

namespace fz = dmasim::sim::fuzz;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    std::string path = "/tmp/json_fuzz-XXXXXX";
    if (!mkdtemp(path.data())) fz::fail("cannot create a temporary folder");
    fz::root = path;
    std::filesystem::create_directories(fz::root + "/in/points");
    std::atexit(fz::remove_root);
    // diff and merge print tables; only findings matter here.
    if (!std::freopen("/dev/null", "w", stdout)) fz::fail("cannot silence stdout");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> parts;
    for (size_t begin = 0; parts.size() < 3;) {
        const size_t end = input.find('\0', begin);
        parts.push_back(input.substr(begin, end == std::string_view::npos ? end : end - begin));
        if (end == std::string_view::npos) break;
        begin = end + 1;
    }
    parts.resize(3);
    const dmasim::sim::SweepDir dir{fz::root + "/in"};
    const std::string b = fz::root + "/b.json";
    fz::write_file(dir.manifest(), parts[0]);
    fz::write_file(dir.report(fz::kId), parts[1]);
    fz::write_file(b, parts[2]);
    fz::expect_config_error_only("reading as --resume", [&] { fz::read_like_resume(dir); });
    fz::expect_config_error_only("diff of reports", [&] {
        dmasim::sim::run_diff({dir.report(fz::kId), b});
    });
    fz::expect_config_error_only("diff of folders", [&] {
        dmasim::sim::run_diff({dir.root, dir.root});
    });
    fz::expect_config_error_only("merge", [&] {
        dmasim::sim::merge_sweeps({dir.root}, fz::root + "/out", false);
    });
    return 0;
}
