// param_rows.h - every model parameter, declared once: one row gives its
// field, type and default (params.h makes the structs of them), its config
// key, unit, allowed values and description (param_table.cc makes the
// table model::validate(), sim/'s keys, docs/configuration.md, the JSON
// schema, the soak and `dmasim advise` read). A new parameter is one row
// here plus its behaviour (docs/architecture.md, "Adding a parameter").
//
// X(type, field, default, key, unit, allowed values, what-if step, description)
// The what-if step (param_def.h: doubled, halved, set_to or kNotAdvised, and
// whose knob it is: kEngine, kPlatform, kDriver) is the move `dmasim
// advise` tries in the direction that could help.
#pragma once

#define DMASIM_PLATFORM_PARAMS(X)                                                          \
    X(double, clock_mhz, 1000, "clock_mhz", "MHz", (RealRange{1, 100000}.soaked(1, 2000)), \
      kNotAdvised, "Clock of the DMA engine, bus and memory (one cycle = 1000/clock_mhz ns)")

#define DMASIM_BUS_PARAMS(X)                                                                     \
    X(unsigned, width_bytes, 16, "bus.width_bytes", "bytes", (IntRange{1, 128, true}),           \
      doubled(kPlatform), "Data bytes per bus beat")                                             \
    X(unsigned, interconnect_latency_cycles, 0, "bus.interconnect_latency_cycles", "cycles",     \
      kCycles, halved(kPlatform),                                                                \
      "Latency the interconnect adds to every request")                                          \
    X(unsigned, mmio_latency_cycles, 10, "bus.mmio_latency_cycles", "cycles",                    \
      kCycles, halved(kPlatform), "Cost of one CPU register access")                             \
    X(BusKind, kind, BusKind::axi, "bus.kind", "", choices(kBusKinds), kNotAdvised,              \
      "axi: an on-chip bus straight to RAM; pcie: a PCIe link (pcie.* keys) to host RAM, reads " \
      "non-posted, writes posted (docs/pcie.md)")

#define DMASIM_PCIE_PARAMS(X)                                                                     \
    X(unsigned, gen, 3, "pcie.gen", "", (IntRange{1, 5}), kNotAdvised,                            \
      "PCIe generation: 2.5, 5 GT/s per lane (8b/10b), 8, 16, 32 GT/s (128b/130b)")               \
    X(unsigned, lanes, 8, "pcie.lanes", "lanes", (IntRange{1, 32, true}), doubled(kPlatform),     \
      "Link width")                                                                               \
    X(unsigned, max_payload_bytes, 256, "pcie.max_payload_bytes", "bytes",                        \
      (IntRange{128, 4096, true}), doubled(kPlatform),                                            \
      "Max payload size (MPS): largest posted-write or completion payload")                       \
    X(unsigned, max_read_request_bytes, 512, "pcie.max_read_request_bytes", "bytes",              \
      (IntRange{128, 4096, true}), doubled(kPlatform),                                            \
      "Max read request size (MRRS): reads are split into requests this large")                   \
    X(unsigned, read_completion_boundary_bytes, 64, "pcie.read_completion_boundary_bytes",        \
      "bytes", (IntRange{64, 128, true}), doubled(kPlatform),                                     \
      "Read completion boundary (RCB): completions end on it, all but the last")                  \
    X(unsigned, request_header_bytes, 16, "pcie.request_header_bytes", "bytes",                   \
      (one_of({12, 16})), kNotAdvised,                                                            \
      "Read and write request header: 16 (64-bit addresses) or 12 (32-bit)")                      \
    X(unsigned, completion_header_bytes, 12, "pcie.completion_header_bytes", "bytes",             \
      (IntRange{12, 16}), kNotAdvised, "Completion header")                                       \
    X(unsigned, framing_bytes, 2, "pcie.framing_bytes", "bytes", (IntRange{0, 8}), kNotAdvised,   \
      "Physical-layer framing per TLP")                                                           \
    X(unsigned, sequence_bytes, 2, "pcie.sequence_bytes", "bytes", (IntRange{0, 8}), kNotAdvised, \
      "Data-link sequence number per TLP")                                                        \
    X(unsigned, lcrc_bytes, 4, "pcie.lcrc_bytes", "bytes", (IntRange{0, 8}), kNotAdvised,         \
      "Data-link CRC per TLP")                                                                    \
    X(unsigned, read_latency_cycles, 500, "pcie.read_latency_cycles", "cycles",                   \
      kCycles, halved(kPlatform),                                                                 \
      "Non-posted round trip through root complex and link, beyond serialisation and "            \
      "memory.read_latency_cycles (descriptor fetches and data reads)")                           \
    X(unsigned, tags, 32, "pcie.tags", "requests", (IntRange{1, 1024}), doubled(kEngine),         \
      "Read requests in flight (tags)")                                                           \
    X(double, dllp_overhead, 0.0814, "pcie.dllp_overhead", "fraction", (RealRange{0, 0.5}),       \
      kNotAdvised,                                                                                \
      "Share of link time for ACK and flow-control DLLPs and SKP ordered sets (0.0814: "          \
      "pcie-bench's Gen3 x8, MPS 256)")

#define DMASIM_MEMORY_PARAMS(X)                                                                   \
    X(unsigned, read_latency_cycles, 50, "memory.read_latency_cycles", "cycles",                  \
      kCycles, halved(kPlatform), "Read request accepted to first data beat")   \
    X(unsigned, write_latency_cycles, 20, "memory.write_latency_cycles", "cycles",                \
      kCycles, halved(kPlatform), "Last write beat to write response")          \
    X(double, bandwidth_bytes_per_cycle, 0, "memory.bandwidth_bytes_per_cycle", "bytes/cycle",    \
      (RealRange{0, 4096}.soaked(1, 4096)), doubled(kPlatform),                                    \
      "Memory bandwidth per channel; 0 = one bus beat per cycle (kind fixed)")                    \
    X(MemoryKind, kind, MemoryKind::fixed, "memory.kind", "", choices(kMemoryKinds), kNotAdvised, \
      "fixed: the latencies above and the bus's bandwidth; dram: banks, rows, refresh and "       \
      "turnarounds behind the port, the memory.* DRAM keys below (docs/memory.md)")               \
    DMASIM_DRAM_PARAMS(X)

// The DRAM's rows (memory.kind dram). Defaults are DDR4-3200AA x8 (JESD79-4,
// configs/memory/ddr4-3200.yaml cites each figure). "clocks" are the DRAM's
// own clock (data rate / 2); ns timings are rounded up to whole DRAM clocks.
#define DMASIM_DRAM_PARAMS(X)                                                                      \
    X(unsigned, data_rate_mts, 3200, "memory.data_rate_mts", "MT/s", (IntRange{200, 20000}),       \
      kNotAdvised, "DRAM transfers per second per pin (its clock is half this)")                   \
    X(unsigned, channels, 1, "memory.channels", "channels", (IntRange{1, 64, true}),               \
      doubled(kPlatform), "Independent DRAM channels, each with its own data bus and queues")      \
    X(unsigned, channel_width_bits, 64, "memory.channel_width_bits", "bits",                       \
      (IntRange{8, 1024, true}), kNotAdvised, "Data bus width of one channel")                     \
    X(unsigned, burst_length, 8, "memory.burst_length", "beats", (IntRange{2, 32, true}),          \
      kNotAdvised, "Beats per DRAM burst; tBURST = burst_length / 2 clocks")                       \
    X(unsigned, ranks, 1, "memory.ranks", "ranks", (IntRange{1, 8, true}), kNotAdvised,            \
      "Ranks per channel")                                                                         \
    X(unsigned, bank_groups, 4, "memory.bank_groups", "groups", (IntRange{1, 16, true}),           \
      kNotAdvised, "Bank groups per rank (1: no groups, the _S and _L timings are one)")           \
    X(unsigned, banks_per_group, 4, "memory.banks_per_group", "banks", (IntRange{1, 64, true}),    \
      kNotAdvised, "Banks in each bank group")                                                     \
    X(unsigned, rows, 65536, "memory.rows", "rows", (IntRange{16, 1u << 20, true}), kNotAdvised,   \
      "Rows per bank")                                                                             \
    X(unsigned, columns, 1024, "memory.columns", "columns", (IntRange{16, 1u << 16, true}),        \
      kNotAdvised, "Columns per row, one channel-wide beat each (row = columns x width bytes)")    \
    X(DramMapping, mapping, DramMapping::row_bank_column, "memory.mapping", "",                    \
      choices(kDramMappings), set_to("bank_interleaved", kPlatform),                               \
      "Address bits, low to high: row_bank_column = column, channel, bank group, bank, rank, "     \
      "row (a row's bursts are contiguous); bank_interleaved = channel, bank group, bank, rank, "  \
      "column, row (consecutive bursts in different banks)")                                       \
    X(PagePolicy, page_policy, PagePolicy::open, "memory.page_policy", "", choices(kPagePolicies), \
      kNotAdvised,                                                                                 \
      "open: a row stays open for the next access; closed: precharge after each access")           \
    X(unsigned, read_queue, 32, "memory.read_queue", "requests", (IntRange{1, 1024}),              \
      doubled(kPlatform), "Read queue entries per channel; a full queue holds the next read")      \
    X(unsigned, write_queue, 32, "memory.write_queue", "requests",                                 \
      (IntRange{1, 1024}.soaked(32, 1024)),                                                        \
      doubled(kPlatform), "Write queue entries per channel; a full queue holds the next write")    \
    X(unsigned, write_high_watermark, 24, "memory.write_high_watermark", "requests",               \
      (IntRange{1, 1024}.soaked(9, 32)), kNotAdvised, "Queued writes that start a drain")          \
    X(unsigned, write_low_watermark, 8, "memory.write_low_watermark", "requests",                  \
      (IntRange{0, 1023}.soaked(0, 8)), kNotAdvised, "Queued writes a drain leaves")               \
    X(unsigned, t_cl_clocks, 22, "memory.t_cl_clocks", "clocks", (IntRange{1, 1000}), kNotAdvised, \
      "tCL: read command to first data")                                                           \
    X(unsigned, t_cwl_clocks, 16, "memory.t_cwl_clocks", "clocks", (IntRange{1, 1000}),            \
      kNotAdvised, "tCWL: write command to first data")                                            \
    X(double, t_rcd_ns, 13.75, "memory.t_rcd_ns", "ns", (RealRange{0, 1000}), kNotAdvised,         \
      "tRCD: activate to column command")                                                          \
    X(double, t_rp_ns, 13.75, "memory.t_rp_ns", "ns", (RealRange{0, 1000}), kNotAdvised,           \
      "tRP: precharge to activate")                                                                \
    X(double, t_ras_ns, 32, "memory.t_ras_ns", "ns",                                               \
      (RealRange{0, 1000}.soaked(10, 40)), kNotAdvised,                                            \
      "tRAS: activate to precharge")                                                               \
    X(double, t_rc_ns, 45.75, "memory.t_rc_ns", "ns",                                              \
      (RealRange{0, 1000}.soaked(40, 1000)), kNotAdvised,                                          \
      "tRC: activate to activate, same bank")                                                      \
    X(double, t_wr_ns, 15, "memory.t_wr_ns", "ns", (RealRange{0, 1000}), kNotAdvised,              \
      "tWR: last write data to precharge, same bank")                                              \
    X(unsigned, t_ccd_s_clocks, 4, "memory.t_ccd_s_clocks", "clocks", (IntRange{1, 100}),          \
      kNotAdvised, "tCCD_S: column to column, different bank groups")                              \
    X(unsigned, t_ccd_l_clocks, 8, "memory.t_ccd_l_clocks", "clocks", (IntRange{1, 100}),          \
      kNotAdvised, "tCCD_L: column to column, same bank group")                                    \
    X(double, t_rrd_s_ns, 2.5, "memory.t_rrd_s_ns", "ns", (RealRange{0, 1000}), kNotAdvised,       \
      "tRRD_S: activate to activate, different bank groups")                                       \
    X(double, t_rrd_l_ns, 4.9, "memory.t_rrd_l_ns", "ns", (RealRange{0, 1000}), kNotAdvised,       \
      "tRRD_L: activate to activate, same bank group")                                             \
    X(double, t_faw_ns, 21, "memory.t_faw_ns", "ns", (RealRange{0, 1000}), kNotAdvised,            \
      "tFAW: window holding at most four activates per rank")                                      \
    X(double, t_wtr_s_ns, 2.5, "memory.t_wtr_s_ns", "ns", (RealRange{0, 1000}), kNotAdvised,       \
      "tWTR_S: last write data to read command, different bank groups")                            \
    X(double, t_wtr_l_ns, 7.5, "memory.t_wtr_l_ns", "ns", (RealRange{0, 1000}), kNotAdvised,       \
      "tWTR_L: last write data to read command, same bank group")                                  \
    X(unsigned, t_rtw_clocks, 12, "memory.t_rtw_clocks", "clocks", (IntRange{0, 1000}),            \
      kNotAdvised, "tRTW: read command to write command (tCL + tBURST + 2 - tCWL)")                \
    X(double, t_rtp_ns, 7.5, "memory.t_rtp_ns", "ns", (RealRange{0, 1000}), kNotAdvised,           \
      "tRTP: read command to precharge, same bank")                                                \
    X(unsigned, t_rtrs_clocks, 1, "memory.t_rtrs_clocks", "clocks", (IntRange{0, 100}),            \
      kNotAdvised, "tRTRS: idle data-bus clocks between bursts of different ranks")                \
    X(double, t_refi_ns, 7800, "memory.t_refi_ns", "ns",                                           \
      (RealRange{0, 100000}.soaked(2000, 100000)), kNotAdvised,                                    \
      "tREFI: refresh interval per rank; 0 = no refresh")                                          \
    X(double, t_rfc_ns, 350, "memory.t_rfc_ns", "ns",                                              \
      (RealRange{0, 10000}.soaked(100, 1000)), kNotAdvised,                                        \
      "tRFC: all-bank refresh, the rank's banks closed and blocked")

#define DMASIM_DMA_PARAMS(X)                                                                      \
    X(unsigned, channels, 1, "dma.channels", "channels", (IntRange{1, DMA_MAX_CHANNELS}),         \
      doubled(kEngine),                                                                           \
      "DMA channels in the controller (throughput uses channel 0; multi_channel all)")            \
    X(unsigned, max_burst_beats, 16, "dma.max_burst_beats", "beats", (IntRange{1, 256}),          \
      doubled(kEngine), "Longest data burst (bursts never cross a 4 KiB boundary)")               \
    X(unsigned, max_outstanding_reads, 16, "dma.max_outstanding_reads", "bursts",                 \
      (IntRange{1, 256}), doubled(kEngine), "Read bursts in flight per channel")                  \
    X(unsigned, max_outstanding_writes, 16, "dma.max_outstanding_writes", "bursts",               \
      (IntRange{1, 256}), doubled(kEngine), "Write bursts in flight per channel")                 \
    X(unsigned, max_bursts_in_flight, 0, "dma.max_bursts_in_flight", "bursts",                    \
      (IntRange{0, 256}), kNotAdvised,                                                            \
      "Bursts from read issue to write response per channel: a read issues only once the "        \
      "writes of the data read this many reads before it have responded (iDMA's backend "         \
      "legalises a read with its write and holds both until the write's B: MetaFifoDepth); "      \
      "0 = no such bound")                                                                        \
    X(unsigned, descriptor_prefetch, 8, "dma.descriptor_prefetch", "descriptors",                 \
      (IntRange{1, 128}), doubled(kEngine), "Descriptors fetched per descriptor read")            \
    X(unsigned, descriptor_queue, kUnboundedQueue, "dma.descriptor_queue", "descriptors",         \
      (IntRange{0, kUnboundedQueue}), doubled(kEngine),                                           \
      "Decoded descriptors the engine fetches ahead of its data mover (AXI DMA queues 4); 0 = "   \
      "fetch on demand, when the mover needs the next one; the maximum: as far as the prefetch "  \
      "window goes (fetch again once drained to dma.descriptor_prefetch)")                        \
    X(DescriptorFetch, descriptor_fetch, DescriptorFetch::burst, "dma.descriptor_fetch", "",      \
      choices(kDescriptorFetches), set_to("burst", kEngine),                                      \
      "Descriptor reads: burst (up to dma.descriptor_prefetch slots per read), word (one bus "    \
      "word at a time), or speculative (iDMA desc64: up to dma.descriptor_prefetch "              \
      "one-descriptor reads of the slots that follow in flight, capped by the free places of "    \
      "dma.descriptor_queue; a next pointer elsewhere drains them)")                              \
    X(bool, speculation_miss_waits, true, "dma.speculation_miss_waits", "", BoolValues{},         \
      set_to("false", kEngine),                                                                   \
      "dma.descriptor_fetch speculative: on a miss the right read issues only once the "          \
      "speculative reads in flight have drained; false: at once, behind them on the in-order "    \
      "read channel, as iDMA's desc64 (the flushed reads are not cancelled, their beats still "   \
      "cost read-channel cycles)")                                                                \
    X(bool, fetch_in_read_order, false, "dma.fetch_in_read_order", "", BoolValues{}, kNotAdvised, \
      "Descriptor and data reads share one in-order read return path: the walker issues no "      \
      "fetch later than the data read of the descriptor the mover has just taken, so each "       \
      "read's beats come back behind those issued before it (iDMA desc64's reads through one "    \
      "AXI port); false: fetches run ahead of the data reads")                                    \
    X(unsigned, buffer_bytes, 8192, "dma.buffer_bytes", "bytes",                                  \
      (IntRange{1, 1u << 24}.soaked(256, 1u << 20)), doubled(kEngine),                            \
      "Read-to-write data buffer per channel")                                                    \
    X(WritePolicy, write_policy, WritePolicy::cut_through, "dma.write_policy", "",                \
      choices(kWritePolicies), set_to("cut_through", kEngine),                                    \
      "Writes start as read data arrives, or only once a whole segment is buffered")              \
    X(StreamWritePolicy, stream_write_policy, StreamWritePolicy::same, "dma.stream_write_policy", \
      "", choices(kStreamWritePolicies), set_to("cut_through", kEngine),                          \
      "Write policy of device-to-memory (S2MM) writes: the same as dma.write_policy, or their "   \
      "own (PG022 Table 1: store-and-forward is an S2MM option)")                                 \
    X(unsigned, stream_write_latency_cycles, 0, "dma.stream_write_latency_cycles", "cycles",      \
      kCycles, halved(kEngine),                                                                   \
      "Device-to-memory (S2MM) writes: cycles from the write policy letting a write go to its "   \
      "issue, a pipeline stage paid once per stream (PG021 Table 1: tvalid to awvalid 39 = 1 + "  \
      "38)")                                                                                      \
    X(unsigned, write_issue_latency_cycles, 0, "dma.write_issue_latency_cycles", "cycles",        \
      kCycles, halved(kEngine),                                                                   \
      "Every write burst: cycles from the write policy letting it go to its issue, a stage "      \
      "between buffer and write port (axisgdma: 2); device-to-memory writes add "                 \
      "dma.stream_write_latency_cycles")                                                          \
    X(bool, write_waits_for_next_word, false, "dma.write_waits_for_next_word", "", BoolValues{},  \
      set_to("false", kEngine),                                                                   \
      "A write burst that is not its segment's last also waits for the first bus word after "     \
      "it (the next read burst's first beat, when that read is issued), as axisgdma's "           \
      "realigning FIFO does: each middle burst of a long segment then shows the read latency")    \
    X(bool, data_overlap, true, "dma.data_overlap", "", BoolValues{}, set_to("true", kEngine),    \
      "The next descriptor's data may start before the previous descriptor completes; false: a "  \
      "serial data mover (how far descriptors are fetched ahead is dma.descriptor_queue's). "     \
      "Formerly dma.descriptor_overlap, still read")                                              \
    X(DescriptorPort, descriptor_port, DescriptorPort::shared, "dma.descriptor_port", "",         \
      choices(kDescriptorPorts), set_to("separate", kEngine),                                     \
      "Master for descriptor fetches and status write-backs: the data port (shared, at "          \
      "bus.width_bytes) or one of its own (separate, at dma.descriptor_port_width_bytes, as AXI " \
      "DMA's 32-bit M_AXI_SG); both reach the same memory")                                       \
    X(unsigned, descriptor_port_width_bytes, 4, "dma.descriptor_port_width_bytes", "bytes",       \
      (IntRange{1, 128, true}), doubled(kEngine),                                                 \
      "Width of a separate descriptor port (dma.descriptor_port: separate), at most "             \
      "bus.width_bytes")                                                                          \
    X(unsigned, descriptor_setup_cycles, 2, "dma.descriptor_setup_cycles", "cycles",              \
      kCycles, halved(kEngine), "Decode cost per data descriptor")                                \
    X(unsigned, chain_link_cycles, 4, "dma.chain_link_cycles", "cycles",                          \
      kCycles, halved(kEngine), "Decode cost per chain descriptor")                               \
    X(bool, chain_link_on_demand, false, "dma.chain_link_on_demand", "", BoolValues{},            \
      set_to("false", kEngine),                                                                   \
      "chained_pages: the walker decodes a chain slot only when the mover asks for the "          \
      "descriptor after it (a sequencer reading its table in order, as axisgdma's), not as "      \
      "soon as the slot is read; a serial mover then pays the link and the dependent fetch "      \
      "after each chunk's last descriptor")                                                       \
    X(unsigned, descriptor_launch_cycles, 0, "dma.descriptor_launch_cycles", "cycles",            \
      kCycles, halved(kEngine),                                                                   \
      "A serial data mover (dma.data_overlap false): cycles from one descriptor's completion "    \
      "(or START) to the next one's first data read, a launch on the critical path that no "      \
      "fetch-ahead hides (axisgdma: 9)")                                                          \
    X(unsigned, max_chain_depth, 4096, "dma.max_chain_depth", "links",                            \
      (IntRange{1, UINT32_MAX}.soaked(64, UINT32_MAX)), kNotAdvised,                              \
      "Chain links per transfer before the engine reports CHAIN_LOOP")                            \
    X(uint64_t, max_descriptors, 1u << 24, "dma.max_descriptors", "descriptors",                  \
      (IntRange{1, UINT32_MAX}.soaked(4096, UINT32_MAX)), kNotAdvised,                            \
      "Descriptors per transfer before the engine reports CHAIN_LOOP")                            \
    X(unsigned, irq_latency_cycles, 5, "dma.irq_latency_cycles", "cycles",                        \
      kCycles, halved(kEngine), "Completion to interrupt line raised")                            \
    X(unsigned, irq_coalesce_count, 1, "dma.irq_coalesce_count", "completions",                   \
      (IntRange{1, 255}), doubled(kDriver),                                                       \
      "Interrupt threshold (AXI DMA IRQThreshold, PG021): completions of descriptors flagged "    \
      "DMA_DESC_IRQ per interrupt; 1 = one each. The stop interrupt reports any pending")         \
    X(uint64_t, irq_coalesce_timeout_cycles, 0, "dma.irq_coalesce_timeout_cycles", "cycles",      \
      kCycles, kNotAdvised,                                                                       \
      "Interrupt delay (AXI DMA IRQDelay, PG021): an interrupt is raised this long after the "    \
      "latest completion if the threshold was not reached; 0 = no timer")                         \
    X(dma_hw_writeback, status_writeback, DMA_HW_WB_PER_DESCRIPTOR, "dma.status_writeback", "",   \
      choices(kStatusWritebacks), set_to("irq_only", kEngine),                                    \
      "Which data descriptors get a status write-back: every one, only those raising an "         \
      "interrupt, only the last (END), or none (completion only in the channel registers)")       \
    X(unsigned, descriptor_bytes, 32, "dma.descriptor_bytes", "bytes", (IntRange{16, 64, true}),  \
      halved(kEngine),                                                                            \
      "Descriptor slot size: 16 (compact, 32-bit addresses), 32 or 64 (32 ignored padding "       \
      "bytes); linked_list adds its next pointer (24, 48, 80)")                                   \
    X(DescriptorNext, descriptor_next, DescriptorNext::appended, "dma.descriptor_next", "",       \
      choices(kDescriptorNexts), set_to("in_slot", kEngine),                                      \
      "linked_list: next pointer appended to the slot's layout (24, 48, 80 B) or inside a 32 or " \
      "64-byte slot, as AXI DMA's and CDMA's 32-byte BDs (PG021, PG034)")                         \
    X(unsigned, descriptor_app_words, 0, "dma.descriptor_app_words", "words",                     \
      (IntRange{0, DMA_HW_MAX_APP_WORDS}), halved(kEngine),                                       \
      "32-bit APP words read with every descriptor after its fields (AXI DMA's APP0..APP4 with "  \
      "the control/status stream, PG021), and written back with the status in dev_to_mem "        \
      "(S2MM); with any, descriptors sit 0x40-aligned")                                           \
    X(unsigned, read_refill_bytes, 0, "dma.read_refill_bytes", "bytes", (IntRange{0, 1u << 24}),  \
      kNotAdvised,                                                                                \
      "Reads wait until this much buffer space is free, then fill it; 0 = one burst, each read "  \
      "waits only for its own space")                                                             \
    X(unsigned, start_latency_cycles, 0, "dma.start_latency_cycles", "cycles",                    \
      kCycles, halved(kEngine),                                                                   \
      "START register write to the first descriptor fetch")                                       \
    X(Submission, submission, Submission::start, "dma.submission", "", choices(kSubmissions),     \
      kNotAdvised,                                                                                \
      "How a channel is given work: start (one START per list, run to its END descriptor) or "    \
      "tail_pointer (one START, then each TAIL write names the last descriptor of a ring to run " \
      "to; the channel idles there, as AXI DMA's TAILDESC, PG021)")

#define DMASIM_FAULT_PARAMS(X)                                                                   \
    X(FaultKind, kind, FaultKind::none, "fault.kind", "", choices(kFaultKinds), kNotAdvised,     \
      "Inject a bus error (error-handling tests): none, on a descriptor fetch (DESC_BUS), on a " \
      "data burst (DATA_BUS), or translation: the driver revokes the IOMMU mapping of a data "   \
      "descriptor's first page before START (TRANSLATION; needs iommu.enabled)")                 \
    X(unsigned, channel, 0, "fault.channel", "channel", (IntRange{0, DMA_MAX_CHANNELS - 1}),     \
      kNotAdvised, "Channel whose access fails")                                                 \
    X(uint64_t, index, 0, "fault.index", "", (IntRange{0, UINT64_MAX}), kNotAdvised,             \
      "Which access fails, counted from each START (0 = the first): descriptor = that "          \
      "descriptor fetch; data = the first data burst of that data descriptor; translation = "    \
      "that data descriptor's first page")

#define DMASIM_IOMMU_PARAMS(X)                                                                     \
    X(bool, enabled, false, "iommu.enabled", "", BoolValues{}, kNotAdvised,                        \
      "Put an IOMMU between the DMA engine and memory: the driver maps every buffer and "          \
      "descriptor chunk through page tables in simulated RAM and the engine issues IOVAs, "        \
      "translated by an IOTLB (docs/timing-model.md)")                                             \
    X(unsigned, iotlb_entries, 64, "iommu.iotlb_entries", "entries", (IntRange{1, 65536}),         \
      doubled(kEngine), "Translations the IOTLB caches")                                           \
    X(unsigned, iotlb_ways, 4, "iommu.iotlb_ways", "entries", (IntRange{1, 65536}),                \
      doubled(kEngine),                                                                            \
      "IOTLB associativity (entries per set); iommu.iotlb_entries = fully associative")            \
    X(uint64_t, page_bytes, 4096, "iommu.page_size", "bytes", (one_of({4096, 2097152})),           \
      set_to("2097152", kDriver),                                                                  \
      "Largest page the driver maps: 4KiB, or 2MiB (a 2 MiB leaf wherever a buffer is 2 MiB "      \
      "aligned and contiguous, as Linux's iommu_map)")                                             \
    X(unsigned, walk_levels, 4, "iommu.walk_levels", "levels",                                     \
      (IntRange{IOMMU_MIN_LEVELS, IOMMU_MAX_LEVELS}.soaked(3, IOMMU_MAX_LEVELS)), kNotAdvised,     \
      "Page-table levels: an IOTLB miss reads this many dependent entries (IOVA of 12 + 9 x "      \
      "levels bits)")                                                                              \
    X(unsigned, walk_cache_entries, 0, "iommu.walk_cache_entries", "entries", (IntRange{0, 4096}), \
      doubled(kEngine),                                                                            \
      "Cached level-2 entries: a miss that hits them reads only the leaf; 0 = no walk cache")      \
    X(unsigned, iotlb_hit_cycles, 1, "iommu.iotlb_hit_cycles", "cycles", (IntRange{0, 1000}),      \
      halved(kEngine),                                                                             \
      "Cost of a translation that hits the IOTLB, added to every translated access")

#define DMASIM_DEVICE_PARAMS(X)                                                       \
    X(double, rate_bytes_per_cycle, 16, "device.rate_bytes_per_cycle", "bytes/cycle", \
      (RealRange{0.001, 4096}.soaked(0.5, 64)), doubled(kPlatform),                   \
      "Stream port rate (dev_to_mem and mem_to_dev)")

#define DMASIM_TRAFFIC_PARAMS(X)                                                                  \
    X(double, bytes_per_cycle, 0, "traffic.bytes_per_cycle", "bytes/cycle",                       \
      (RealRange{0, 4096}.soaked(0, 16)), halved(kPlatform),                                      \
      "Background bus master's demand; 0 = no background traffic")                                \
    X(double, read_fraction, 0.5, "traffic.read_fraction", "", (RealRange{0, 1}), kNotAdvised,    \
      "Share of background bursts that are reads")                                                \
    X(unsigned, burst_beats, 16, "traffic.burst_beats", "beats", (IntRange{1, 256}), kNotAdvised, \
      "Background burst length")                                                                  \
    X(uint64_t, seed, 1, "traffic.seed", "", (IntRange{0, UINT64_MAX}), kNotAdvised,              \
      "Seed of the background master")
