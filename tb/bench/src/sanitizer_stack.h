// sanitizer_stack.h - gives AddressSanitizer back the bounds of the
// thread's own stack after SystemC's coroutines ran on it.
#pragma once

namespace dmasim::tb {

/// Tells AddressSanitizer (if built in) the calling thread's stack again.
/// SystemC's QuickThreads package reports each switch back to the main
/// coroutine as a switch to an empty stack (bottom 0, size 0), so after
/// sc_start() AddressSanitizer believes the stack top is 0: the next
/// exception thrown there cannot unpoison the frames it unwinds, and a
/// false stack-buffer-overflow follows. Call it after sc_start() returns,
/// before anything on this stack may throw. Does nothing without ASan.
void restore_sanitizer_stack_bounds();

}  // namespace dmasim::tb
