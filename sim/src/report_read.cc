// report_read.cc - see report_read.h.
#include "report_read.h"

#include "results_csv.h"
#include "sweep_dir.h"

namespace dmasim::sim {

void check_report(const JsonAt& report) {
    report["config"].object();
    const JsonAt result = report["result"];
    for (const auto& key : result_keys())
        if (key != "integrity" && result.has(key)) result[key].number();
    result["integrity"].string();
    if (result.has("scenario_results"))
        for (const auto& [name, entry] : result["scenario_results"].members()) entry["value"].number();
    if (report.has("statistics"))
        for (const auto& [group, counters] : report["statistics"].members())
            for (const auto& [name, counter] : counters.members()) counter["value"].number();
}

Json read_report(const std::string& path) {
    Json report = read_json_file(path);
    check_report(json_at(report, path));
    return report;
}

}  // namespace dmasim::sim
