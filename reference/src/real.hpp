// The multiprecision number of the oracle: Boost.Multiprecision's MPFR
// backend with precision chosen at run time.
//
// The hot path calls MPFR directly on the Boost-owned variable (raw()) so it
// can choose the precision and the rounding direction of every operation and
// never allocates per entry; Boost owns the memory and gives the tests a
// readable independent evaluation.
#pragma once

#include <mpfr.h>

#include <boost/multiprecision/mpfr.hpp>

namespace pecheck::reference {

using Real = boost::multiprecision::mpfr_float;

inline mpfr_ptr raw(Real& x) { return x.backend().data(); }
inline mpfr_srcptr raw(const Real& x) { return x.backend().data(); }

// MPFR keeps caches of constants per thread (pi, log 2, exp's tables) that
// only the thread itself can release: a worker thread that ends without
// mpfr_free_cache2 leaks them (LeakSanitizer under scripts/sanitize). The
// first variable a thread makes registers their release at the thread's exit.
struct MpfrThreadCaches {
  MpfrThreadCaches() = default;
  MpfrThreadCaches(const MpfrThreadCaches&) = delete;
  MpfrThreadCaches& operator=(const MpfrThreadCaches&) = delete;
  ~MpfrThreadCaches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};
inline void release_mpfr_caches_at_thread_exit() {
  thread_local const MpfrThreadCaches caches;
  (void)caches;
}

// A variable of exactly `bits` bits of precision, set to zero.
inline Real make_real(mpfr_prec_t bits) {
  release_mpfr_caches_at_thread_exit();
  Real x;
  mpfr_set_prec(raw(x), bits);
  mpfr_set_zero(raw(x), 1);
  return x;
}

}  // namespace pecheck::reference
