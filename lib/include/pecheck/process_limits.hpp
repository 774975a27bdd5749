// What a pecheck process does about its own limits, set up once at start.
#pragma once

namespace pecheck {

// `pecheck bench` times pecheck's own commands as child processes and needs
// each one's peak resident memory. getrusage of a child cannot give it: a
// child started by vfork or fork inherits the parent's high-water mark, so
// the bench's own workloads would be counted. The child reports its own
// instead: with PECHECK_PEAK_RSS_FILE set, pecheck writes its VmHWM (the
// peak resident set of its own address space, /proc/self/status) in bytes to
// that file when it exits. Nothing happens when the variable is unset.
void report_peak_memory_at_exit_if_asked();

// Memory set aside at start for the destructors that run after an
// allocation failed (a new handler gives it back on the first failure), so
// that std::bad_alloc ends in one error line, not in std::terminate.
void reserve_memory_for_unwinding();

}  // namespace pecheck
