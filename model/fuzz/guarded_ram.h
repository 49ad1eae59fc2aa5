// guarded_ram.h - simulated RAM between two inaccessible guard regions,
// so any host access the model makes past either end of RAM faults at
// once instead of silently touching a neighbouring mapping.
#pragma once

#include <cstdint>

namespace dmasim::model::fuzz {

class GuardedRam {
public:
    /// `bytes` of RAM (a multiple of the page size) with `guard` bytes of
    /// PROT_NONE on each side.
    GuardedRam(uint64_t bytes, uint64_t guard);
    ~GuardedRam();
    GuardedRam(const GuardedRam&) = delete;
    GuardedRam& operator=(const GuardedRam&) = delete;

    uint8_t* base() const { return base_; }
    uint64_t size() const { return size_; }

private:
    uint8_t* map_;
    uint64_t size_, guard_;
    uint8_t* base_;
};

}  // namespace dmasim::model::fuzz
