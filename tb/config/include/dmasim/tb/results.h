// results.h - the run's result keys (docs/cli.md, "The report"), each declared once:
// name, unit, the label a reader sees, description and how it is measured,
// and the RunResult field holding it. The report's `result` object, the
// run summary, results.csv's result columns, plot labels and
// docs/statistics.md all come from this table; a new result is one row.
#pragma once

#include <dmasim/tb/sim_config.h>

#include <cstdint>
#include <variant>

namespace dmasim::tb {

struct ResultDef {
    const char* name;
    const char* unit;
    const char* label;  ///< what plots and the summary call it
    const char* description;
    const char* how;
    std::variant<uint64_t RunResult::*, double RunResult::*> field;
};

inline constexpr ResultDef kResultDefs[] = {
    {"bytes", "B", "bytes moved", "payload delivered by the measured transfers",
     "bytes the channels report done", &RunResult::bytes},
    {"descriptors", "descriptors", "descriptors", "data descriptors completed",
     "chain descriptors not included", &RunResult::descriptors},
    {"chain_links", "links", "chain links", "chain descriptors followed",
     "D - 1 for a list of D chunks", &RunResult::chain_links},
    {"cycles", "cycles", "cycles", "length of the measured window in clock cycles",
     "round(sim_time_ns * clock_mhz / 1000)", &RunResult::cycles},
    {"sim_time_ns", "ns", "simulated time", "length of the measured window",
     "first START write to the last completion interrupt (or the poll that found it), plus the "
     "CPU's cost of handling it (cpu.*, 0 by default)",
     &RunResult::sim_time_ns},
    {"throughput_gbps", "GB/s", "throughput", "payload rate (1e9 bytes per second)",
     "bytes / sim_time_ns", &RunResult::throughput_gbps},
    {"bytes_per_cycle", "B/cycle", "bytes per cycle", "payload per clock cycle", "bytes / cycles",
     &RunResult::bytes_per_cycle},
    {"descriptor_bytes_fetched", "B", "descriptor bytes fetched",
     "descriptor bytes read from memory",
     "every fetch burst, chain descriptors and over-prefetched slots included",
     &RunResult::descriptor_bytes_fetched},
    {"bus_utilization", "fraction", "bus utilisation",
     "share of cycles the busier data channel carried a beat",
     "busy cycles of the busiest RAM channel (read or write) / cycles",
     &RunResult::bus_utilization},
    {"interrupts", "interrupts", "interrupts", "interrupts the CPU handled",
     "handler runs that found a measured transfer's channel pending, START to the last "
     "completion handled",
     &RunResult::interrupts},
    {"interrupts_per_second", "1/s", "interrupts per second", "interrupt rate",
     "interrupts / (sim_time_ns / 1e9)", &RunResult::interrupts_per_second},
    {"polls", "polls", "polls", "polls of the channels' registers (workload.completion polling)",
     "polls while a measured transfer was in flight, its START to the last completion seen",
     &RunResult::polls},
    {"cpu_busy_cycles", "cycles", "CPU busy cycles", "CPU time completing descriptors",
     "cpu.irq_handler_cycles per interrupt + cpu.poll_cycles per poll + "
     "cpu.per_descriptor_cycles per measured descriptor reaped",
     &RunResult::cpu_busy_cycles},
    {"cpu_utilization", "fraction", "CPU utilisation",
     "share of cycles the CPU spent in completions", "cpu_busy_cycles / cycles",
     &RunResult::cpu_utilization},
};

/// A result's value as a double (for plots, ratios and comparisons).
inline double result_value(const RunResult& r, const ResultDef& def) {
    return std::visit([&r](auto member) { return static_cast<double>(r.*member); }, def.field);
}

}  // namespace dmasim::tb
