// Which instruction set the measured kernels were compiled for: the fast
// path, the reference and the bench are compiled with the same flags
// (pecheck_native), so the bench's own predefined macros tell. One variant
// per build: pecheck does not choose a variant at run time (yet).
#pragma once

#include <string>

namespace pecheck::bench {

// "x86-64 with AVX-512 (PECHECK_NATIVE)", "x86-64 with AVX2", "x86-64
// baseline (SSE2)", or the architecture's name elsewhere.
std::string build_variant();

}  // namespace pecheck::bench
