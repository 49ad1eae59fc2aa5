// config_fuzz.cc - libFuzzer harness for the config loader (dmasim_cli).
//
// Input: a YAML config file's bytes up to the first NUL, then up to
// kMaxSets NUL-separated `--set KEY=VALUE` assignments. They go through
// load_config() exactly as `dmasim run CONFIG --set ...` passes them.
// Every input must give either a config or the loader's own ConfigError
// (the exit-2 path); any other exception, crash or sanitizer report is a
// finding. An accepted config must also survive its documented round trip:
// resolved_yaml() loads back to the same config, printed identically.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "config_docs.h"
#include "config_error.h"
#include "config_loader.h"

namespace dmasim::sim::fuzz {
namespace {

constexpr size_t kMaxSets = 8;

std::string config_path, resolved_path;

[[noreturn]] void fail(const std::string& what) {
    fmt::print(stderr, "config_fuzz: {}\n", what);
    std::abort();
}

/// A private file in /tmp, removed at exit.
std::string temp_file(const char* stem) {
    std::string path = fmt::format("/tmp/{}-XXXXXX", stem);
    int fd = mkstemp(path.data());
    if (fd < 0) fail("cannot create a temporary file");
    close(fd);
    return path;
}

void write_file(const std::string& path, std::string_view bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0)
        fail(fmt::format("cannot write {}", path));
}

void remove_files() {
    std::remove(config_path.c_str());
    std::remove(resolved_path.c_str());
}

/// Loads the config, or returns false on ConfigError; anything else aborts.
bool try_load(const std::string& path, const std::vector<std::string>& sets, tb::SimConfig* out) {
    try {
        *out = load_config(path, sets);
        return true;
    } catch (const ConfigError&) {
        return false;
    } catch (const std::exception& e) {
        fail(fmt::format("load_config threw something other than ConfigError: {}", e.what()));
    }
}

void check_round_trip(const tb::SimConfig& config) {
    const std::string text = resolved_yaml(config);
    write_file(resolved_path, text);
    tb::SimConfig again;
    if (!try_load(resolved_path, {}, &again))
        fail(fmt::format("the resolved config does not load back:\n{}", text));
    if (resolved_yaml(again) != text)
        fail(fmt::format("the resolved config loads back different:\n{}---\n{}", text,
                         resolved_yaml(again)));
}

}  // namespace
}  // namespace dmasim::sim::fuzz

namespace fz = dmasim::sim::fuzz;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fz::config_path = fz::temp_file("config_fuzz");
    fz::resolved_path = fz::temp_file("config_fuzz-resolved");
    std::atexit(fz::remove_files);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    size_t end = input.find('\0');
    fz::write_file(fz::config_path, input.substr(0, end));
    std::vector<std::string> sets;
    while (end != std::string_view::npos && sets.size() < fz::kMaxSets) {
        size_t next = input.find('\0', end + 1);
        sets.emplace_back(
            input.substr(end + 1, next == std::string_view::npos ? next : next - end - 1));
        end = next;
    }
    dmasim::tb::SimConfig config;
    if (fz::try_load(fz::config_path, sets, &config)) fz::check_round_trip(config);
    return 0;
}
