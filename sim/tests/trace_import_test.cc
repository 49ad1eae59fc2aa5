// trace_import_test.cc - request traces read and written
// (tb/request_trace.h), and ftrace text of the dma events imported into
// them (trace_import.h), including the errors that name line and field.
#include "trace_import.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace dmasim::sim {
namespace {

using tb::TraceError;
using tb::TraceRequest;

std::vector<TraceRequest> parse(const std::string& text) {
    std::istringstream in(text);
    return tb::parse_request_trace(in, "t.trace");
}

std::string parse_error(const std::string& text) {
    try {
        parse(text);
    } catch (const TraceError& e) {
        return e.what();
    }
    return "no error";
}

Imported import(const std::string& text, const std::string& device = "") {
    std::istringstream in(text);
    return import_ftrace(in, "f.txt", device);
}

std::string import_error(const std::string& text) {
    try {
        import(text);
    } catch (const TraceError& e) {
        return e.what();
    }
    return "no error";
}

TEST(RequestTrace, ReadsTimesDirectionsLengthsAndOffsets) {
    const auto r = parse("# comment\n\n0 dev_to_mem 3584@512 512\n  41250\tmem_to_dev 1514@2114\n");
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].at_ns, 0u);
    EXPECT_EQ(r[0].direction, DMA_HW_DEV_TO_MEM);
    EXPECT_EQ(r[0].lengths, (std::vector<uint32_t>{3584, 512}));
    EXPECT_EQ(r[0].offsets, (std::vector<uint32_t>{512, 0}));
    EXPECT_EQ(r[0].line, 3u);
    EXPECT_EQ(r[1].at_ns, 41250u);
    EXPECT_EQ(r[1].direction, DMA_HW_MEM_TO_DEV);
    EXPECT_EQ(r[1].offsets, (std::vector<uint32_t>{2114}));
}

TEST(RequestTrace, WrittenTraceReadsBackTheSame) {
    const auto r = parse("5 mem_to_mem 1 4096@4095\n7 dev_to_mem 4294967295\n");
    std::ostringstream out;
    tb::write_request_trace(out, r);
    const auto again = parse(out.str());
    ASSERT_EQ(again.size(), r.size());
    for (size_t i = 0; i < r.size(); ++i) {
        EXPECT_EQ(again[i].at_ns, r[i].at_ns);
        EXPECT_EQ(again[i].direction, r[i].direction);
        EXPECT_EQ(again[i].lengths, r[i].lengths);
        EXPECT_EQ(again[i].offsets, r[i].offsets);
    }
}

TEST(RequestTrace, EachBadFieldIsNamedWithItsLine) {
    EXPECT_EQ(parse_error("0 mem_to_dev\n"),
              "t.trace:1: a request needs AT_NS, DIRECTION and at least one LENGTH[@OFFSET], "
              "this line has 2 fields");
    EXPECT_EQ(parse_error("0 sideways 4\n"),
              "t.trace:1: field 2 ('sideways'): direction must be mem_to_dev, dev_to_mem or "
              "mem_to_mem");
    EXPECT_EQ(parse_error("0 mem_to_dev 4\n1 mem_to_dev 0\n"),
              "t.trace:2: field 3 ('0'): an entry's LENGTH must be at least 1 byte");
    EXPECT_EQ(parse_error("0 mem_to_dev 4 4x\n"),
              "t.trace:1: field 4 ('4x'): an entry's LENGTH (LENGTH[@OFFSET]) must be a whole "
              "number of bytes or nanoseconds");
    EXPECT_EQ(parse_error("0 mem_to_dev 4294967296\n"),
              "t.trace:1: field 3 ('4294967296'): an entry's LENGTH (LENGTH[@OFFSET]) must be at "
              "most 4294967295");
    EXPECT_EQ(parse_error("9 mem_to_dev 4\n8 mem_to_dev 4\n"),
              "t.trace:2: field 1 ('8'): AT_NS goes back in time: the request before arrives at 9");
    EXPECT_EQ(parse_error("-1 mem_to_dev 4\n"),
              "t.trace:1: field 1 ('-1'): AT_NS must be a whole number of bytes or nanoseconds");
    EXPECT_EQ(parse_error("# nothing\n"), "t.trace: holds no request (docs/request-traces.md)");
}

// The text Linux 6.18 prints (events/dma/dma_map_sg/format), the shorter
// one of earlier kernels, and dma_map_page / dma_map_phys.
constexpr const char* kFtrace =
    "# tracer: nop\n"
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "  fio-2281     [000] ..... 5123.400016: dma_map_sg: 0000:01:00.0 dir=FROM_DEVICE "
    "nents=2/2 ents=2/2 dma_addrs={0x147882200,0x1f6705000} sizes={0xe00,0x200} "
    "phys_addrs={0x147882200,0x1f6705000} attrs=\n"
    "  <idle>-0       [001] d.h1. 5123.400017: irq_handler_entry: irq=24 name=eth0\n"
    "  iperf3-3310    [001] ..... 5123.400116: dma_map_page: 0000:02:00.0 dir=TO_DEVICE "
    "dma_addr=7f3a2842 size=1514 phys_addr=7f3a2842 attrs=\n"
    "  fio-2281     [000] ..... 5123.401016: dma_map_sg: 0000:01:00.0 dir=TO_DEVICE "
    "dma_addrs={0x5000} sizes={0x1000} phys_addrs={0x5000} attrs=\n"
    "  kworker-7    [000] ..... 5123.401020: dma_map_phys: 0000:01:00.0 dir=BIDIRECTIONAL "
    "dma_addr=1000 size=64 phys_addr=1000 attrs=\n";

// The requests scenario's check, footprint and run each ask for the trace:
// the second load is the first one's requests, not a fresh parse of the
// file (which has changed meanwhile).
TEST(RequestTrace, ALoadedTraceIsParsedOnceAndShared) {
    const std::string path = ::testing::TempDir() + "parsed_once.trace";
    std::ofstream(path) << "0 mem_to_dev 4096\n10 dev_to_mem 512 512\n";
    const std::vector<TraceRequest>& first = tb::load_request_trace(path);
    std::ofstream(path) << "0 mem_to_dev 8\n";
    const std::vector<TraceRequest>& second = tb::load_request_trace(path);
    std::remove(path.c_str());
    EXPECT_EQ(&first, &second);
    ASSERT_EQ(second.size(), 2u);
    EXPECT_EQ(second[1].lengths, (std::vector<uint32_t>{512, 512}));
}

TEST(TraceImport, KeepsLengthsOffsetsAndTimesOfEveryMapping) {
    const Imported im = import(kFtrace);
    ASSERT_EQ(im.requests.size(), 3u);
    EXPECT_EQ(im.requests[0].at_ns, 0u);
    EXPECT_EQ(im.requests[0].direction, DMA_HW_DEV_TO_MEM);
    EXPECT_EQ(im.requests[0].lengths, (std::vector<uint32_t>{0xe00, 0x200}));
    EXPECT_EQ(im.requests[0].offsets, (std::vector<uint32_t>{0x200, 0}));
    EXPECT_EQ(im.requests[1].at_ns, 100'000u);
    EXPECT_EQ(im.requests[1].direction, DMA_HW_MEM_TO_DEV);
    EXPECT_EQ(im.requests[1].lengths, (std::vector<uint32_t>{1514}));
    EXPECT_EQ(im.requests[1].offsets, (std::vector<uint32_t>{0x842}));
    EXPECT_EQ(im.requests[2].at_ns, 1'000'000u);
    EXPECT_EQ(im.other_lines, 1u);
    EXPECT_EQ(im.unusable, 1u);
}

TEST(TraceImport, DeviceFilterKeepsOneDevicesMappings) {
    const Imported im = import(kFtrace, "0000:01:00.0");
    ASSERT_EQ(im.requests.size(), 2u);
    EXPECT_EQ(im.requests[1].at_ns, 1'000'000u);
    EXPECT_EQ(im.other_lines, 2u);
}

TEST(TraceImport, TruncatedListsAreCounted) {
    const Imported im = import(
        " a-1 [000] ..... 1.000000: dma_map_sg: d dir=TO_DEVICE nents=128/130 ents=128/130 "
        "[TRUNCATED] dma_addrs={0x0} sizes={0x10} phys_addrs={0x0} attrs=\n");
    EXPECT_EQ(im.truncated, 1u);
    EXPECT_EQ(im.requests.size(), 1u);
}

TEST(TraceImport, UnreadableMappingEventsNameLineAndField) {
    const std::string at = " a-1 [000] ..... 1.000000: ";
    EXPECT_EQ(import_error(at + "dma_map_sg: d dir=TO_DEVICE dma_addrs={0x0} sizes={0xg}\n"),
              "f.txt:1: sizes={0xg}: '0xg' is not a hexadecimal number");
    EXPECT_EQ(import_error(at + "dma_map_sg: d dir=TO_DEVICE dma_addrs={0x0,0x1} sizes={0x10}\n"),
              "f.txt:1: dma_map_sg: 2 DMA addresses for 1 sizes");
    EXPECT_EQ(import_error(at + "dma_map_page: d dma_addr=0 size=5\n"),
              "f.txt:1: dma_map_page: no dir= field");
    EXPECT_EQ(import_error(" a-1 [000] ..... 1.5x: dma_map_page: d dir=TO_DEVICE dma_addr=0 "
                           "size=5\n"),
              "f.txt:1: timestamp: '5x' is not a decimal number");
    EXPECT_EQ(import_error(at + "dma_map_page: d dir=TO_DEVICE dma_addr=0 size=5\n" +
                           " a-1 [000] ..... 0.900000: dma_map_page: d dir=TO_DEVICE dma_addr=0 "
                           "size=5\n"),
              "f.txt:2: timestamp: goes back before the first mapping event");
    EXPECT_EQ(import_error("# only comments\n"),
              "f.txt: no dma:dma_map_sg or dma:dma_map_page event with dir=TO_DEVICE or "
              "FROM_DEVICE");
}

TEST(TraceImport, TimestampPast64BitsOfNanosecondsIsRefusedNotWrapped) {
    // 18,446,744,074 s x 10^9 is past 2^64 ns; it once wrapped to 0.29 s.
    EXPECT_EQ(import_error(" a-1 [000] ..... 18446744074.000000: dma_map_page: d dir=TO_DEVICE "
                           "dma_addr=0 size=5\n"),
              "f.txt:1: timestamp: '18446744074.000000' seconds do not fit 64 bits of "
              "nanoseconds");
}

TEST(TraceImport, GapLongerThanAReplayTakesIsRefusedWithItsLine) {
    // kTraceMaxAtNs = 2^64 / 4096 ns ~ 4,503,599.6 s (~52 days): a request
    // 4,503,600 s after the first is one the replay would refuse.
    const std::string event = ": dma_map_page: d dir=TO_DEVICE dma_addr=0 size=5\n";
    const std::string error = import_error(" a-1 [000] ..... 1.000000" + event +
                                           " a-1 [000] ..... 4503601.000000" + event);
    EXPECT_EQ(error.rfind("f.txt:2: timestamp: 4503600000000000 ns after the first mapping event: "
                          "a replay takes at most 4503599627370495 ns",
                          0),
              0u)
        << error;
    // The last gap the replay takes imports, and reads back as a trace.
    const Imported im =
        import(" a-1 [000] ..... 0.000000" + event + " a-1 [000] ..... 4503599.627370495" + event);
    std::ostringstream out;
    tb::write_request_trace(out, im.requests);
    EXPECT_EQ(parse(out.str()).back().at_ns, tb::kTraceMaxAtNs);
}

TEST(TraceImport, FieldGivenTwiceInOneEventIsRefused) {
    const std::string at = " a-1 [000] ..... 1.000000: ";
    EXPECT_EQ(
        import_error(at + "dma_map_page: d dir=TO_DEVICE dir=FROM_DEVICE dma_addr=0 size=5\n"),
        "f.txt:1: dir=FROM_DEVICE: dir= appears twice in this event");
    EXPECT_EQ(import_error(at + "dma_map_page: d dir=TO_DEVICE dma_addr=0 size=5 size=9\n"),
              "f.txt:1: size=9: size= appears twice in this event");
}

}  // namespace
}  // namespace dmasim::sim
