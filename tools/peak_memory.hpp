// `pecheck bench` times pecheck's own commands as child processes and needs
// each one's peak resident memory. getrusage of a child cannot give it: a
// child started by vfork or fork inherits the parent's high-water mark, so
// the bench's own workloads would be counted. The child reports its own
// instead: with PECHECK_PEAK_RSS_FILE set, pecheck writes its VmHWM (the
// peak resident set of its own address space, /proc/self/status) in bytes to
// that file when it exits. Nothing happens when the variable is unset.
#pragma once

namespace pecheck::tools {

void report_peak_memory_at_exit_if_asked();

}  // namespace pecheck::tools
