// posted_writes.h - the bytes of status write-backs booked ahead of
// simulated time, held until simulated time reaches the cycle their write
// completes. The engine plans a write-back (and books its bus time) up to
// a quantum early; software reading the descriptor must not see DONE
// before that cycle, so its bytes wait here with their cycle and reach
// dmasim's memory when a register read or the engine's next step gets
// there (DmaChannel::settle()). One queue per channel, in cycle order: no
// SystemC event per write.
#pragma once

#include <dmasim/hw/dma_hw.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "fifo.h"

namespace dmasim::model {

class PostedWrites {
public:
    /// Holds `bytes` from `from` for host byte `to`; it gets its cycle
    /// from the next stamp().
    void add(uint8_t* to, const uint8_t* from, uint64_t bytes) {
        for (uint64_t off = 0; off < bytes; off += kPieceBytes) {
            Write w{0, to + off, static_cast<uint32_t>(std::min(kPieceBytes, bytes - off)), {}};
            std::memcpy(w.data, from + off, w.bytes);
            writes_.push_back(w);
        }
    }
    /// The writes added since the last stamp() are visible from cycle
    /// `at`, which is no earlier than any stamp before it.
    void stamp(uint64_t at) {
        for (; stamped_ < writes_.size(); ++stamped_) writes_.at(stamped_).at = at;
    }
    /// Stores every write visible at or before cycle `now`.
    void apply(uint64_t now) {
        for (; stamped_ > 0 && writes_.front().at <= now; --stamped_, writes_.pop_front())
            std::memcpy(writes_.front().to, writes_.front().data, writes_.front().bytes);
    }
    /// Forgets the writes not yet stored (ABORT drops them, START begins afresh).
    void clear() {
        writes_.clear();
        stamped_ = 0;
    }

private:
    /// One write-back's largest piece: its APP words (a status and
    /// bytes_done take 8 bytes).
    static constexpr uint64_t kPieceBytes = 4 * DMA_HW_MAX_APP_WORDS;
    struct Write {
        uint64_t at;  ///< cycle it becomes visible
        uint8_t* to;
        uint32_t bytes;
        uint8_t data[kPieceBytes];
    };
    Fifo<Write> writes_{64};
    size_t stamped_ = 0;  ///< writes from the front that have their cycle
};

}  // namespace dmasim::model
