// plot.h - `dmasim plot`: runs sim/plot/dmasim_plot.py under /usr/bin/python3.
#pragma once

#include <string>
#include <vector>

namespace dmasim::sim {

struct PlotRequest {
    std::string csv;
    std::string output;  ///< .png or .svg
    std::string x = "workload.entries";
    std::string y = "throughput_gbps";
    std::vector<std::string> series = {"workload.chain_depth"};
    bool logx = false;
    bool logy = false;
    std::string title;  ///< empty: taken from sweep.json beside the CSV, if any
};

/// Draws the plot; returns the script's exit status (0 = written).
int run_plot(const PlotRequest& request);

}  // namespace dmasim::sim
