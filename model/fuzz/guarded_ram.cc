// guarded_ram.cc - one mapping: guard, RAM, guard.
#include "guarded_ram.h"

#include <sys/mman.h>

#include <stdexcept>

namespace dmasim::model::fuzz {

GuardedRam::GuardedRam(uint64_t bytes, uint64_t guard) : size_(bytes), guard_(guard) {
    void* p = mmap(nullptr, bytes + 2 * guard, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap of guarded RAM failed");
    map_ = static_cast<uint8_t*>(p);
    base_ = map_ + guard;
    if (mprotect(base_, bytes, PROT_READ | PROT_WRITE) != 0)
        throw std::runtime_error("mprotect of guarded RAM failed");
}

GuardedRam::~GuardedRam() { munmap(map_, size_ + 2 * guard_); }

}  // namespace dmasim::model::fuzz
