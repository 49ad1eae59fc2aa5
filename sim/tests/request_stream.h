// request_stream.h - the requests-scenario run that the engine-ring and
// polling end-to-end tests share.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "e2e_support.h"

namespace dmasim::sim::test {

/// The report of a requests run of 4 KiB requests (4 segments of 1 KiB in
/// one chunk) with `sets` (KEY=VALUE each) on top, or null if it failed.
inline nlohmann::json request_stream_report(const TempDir& dir,
                                            const std::vector<std::string>& sets) {
    std::vector<std::string> args = {
        "--set", "workload.scenario=requests", "--set", "workload.entries=4",
        "--set", "workload.chain_depth=1",     "--set", "workload.segment_bytes=1024"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const std::string report = report_of_run(dir, args);
    return report.empty() ? nlohmann::json{} : nlohmann::json::parse(report);
}

/// One of the scenario's own results in `report`.
inline double scenario_value(const nlohmann::json& report, const char* name) {
    return report["result"]["scenario_results"][name]["value"].get<double>();
}

}  // namespace dmasim::sim::test
