// platform_config_test.cc - platform files (--platform, configs/platforms/):
// their keys override the engine's and --set overrides both, a key that
// is not a platform key is refused at its line, and each shipped platform
// is the one its source profile already runs on.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "config_error_of.h"
#include "config_loader.h"
#include "platform_keys.h"
#include "report.h"
#include "strict_yaml.h"
#include "support.h"

namespace dmasim::sim {
namespace {

using test::error_of;
using test::TempDir;

const std::string kConfigs = DMASIM_SOURCE_DIR "/configs/";

TEST(SimPlatformKeys, PlatformSectionsAreThePlatformsAndNoOthers) {
    for (const char* key : {"clock_mhz", "bus.width_bytes", "memory.read_latency_cycles",
                            "memory.placement", "pcie.lanes", "iommu.enabled",
                            "device.rate_bytes_per_cycle", "traffic.bytes_per_cycle", "memory"})
        EXPECT_TRUE(is_platform_key(key)) << key;
    for (const char* key : {"dma.max_burst_beats", "dma", "workload.entries", "cpu.poll_cycles",
                            "fault.kind", "clock_mhzz", "memoryx.read_latency_cycles"})
        EXPECT_FALSE(is_platform_key(key)) << key;
}

TEST(SimPlatformConfig, PlatformOverridesTheEnginesFilesAndSetOverridesThePlatform) {
    TempDir dir;
    const auto engine = dir.write("engine.yaml",
                                  "clock_mhz: 100\nbus.width_bytes: 4\n"
                                  "memory.read_latency_cycles: 5\ndma.max_burst_beats: 64\n");
    const auto platform = dir.write("platform.yaml",
                                    "clock_mhz: 1000\nbus:\n  width_bytes: 8\n"
                                    "memory.read_latency_cycles: 50\n");
    const auto c = load_config({engine}, {"memory.read_latency_cycles=70"}, platform);
    EXPECT_EQ(c.platform.clock_mhz, 1000.0);                // platform over engine
    EXPECT_EQ(c.platform.bus.width_bytes, 8u);              // nested map as well
    EXPECT_EQ(c.platform.memory.read_latency_cycles, 70u);  // --set over platform
    EXPECT_EQ(c.platform.dma.max_burst_beats, 64u);         // the engine's own key stays
    // The platform applies after every file, whatever their order.
    const auto later = dir.write("later.yaml", "clock_mhz: 250\n");
    EXPECT_EQ(load_config({engine, later}, {}, platform).platform.clock_mhz, 1000.0);
}

TEST(SimPlatformConfig, PlatformBaseChainIsReadAsAPlatformToo) {
    TempDir dir;
    dir.write("base-platform.yaml", "bus.width_bytes: 32\nmemory.write_latency_cycles: 9\n");
    const auto platform = dir.write("p.yaml", "base: base-platform.yaml\nbus.width_bytes: 8\n");
    const auto c = load_config(std::vector<std::string>{}, {}, platform);
    EXPECT_EQ(c.platform.bus.width_bytes, 8u);
    EXPECT_EQ(c.platform.memory.write_latency_cycles, 9u);
    dir.write("engine-base.yaml", "dma.channels: 2\n");
    const auto bad = dir.write("q.yaml", "base: engine-base.yaml\n");
    const auto e = error_of([&] { load_config(std::vector<std::string>{}, {}, bad); });
    EXPECT_NE(e.find("engine-base.yaml:1: dma.channels is not a platform key"), std::string::npos)
        << e;
}

TEST(SimPlatformConfig, NonPlatformKeyIsRefusedNamingFileLineAndKey) {
    TempDir dir;
    const auto platform =
        dir.write("p.yaml", "clock_mhz: 100\nbus.width_bytes: 4\ndma.max_burst_beats: 8\n");
    const auto e = error_of([&] { load_config(std::vector<std::string>{}, {}, platform); });
    EXPECT_EQ(e.rfind(platform + ":3: dma.max_burst_beats is not a platform key", 0), 0u) << e;
    EXPECT_NE(e.find("clock_mhz, bus.*"), std::string::npos) << e;
    // A whole engine section, even an empty one, is refused at its line.
    const auto section = dir.write("s.yaml", "clock_mhz: 100\nworkload: {}\n");
    EXPECT_EQ(error_of([&] {
                  load_config(std::vector<std::string>{}, {}, section);
              }).rfind(section + ":2: workload is not a platform key", 0),
              0u);
    // The same key in an engine file is fine.
    const auto engine = dir.write("e.yaml", "dma.max_burst_beats: 8\n");
    EXPECT_EQ(load_config({engine}, {}).platform.dma.max_burst_beats, 8u);
    // An unknown key is unknown, not "not a platform key".
    const auto typo = dir.write("t.yaml", "memory.read_latency_cycle: 5\n");
    EXPECT_NE(error_of([&] {
                  load_config(std::vector<std::string>{}, {}, typo);
              }).find("t.yaml:1: unknown key 'memory.read_latency_cycle'"),
              std::string::npos);
}

TEST(SimPlatformConfig, MissingPlatformFileIsAConfigErrorNamingIt) {
    const std::string missing = "/nonexistent/dmasim-platform.yaml";
    const auto e = error_of([&] { load_config(std::vector<std::string>{}, {}, missing); });
    EXPECT_EQ(e.rfind(missing, 0), 0u) << e;
    EXPECT_NE(e.find("platform"), std::string::npos) << e;
}

/// The dotted platform keys a config file sets (not its base:).
std::set<std::string> platform_keys_of(const std::string& path) {
    std::set<std::string> keys;
    std::function<void(const YAML::Node&, const std::string&)> walk = [&](const YAML::Node& map,
                                                                          const std::string& at) {
        for (const auto& entry : map) {
            const std::string name = at + entry.first.Scalar();
            if (entry.second.IsMap())
                walk(entry.second, name + ".");
            else if (is_platform_key(name))
                keys.insert(name);
        }
    };
    walk(load_strict_yaml(path, "config"), "");
    return keys;
}

std::vector<std::string> files_in(const std::string& folder) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(kConfigs + folder))
        files.push_back(entry.path().string());
    return files;
}

// "One platform" holds only if a platform file replaces every platform key
// an engine profile brings; an engine key gaining a platform value (or a
// new profile setting a new one) must be added to every platform file.
TEST(SimShippedPlatforms, EachSetsEveryPlatformKeyAnEngineProfileSets) {
    std::set<std::string> engine_keys;
    for (const auto& engine : files_in("engines")) {
        const auto keys = platform_keys_of(engine);
        engine_keys.insert(keys.begin(), keys.end());
    }
    ASSERT_FALSE(engine_keys.empty());
    for (const auto& platform : files_in("platforms")) {
        const auto keys = platform_keys_of(platform);
        for (const auto& key : engine_keys) EXPECT_TRUE(keys.count(key)) << platform << ": " << key;
        EXPECT_NO_THROW(load_config({kConfigs + "engines/axi-dma.yaml"}, {}, platform)) << platform;
    }
}

// Each shipped platform is the one its source runs on: layering it changes
// nothing there, so the figures it comes from are kept.
TEST(SimShippedPlatforms, EachIsItsSourceConfigsOwnPlatform) {
    const std::map<std::string, std::string> source = {
        {"default.yaml", "default.yaml"},
        {"fpga-100mhz.yaml", "engines/axi-dma.yaml"},
        {"ddr-like.yaml", "engines/idma-desc64.yaml"}};
    for (const auto& [platform, config] : source) {
        const auto alone = load_config(kConfigs + config, {});
        const auto on = load_config({kConfigs + config}, {}, kConfigs + "platforms/" + platform);
        auto differs = config_to_json(alone);
        const auto layered = config_to_json(on);
        for (const auto& [key, value] : layered.items())
            if (differs[key] == value) differs.erase(key);
        // ddr-like's device rate is for device workloads; iDMA's is memory to memory.
        if (platform == "ddr-like.yaml") differs.erase("device.rate_bytes_per_cycle");
        EXPECT_TRUE(differs.empty()) << platform << " over " << config << ": " << differs.dump();
    }
}

}  // namespace
}  // namespace dmasim::sim
