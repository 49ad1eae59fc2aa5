// bare_sg_loop.cc - one SC_THREAD walks chained descriptor pages in a
// memory target and copies every segment through it: one b_transport per
// descriptor read and per 256 B burst (a read burst into its buffer and a
// write burst out of it, as a mem_to_mem engine moves bytes), timed with a
// tlm_quantumkeeper, the target copying with memcpy. It is what a
// hand-written loosely-timed model of the same transfer costs, so a dmasim
// run is judged against it rather than against an absolute figure.
#include "bare_sg_loop.h"

#include <sys/mman.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstring>
#include <stdexcept>
#include <systemc>
#include <tlm>

namespace dmasim::bench {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint32_t kBurstBytes = 256;
constexpr uint64_t kChainFlag = 1;

/// A chained-pages slot: a segment, or (flags & kChainFlag) the next page.
struct Slot {
    uint64_t src, dst, length, flags;
};
constexpr uint64_t kSlotsPerPage = kPage / sizeof(Slot);

/// Flat memory, backed only where touched, answering every access after a
/// fixed latency.
struct LoopMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<LoopMemory> socket{"socket"};
    uint8_t* bytes;
    uint64_t size;

    LoopMemory(sc_core::sc_module_name name, uint64_t size_bytes)
        : sc_module(name), size(size_bytes) {
        void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) throw std::runtime_error("bare loop: cannot map its memory");
        bytes = static_cast<uint8_t*>(p);
        socket.register_b_transport(this, &LoopMemory::b_transport);
    }
    ~LoopMemory() override { munmap(bytes, size); }

    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        uint8_t* at = bytes + t.get_address();
        if (t.is_read())
            std::memcpy(t.get_data_ptr(), at, t.get_data_length());
        else
            std::memcpy(at, t.get_data_ptr(), t.get_data_length());
        delay += sc_core::sc_time(10 + t.get_data_length() / 16, sc_core::SC_NS);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct LoopEngine : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<LoopEngine> socket{"socket"};
    uint64_t first_page;
    uint64_t descriptors = 0;

    SC_HAS_PROCESS(LoopEngine);
    LoopEngine(sc_core::sc_module_name name, uint64_t chain_start)
        : sc_module(name), first_page(chain_start) {
        SC_THREAD(walk);
    }

    void walk() {
        tlm_utils::tlm_quantumkeeper keeper;
        keeper.reset();
        tlm::tlm_generic_payload t;
        uint8_t buffer[kBurstBytes];
        auto access = [&](tlm::tlm_command command, uint64_t address, void* data, uint32_t length) {
            sc_core::sc_time delay = keeper.get_local_time();
            t.set_command(command);
            t.set_address(address);
            t.set_data_ptr(static_cast<uint8_t*>(data));
            t.set_data_length(length);
            t.set_streaming_width(length);
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            socket->b_transport(t, delay);
            if (t.is_response_error()) throw std::runtime_error("bare loop: bus error");
            keeper.set(delay);
            if (keeper.need_sync()) keeper.sync();
        };
        Slot slot{};
        for (uint64_t at = first_page;; at += sizeof slot) {
            access(tlm::TLM_READ_COMMAND, at, &slot, sizeof slot);
            if (slot.flags & kChainFlag) {
                if (slot.src == 0) break;  // end of the chain
                at = slot.src - sizeof slot;
                continue;
            }
            for (uint64_t done = 0; done < slot.length; done += kBurstBytes) {
                const auto n =
                    static_cast<uint32_t>(std::min<uint64_t>(kBurstBytes, slot.length - done));
                access(tlm::TLM_READ_COMMAND, slot.src + done, buffer, n);
                access(tlm::TLM_WRITE_COMMAND, slot.dst + done, buffer, n);
            }
            ++descriptors;
        }
        keeper.sync();
    }
};

/// Lays out [descriptor pages][sources][destinations] and writes the chain
/// host-side, as a driver would; returns the first page's address.
uint64_t write_chain(uint8_t* memory, uint64_t entries, uint32_t segment_bytes) {
    const uint64_t per_page = kSlotsPerPage - 1;
    const uint64_t pages = (entries + per_page - 1) / per_page;
    const uint64_t sources = pages * kPage;
    const uint64_t destinations = sources + entries * segment_bytes;
    auto* slots = reinterpret_cast<Slot*>(memory);
    for (uint64_t page = 0; page < pages; ++page) {
        Slot* in_page = slots + page * kSlotsPerPage;
        const uint64_t first = page * per_page;
        const uint64_t count = std::min(per_page, entries - first);
        for (uint64_t i = 0; i < count; ++i)
            in_page[i] = {sources + (first + i) * segment_bytes,
                          destinations + (first + i) * segment_bytes, segment_bytes, 0};
        const bool last = page + 1 == pages;
        in_page[count] = {last ? 0 : (page + 1) * kPage, 0, 0, kChainFlag};
    }
    return 0;
}

}  // namespace

uint64_t run_bare_sg_loop(uint64_t entries, uint32_t segment_bytes) {
    const uint64_t pages = (entries + kSlotsPerPage - 2) / (kSlotsPerPage - 1);
    LoopMemory memory("memory", pages * kPage + 2 * entries * segment_bytes);
    LoopEngine engine("engine", write_chain(memory.bytes, entries, segment_bytes));
    engine.socket.bind(memory.socket);
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_core::sc_time(1, sc_core::SC_US));
    sc_core::sc_start();
    return engine.descriptors;
}

}  // namespace dmasim::bench
