#include "pecheck/bench/build_variant.hpp"

#include "pecheck/isa.hpp"

namespace pecheck::bench {

std::string build_variant() {
#if defined(__x86_64__)
#if defined(__AVX512F__)
  std::string isa = "x86-64 with AVX-512";
#elif defined(__AVX2__) && defined(__FMA__)
  std::string isa = "x86-64 with AVX2 and FMA";
#elif defined(__AVX__)
  std::string isa = "x86-64 with AVX";
#else
  std::string isa = "x86-64 baseline (SSE2)";
#endif
#elif defined(__aarch64__)
  std::string isa = "AArch64";
#else
  std::string isa = "this architecture's baseline";
#endif
#if defined(PECHECK_NATIVE_BUILD)
  isa += " (PECHECK_NATIVE: the build machine's CPU)";
#endif
  // The kernels that ran: the variant chosen at run time (pecheck/isa.hpp).
  return isa::selected_description() + "; the rest of pecheck compiled for " + isa;
}

}  // namespace pecheck::bench
