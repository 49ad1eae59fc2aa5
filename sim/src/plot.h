// plot.h - `dmasim plot`: runs sim/plot/dmasim_plot.py under /usr/bin/python3
// with labels, units, subtitle and peak line worked out here from the
// definitions tables and the sweep's own metadata (sweep.json beside the CSV).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dmasim::sim {

struct PlotRequest {
    std::string csv;
    std::string output;  ///< .png, .svg or .pdf
    std::string x;       ///< empty: the sweep's own choice, else workload.entries
    std::string y;       ///< empty: the sweep's own choice, else throughput_gbps
    std::optional<std::vector<std::string>> series;  ///< unset: the sweep's own choice
    bool logx = false;
    bool logy = false;
    bool heatmap = false;        ///< x against the one series key, coloured by y
    std::string stack;           ///< a statistic group ("account"): its shares stacked per x
    std::vector<std::string> where;  ///< COLUMN=VALUE: only the rows that hold it
    std::string facet;               ///< one panel per value of this column
    std::string title;           ///< empty: "<y> vs. <x>"
    std::string xlabel, ylabel;  ///< empty: label and unit from the definitions
};

/// Draws the plot; returns the script's exit status (0 = written).
int run_plot(const PlotRequest& request);

}  // namespace dmasim::sim
