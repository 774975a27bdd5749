// The fast path for rotary caches.
//
// Why it meets the additive tables' budgets (accuracy/src/budgets.cpp)
// =======================================================================
// An entry is a * T(p w) with T cos or sin, w = inv_freq_i, a the attention
// factor (a double, rotary_derived()).
//
// 1. The frequency. rotary_inv_freq (rotary_frequency.hpp) is evaluated in
//    double-double: pow(x, y) = exp(y ln x) with dd_log's absolute error
//    2^-102 times |y| <= 1 plus |y ln x| 2^-104 (|ln base| < 16 for every
//    base below 10^7), so each power is within about 2^-99 relative; each
//    dd division, product and sum adds at most 2^-103 (Joldes, Muller and
//    Popescu, double_double_math.hpp), and no step of any rule cancels more
//    than a factor 4 (yarn and llama3 blend two positive terms; llama3's
//    smooth factor enters as (1 - s) w / factor + s w, a convex combination
//    scaled by 1 / factor), so w is within 2^-96 relative. Times 1 / (2 pi)
//    in turns: f within 2^-95.9 |f|, which is what sincos_turns.cpp's step 1
//    assumes at 2^-100; the difference is a factor 2^4.1 on its term that
//    grows near the zeros of sin and cos (2^-78.55 becomes 2^-74.45 turns).
// 2. The kernel (sincos_turns.cpp) then gives T(2 pi p f) with relative error
//    below 2^-52 + 2^-73.8 / rho, rho the distance in turns to the nearest
//    zero: 2 float64 ULP away from the zeros, as for the additive tables.
// 3. a != 1: v a is formed exactly as a double-double (two_prod), then
//    rounded once to the target format from that pair: for float32, float16
//    and bfloat16 the value carries the kernel's relative error only, so
//    budgets.cpp's argument (one rounding of a double within 2 float64 ulps:
//    0.5 + 2^-20 ULP in float32, 0.5 + 2^-40 in float16, 0.5 + 2^-43 in
//    bfloat16) holds unchanged. float64 output rounds v a once more: relative
//    error below 2^-52 + 2^-53, i.e. below 3 ULP; with a = 1 (every preset
//    but yarn and phi3-longrope) it is the kernel's 2 ULP.
// 4. float32 rotates instead (rotary_rotated_fill.hpp): each row is an anchor row
//    of the kernel rotated by a stored step, RotatedPairRows of
//    rotated_rows.hpp, the additive tables' float32 values. Its derivation
//    (rotated_rows.cpp) carries over with step 1's frequency: the kernel's
//    absolute error term is 2 pi 2^-74.45 = 2^-71.8 rather than 2^-75.9, so
//    a pair's error vector is eps <= 2^-52 + sqrt(2) 2^-71.8 = 2^-52 +
//    2^-71.3, and a rotated value is off by at most
//      E <= 2 eps (1 + eps) + 2^-51.5 (1 + 2^-50) <= 2^-51 + 2^-51.5 + 2^-70.2
//        <= 2^-50.2,
//    the same E as there. A rotated value is kept only when |sin cos| >=
//    2^-14, so |v| >= 2^-14 (1 - 2^-35), and rounding v (or the exact pair
//    v a, which scales v and its error alike and stays a normal float32) once
//    errs by at most 0.5 + 2^(24 - 50.2 + 14) (1 + 2^-35) = 0.5 + 2^-12.2
//    ULP. The other values are the kernel's, with step 2's bound. So every
//    float32 entry stays within the 1 ULP budget (0.5 + 2^-12.2 away from the
//    zeros of sin and cos). float16 and bfloat16 keep the kernel, within
//    0.5 + 2^-40 and 0.5 + 2^-43 ULP (step 2). The rotation's 0.5 + 2^-25.2
//    and 0.5 + 2^-28.2 would be within their budgets too (budgets.cpp, set
//    for the additive tables' rotated rows), so rotating them is allowed and
//    left undone. float64 keeps the kernel as the additive tables do.
//
// Steps 2 to 4 run in the rotary kernels (rotary_kernels.cpp), compiled once
// per instruction-set variant and reached through rotary_kernels(); step 1
// runs once per cache.
#include <string>
#include <vector>

#include "fast_constants.hpp"
#include "frequency_turns.hpp"
#include "pecheck/double_double_math.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_frequency.hpp"
#include "rotary_kernels.hpp"
#include "row_blocks.hpp"
#include "sincos_turns.hpp"

namespace pecheck {

namespace {

DoubleDouble dd_divide(DoubleDouble a, DoubleDouble b) {
  // Long division, three quotient digits: each remainder is exact to the
  // dd product's 7u^2, so the quotient is within about 2^-103 relative.
  const double q1 = a.hi / b.hi;
  const DoubleDouble r1 = dd_sub(a, dd_mul(b, q1));
  const double q2 = r1.hi / b.hi;
  const DoubleDouble r2 = dd_sub(r1, dd_mul(b, q2));
  const double q3 = r2.hi / b.hi;
  return dd_add(quick_two_sum(q1, q2), q3);
}

// The arithmetic rotary_frequency.hpp asks for, in double-double.
struct DoubleDoubleArithmetic {
  using Value = DoubleDouble;
  static Value number(double x) { return {x, 0.0}; }
  static Value integer(std::int64_t n) { return {static_cast<double>(n), 0.0}; }
  static Value add(Value x, Value y) { return dd_add(x, y); }
  static Value sub(Value x, Value y) { return dd_sub(x, y); }
  static Value mul(Value x, Value y) { return dd_mul(x, y); }
  static Value div(Value x, Value y) { return dd_divide(x, y); }
  static Value pow(Value x, Value y) {
    if (y.hi == 0.0 && y.lo == 0.0) return {1.0, 0.0};
    return dd_exp(dd_mul(y, dd_log(x)));
  }
  static Value two_pi() {
    // 2 pi = 1 / inv_two_pi to the double-double's precision.
    return dd_divide(DoubleDouble{1.0, 0.0},
                     DoubleDouble{fast_constants::inv_two_pi_hi, fast_constants::inv_two_pi_lo});
  }
  static bool less(Value x, Value y) { return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo); }
  static bool greater(Value x, Value y) { return less(y, x); }
};

}  // namespace

void check_rotary_request(const RotaryConvention& convention, const RotaryCacheRequest& request) {
  check_rotary_convention(convention);
  check_rotary_results(convention);
  if (request.rows < 0) throw ConventionError("--rows " + std::to_string(request.rows) + " is negative");
  // Compared without forming first_position + rows: both come from the
  // command line and their sum may pass INT64_MAX.
  if (request.first_position < 0 || request.first_position > max_exact_position - request.rows) {
    throw ConventionError("positions from " + std::to_string(request.first_position) + " (" +
                          std::to_string(request.rows) +
                          " rows) leave [0, 2^24): expected positions float32 holds exactly");
  }
}

RotaryTurns rotary_turns(const RotaryConvention& convention) {
  const RotaryDerived derived = rotary_derived(convention);
  const std::int64_t n = derived.frequencies;
  RotaryTurns turns;
  turns.padded = (n + sincos_lanes - 1) / sincos_lanes * sincos_lanes;
  turns.f1.assign(static_cast<std::size_t>(turns.padded), 0.0);
  turns.f2 = turns.f1;
  turns.f3 = turns.f1;
  DoubleDoubleArithmetic arithmetic;
  for (std::int64_t i = 0; i < n; ++i) {
    const DoubleDouble w = rotary_inv_freq(convention, derived, i, arithmetic);
    const DoubleDouble f = dd_mul(w, DoubleDouble{fast_constants::inv_two_pi_hi, fast_constants::inv_two_pi_lo});
    const TurnsSplit split = split_for_positions(f);
    turns.f1[static_cast<std::size_t>(i)] = split.f1;
    turns.f2[static_cast<std::size_t>(i)] = split.f2;
    turns.f3[static_cast<std::size_t>(i)] = split.f3;
  }
  return turns;
}

RotaryCache fast_rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) {
  RotaryCache cache;
  fast_rotary_cache_into(convention, request, cache);
  return cache;
}

void fast_rotary_cache_into(const RotaryConvention& convention, const RotaryCacheRequest& request,
                            RotaryCache& cache) {
  fast_rotary_cache_into(convention, request, cache, rotary_kernels());
}

void fast_rotary_cache_into(const RotaryConvention& convention, const RotaryCacheRequest& request, RotaryCache& cache,
                            const RotaryKernels& kernels) {
  check_rotary_request(convention, request);
  const RotaryDerived derived = rotary_derived(convention);
  const RotaryTurns turns = rotary_turns(convention);
  const std::int64_t cols = rotary_columns(convention);
  for (Table* table : {&cache.cos, &cache.sin}) {
    if (table->rows != request.rows || table->cols != cols || table->format != request.format) {
      *table = make_uninitialized_table(request.rows, cols, request.format);
    }
  }
  // Rows are independent: split across threads, the bits do not depend on how.
  const int workers = thread_count(0, request.rows * cols);
  kernels.fill_cache(convention, turns.view(), derived.attention_factor, request.first_position, workers, cache);
}

}  // namespace pecheck
