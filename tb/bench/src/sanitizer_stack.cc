// sanitizer_stack.cc - see sanitizer_stack.h.
#include "sanitizer_stack.h"

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace dmasim::tb {

void restore_sanitizer_stack_bounds() {
#if defined(__SANITIZE_ADDRESS__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* bottom = nullptr;
    size_t size = 0;
    const bool known = pthread_attr_getstack(&attr, &bottom, &size) == 0;
    pthread_attr_destroy(&attr);
    if (!known) return;
    // A "switch" from this stack to itself: ASan takes the bounds given.
    __sanitizer_start_switch_fiber(nullptr, bottom, size);
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

}  // namespace dmasim::tb
