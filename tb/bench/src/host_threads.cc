// host_threads.cc - see host_threads.h.
#include "host_threads.h"

#include <sched.h>

#include <system_error>
#include <thread>
#include <vector>

namespace dmasim::tb {

unsigned host_cores() {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return 1;
    const int count = CPU_COUNT(&allowed);
    return count > 0 ? static_cast<unsigned>(count) : 1;
}

void run_in_parallel(size_t parts, const std::function<void(size_t part)>& work) {
    std::vector<std::thread> helpers;
    helpers.reserve(parts > 0 ? parts - 1 : 0);
    for (size_t part = 1; part < parts; ++part) {
        try {
            helpers.emplace_back(work, part);
        } catch (const std::system_error&) {
            work(part);  // no thread to be had (a process limit): do it here
        }
    }
    if (parts > 0) work(0);
    for (std::thread& t : helpers) t.join();
}

}  // namespace dmasim::tb
