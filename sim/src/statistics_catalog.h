// statistics_catalog.h - every result and statistic a report can hold,
// looked up by its column name (as in results.csv and `dmasim plot --y`):
// "throughput_gbps", "dma.ch0.descriptor_wait_cycles", "bus.read.busy_cycles".
// It reads the definitions tables (tb/results.h, model/stats.h) and the
// config key table, and renders docs/statistics.md.
#pragma once

#include <optional>
#include <string>

namespace dmasim::sim {

struct ColumnInfo {
    std::string name;
    std::string unit;   ///< empty when unitless
    std::string label;  ///< for a reader: "throughput", "descriptor_wait_cycles of channel 0"
    std::string description;
};

/// A result key, statistic ("group.counter") or config key; nullopt if unknown.
std::optional<ColumnInfo> find_column(const std::string& column);

/// The known column nearest `column` when it is a likely typo of one ("did
/// you mean"): a result, a config key or a statistic, a channel's statistic
/// on the channel `column` names (channel 0 if it names none).
std::optional<std::string> closest_column(const std::string& column);

/// "Throughput (GB/s)": the label with its unit; the column name if unknown.
std::string axis_label(const std::string& column);

/// The whole of docs/statistics.md.
std::string statistics_markdown();

}  // namespace dmasim::sim
