// Which instruction set the measured kernels ran with: the variant chosen at
// run time (pecheck/isa.hpp; the baseline alone in a native build, compiled
// for the build machine), and what the rest of pecheck was compiled for,
// told by the bench's own predefined macros (the bench is compiled with the
// same flags as the baseline, pecheck_native).
#pragma once

#include <string>

namespace pecheck::bench {

// "x86_64_v4 (x86-64-v4: AVX-512 F, BW, CD, DQ, VL), the best of 3 in this
// build that this CPU runs; the rest of pecheck compiled for x86-64 baseline
// (SSE2)". Throws isa::VariantError for a bad PECHECK_ISA.
std::string build_variant();

}  // namespace pecheck::bench
