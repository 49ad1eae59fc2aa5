// config_fuzz.cc - libFuzzer harness for the config loader (dmasim_cli).
//
// Input: up to kMaxFiles YAML config files separated by \x01 bytes, up to
// the first NUL, then up to kMaxSets NUL-separated `--set KEY=VALUE`
// assignments. The files are written as c0.yaml, c1.yaml, ... in one
// private directory, so `base: c1.yaml` chains them (cycles, chains past
// kMaxBaseDepth, missing bases); c0.yaml and the sets go through
// load_config() exactly as `dmasim run c0.yaml --set ...` passes them.
// Values with units (sizes, frequencies, times at a clock) come from the
// seeds. Every input must give either a config or the loader's own
// ConfigError (the exit-2 path); any other exception, crash or sanitizer
// report is a finding. An accepted config must also survive its documented
// round trip: resolved_yaml() loads back to the same config, printed
// identically.
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
/// One more than a base: chain may hold, so the limit is reachable.
constexpr size_t kMaxFiles = kMaxBaseDepth + 1;

std::string dir, resolved_path;

std::string config_path(size_t i) { return fmt::format("{}/c{}.yaml", dir, i); }

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
    for (size_t i = 0; i < kMaxFiles; ++i) std::remove(config_path(i).c_str());
    rmdir(dir.c_str());
    std::remove(resolved_path.c_str());
}

/// Writes the \x01-separated files of `input` (the rest of kMaxFiles
/// removed, so no file of an earlier input is read).
void write_configs(std::string_view input) {
    size_t i = 0;
    for (size_t from = 0; i < kMaxFiles; ++i) {
        const size_t end = input.find('\x01', from);
        write_file(config_path(i),
                   input.substr(from, end == std::string_view::npos ? end : end - from));
        if (end == std::string_view::npos) break;
        from = end + 1;
    }
    while (++i < kMaxFiles) std::remove(config_path(i).c_str());
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
    std::string dir = "/tmp/config_fuzz-XXXXXX";
    if (!mkdtemp(dir.data())) fz::fail("cannot create a temporary directory");
    fz::dir = dir;
    fz::resolved_path = fz::temp_file("config_fuzz-resolved");
    std::atexit(fz::remove_files);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    size_t end = input.find('\0');
    fz::write_configs(input.substr(0, end));
    std::vector<std::string> sets;
    while (end != std::string_view::npos && sets.size() < fz::kMaxSets) {
        size_t next = input.find('\0', end + 1);
        sets.emplace_back(
            input.substr(end + 1, next == std::string_view::npos ? next : next - end - 1));
        end = next;
    }
    dmasim::tb::SimConfig config;
    if (fz::try_load(fz::config_path(0), sets, &config)) fz::check_round_trip(config);
    return 0;
}
