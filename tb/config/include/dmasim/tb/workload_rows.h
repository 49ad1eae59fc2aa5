// workload_rows.h - every testbench parameter, declared once, as the
// model's are in model/param_rows.h: sim_config.h makes the structs of these rows,
// tb/config/src/param_table.cc the table validate() and sim/'s keys read.
//
// X(type, field, default, key, unit, allowed values, what-if step, description)
//
// memory.size_mib, memory.placement and dma.descriptor_format keep the
// prefixes a user looks for them under, but the model reads none of them:
// sglist's simulated RAM is sized and its pages placed by the testbench,
// and the driver lays out the descriptors and writes their format into
// each channel's register. They are the testbench's, so they are here.
#pragma once

#define DMASIM_SIM_PARAMS(X)                                                                   \
    X(uint64_t, memory_size_mib, 1024, "memory.size_mib", "MiB",                               \
      (model::IntRange{1, 65536}.soaked(64, 1024)),                                            \
      model::kNotAdvised, "Simulated RAM size (sparse: only touched pages cost host memory)")  \
    X(sim_mem_placement, placement, SIM_MEM_SCATTERED, "memory.placement", "",                 \
      model::choices(kPlacements), model::set_to("contiguous", model::kDriver),                \
      "Physical placement of buffer pages: contiguous, or scattered at random (seeded)")       \
    X(dma_hw_format, descriptor_format, DMA_HW_FMT_CHAINED_PAGES, "dma.descriptor_format", "", \
      model::choices(kDescriptorFormats), model::set_to("chained_pages", model::kEngine),      \
      "Hardware descriptor layout: chunks joined by chain descriptors, or a linked list")

#define DMASIM_CPU_PARAMS(X)                                                                      \
    X(uint64_t, irq_handler_cycles, 0, "cpu.irq_handler_cycles", "cycles",                        \
      model::kCycles, model::halved(model::kDriver),                                              \
      "CPU time per interrupt the driver handles (entry, register accesses, exit), in cycles of " \
      "clock_mhz")                                                                                \
    X(uint64_t, per_descriptor_cycles, 0, "cpu.per_descriptor_cycles", "cycles",                  \
      model::kCycles, model::halved(model::kDriver),                                              \
      "CPU time per completed descriptor the handler reaps, in cycles of clock_mhz")              \
    X(uint64_t, poll_cycles, 0, "cpu.poll_cycles", "cycles",                                      \
      model::kCycles, model::halved(model::kDriver),                                              \
      "workload.completion polling: CPU time per poll (entry, register reads, exit), in cycles "  \
      "of clock_mhz")

#define DMASIM_WORKLOAD_PARAMS(X)                                                                  \
    X(std::string, scenario, "throughput", "workload.scenario", "", model::TextValues{},           \
      model::kNotAdvised, "Testbench scenario, compiled into tb/ (docs/scenarios.md lists them)")  \
    X(dma_hw_direction, direction, DMA_HW_MEM_TO_MEM, "workload.direction", "",                    \
      model::choices(kDirections), model::kNotAdvised,                                             \
      "mem_to_dev: the list is the source; dev_to_mem: the destination; mem_to_mem: the source, "  \
      "copied to a second buffer with the same segment lengths")                                   \
    X(uint64_t, entries, 256, "workload.entries", "segments",                                      \
      (model::IntRange{1, 1u << 24}.soaked(1, 4096)),                                              \
      model::kNotAdvised, "Scatter list length (data descriptors per transfer)")                   \
    X(uint64_t, segment_bytes, 4096, "workload.segment_bytes", "bytes",                            \
      (model::IntRange{1, UINT32_MAX}.soaked(1, 1u << 20)), model::kNotAdvised,                    \
      "Segment size (fixed), or the mean size (lognormal)")                                        \
    X(dmasim_seg_dist, distribution, DMASIM_SEG_FIXED, "workload.segment_distribution", "",        \
      model::choices(kSegmentDistributions), model::kNotAdvised, "How segment sizes are drawn")    \
    X(uint64_t, segment_bytes_min, 1, "workload.segment_bytes_min", "bytes",                       \
      (model::IntRange{1, UINT32_MAX}.soaked(1, 1u << 20)), model::kNotAdvised,                    \
      "uniform: smallest segment; lognormal: smaller draws are raised to it")                      \
    X(uint64_t, segment_bytes_max, 8192, "workload.segment_bytes_max", "bytes",                    \
      (model::IntRange{1, UINT32_MAX}.soaked(1, 1u << 20)), model::kNotAdvised,                    \
      "uniform: largest segment; lognormal: larger draws are clamped to it")                       \
    X(double, lognormal_sigma, 1.0, "workload.lognormal_sigma", "", (model::RealRange{0, 10}),     \
      model::kNotAdvised, "lognormal: sigma of ln(size)")                                          \
    X(uint64_t, offset, 0, "workload.offset", "bytes", (model::IntRange{0, kPageBytes - 1}),       \
      model::kNotAdvised, "In-page offset at which each segment starts")                           \
    X(uint64_t, chain_depth, 1, "workload.chain_depth", "chunks",                                  \
      (model::IntRange{1, 1u << 24}.soaked(1, 64)),                                                \
      model::kNotAdvised, "Descriptor chunks the list is split over")                              \
    X(uint64_t, seed, 1, "workload.seed", "", (model::IntRange{0, UINT64_MAX}),                    \
      model::kNotAdvised, "Seed for page placement, segment sizes and payload")                    \
    X(Payload, payload, Payload::checked, "workload.payload", "", model::choices(kPayloads),       \
      model::kNotAdvised,                                                                          \
      "checked: patterned data moved and compared byte for byte; none: timing only, buffers "      \
      "never touched or copied (same cycles; integrity reports not_checked)")                      \
    X(dmasim_buf_layout, buffers, DMASIM_BUF_PAGES, "workload.buffers", "",                        \
      model::choices(kBufferLayouts), model::kNotAdvised,                                          \
      "pages: each segment in page frames of its own; packed: segments back to back in page "      \
      "fragments (32 KiB blocks placed by memory.placement)")                                      \
    X(bool, irq_per_descriptor, false, "workload.irq_per_descriptor", "", model::BoolValues{},     \
      model::set_to("false", model::kDriver),                                                      \
      "Every data descriptor asks for an interrupt (DMA_DESC_IRQ), coalesced by "                  \
      "dma.irq_coalesce_*; false: one interrupt when the channel stops")                           \
    X(bool, deburst, false, "workload.deburst", "", model::BoolValues{},                           \
      model::set_to("false", model::kDriver),                                                      \
      "Every data descriptor carries DMA_DESC_DEBURST (flags bit 7, iDMA's reduce_len): the "      \
      "engine moves it in one-beat bursts")                                                        \
    X(Arrival, arrival, Arrival::poisson, "workload.arrival", "", model::choices(kArrivals),       \
      model::kNotAdvised,                                                                          \
      "requests scenario: closed (workload.in_flight requests always outstanding), periodic or "   \
      "poisson arrivals workload.interarrival_cycles apart (the mean, for poisson), or trace: "    \
      "the requests of workload.trace at its times")                                               \
    X(std::string, trace, "", "workload.trace", "", model::PathValues{}, model::kNotAdvised,       \
      "requests scenario, trace arrivals: request trace file (docs/request-traces.md; relative "   \
      "to the config that sets it), whose requests replace the drawn lists")                       \
    X(uint64_t, requests, 1000, "workload.requests", "requests",                                   \
      (model::IntRange{1, 1u << 24}.soaked(1, 64)),                                                \
      model::kNotAdvised,                                                                          \
      "requests scenario: requests the stream submits, each a list of this workload")              \
    X(uint64_t, in_flight, 1, "workload.in_flight", "requests", (model::IntRange{1, 1u << 16}),    \
      model::doubled(model::kDriver),                                                              \
      "requests scenario, closed arrivals: requests outstanding at once; each completion "         \
      "submits the next")                                                                          \
    X(uint64_t, interarrival_cycles, 10000, "workload.interarrival_cycles", "cycles",              \
      (model::IntRange{1, 1ull << 40}.soaked(1, 100000)), model::kNotAdvised,                      \
      "requests scenario, periodic or poisson arrivals: cycles from one request's arrival to the " \
      "next (the mean, for poisson)")                                                              \
    X(uint64_t, ring_entries, 64, "workload.ring_entries", "requests",                             \
      (model::IntRange{1, 1u << 20}.soaked(1, 256)), model::doubled(model::kDriver),               \
      "requests scenario: requests the submission ring holds, the one the engine runs included; "  \
      "with dma.submission tail_pointer, the engine's descriptor ring, with a slot for each "      \
      "descriptor of that many of the longest request")                                            \
    X(RingFull, ring_full, RingFull::wait, "workload.ring_full", "", model::choices(kRingFull),    \
      model::kNotAdvised,                                                                          \
      "requests scenario: a request that finds the ring full waits for a place (counted) or is "   \
      "dropped (counted)")                                                                         \
    X(Completion, completion, Completion::interrupt, "workload.completion", "",                    \
      model::choices(kCompletions), model::kNotAdvised,                                            \
      "How the driver learns of completions: from the controller's interrupt, or by polling each " \
      "busy channel's registers every workload.poll_interval_cycles (its interrupt masked)")       \
    X(uint64_t, poll_interval_cycles, 1000, "workload.poll_interval_cycles", "cycles",             \
      (model::IntRange{1, model::kMaxCycles}), model::halved(model::kDriver),                      \
      "workload.completion polling: cycles from one poll's start to the next while work is in "    \
      "flight")
