// The fast path for the computation model hf-float32.
//
// What the model is (reference/rotary_reference.hpp defines it): inv_freq_r,
// every operation of the frequency rule correctly rounded to float32; the
// position p in float32 (exact below 2^24); the angle t = RN32(p inv_freq_r);
// the entry RN_out(RN32(a) T(t)), T cos or sin of the binary angle t.
//
// Why this is within 0.5 + 2^-20 ULP of it (float32, float16, bfloat16)
// ======================================================================
// 1. inv_freq_r is reproduced exactly. +, -, *, / of float32 values are
//    computed in double and rounded once to float32: exact for float32
//    operands, since 53 >= 2 x 24 + 2 makes the double rounding innocuous
//    (Figueroa, "When is double rounding innocuous?", 1995). pow(x, y) is
//    dd_exp(y dd_log(x)), within 2^-99 relative (rotary_fast.cpp, step 1);
//    it is rounded to float32 only when no float32 midpoint lies within
//    2^-96 |x^y| of it (3 bits of margin); otherwise std::logic_error, which
//    no preset reaches (reference/tests/rotary_model_fast_test.cpp compares
//    every preset's inv_freq with the reference's, bit for bit).
// 2. t is reproduced exactly: p and inv_freq_r have 24 bits each, so their
//    product is exact in double and rounds once to float32.
// 3. T(t): t = m 2^k with m an integer below 2^24, so T(t) = T(2 pi m f) with
//    f = 2^k / (2 pi) in turns, which sincos_turns evaluates for the
//    integer "position" m (|m| < 2^24, as it requires) from f as a
//    double-double (inv_two_pi to 2^-107, scaled exactly by 2^k): relative
//    error eps below 2^-52 + 2^-77.9 / rho, rho the distance in turns from
//    t / (2 pi) to the nearest zero of T (sincos_turns.hpp).
// 4. RN32(a) T: the double product v = a32 c is formed exactly (two_prod)
//    and rounded once to the output format (round_pair.hpp; with a32 = 1, a
//    conversion to the format, rotary_row_store.hpp),
//    so the entry is within 0.5 ULP of v, and v within eps |a32 T| of the
//    model's a32 T. In ULPs of a float32 binade, |x| < 2^24 ULP, so the
//    error is below 0.5 + 2^24 eps ULP: 0.5 + 2^-20 ULP when eps <= 2^-44,
//    i.e. rho >= 2^-33.9 turns (2^-77.9 / 2^-33.9 = 2^-44, plus 2^-52).
//    That premise is not assumed: the test checks rho of every entry it
//    compares, among them p = 1 (each preset's smallest angles) and rows up
//    to 2^20. float16 and bfloat16 ULPs are wider than float32's, so the same
//    eps is a smaller share of them and 0.5 + 2^-20 of their ULP holds too.
//
// Steps 2 to 4 run in rotary_model_rows.cpp, compiled once per instruction-set
// variant and reached through rotary_kernels(); the rest runs once per cache.
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "pecheck/double_double_math.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_frequency.hpp"
#include "rotary_kernels.hpp"

namespace pecheck {

namespace {

// pow(x, y) in double-double, decided in float32 (step 1 above).
double float32_pow(double x, double y) {
  if (y == 0.0) return 1.0;
  const DoubleDouble v = dd_exp(dd_mul(DoubleDouble{y, 0.0}, dd_log(DoubleDouble{x, 0.0})));
  const float r = static_cast<float>(v.hi);
  if (static_cast<double>(r) == v.hi && v.lo == 0.0) return r;
  // The float32 midpoint nearest v.hi, on its side of r (a double, exact).
  const float toward =
      std::nextafter(r, v.hi > r ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
  const double midpoint = 0.5 * (static_cast<double>(r) + static_cast<double>(toward));
  // v - midpoint: v.hi - midpoint is exact (both within a float32 ULP).
  const double distance = std::fabs((v.hi - midpoint) + v.lo);
  if (distance <= std::ldexp(std::fabs(v.hi), -96)) {
    throw std::logic_error("fast hf-float32: pow(" + std::to_string(x) + ", " + std::to_string(y) +
                           ") is too close to a float32 midpoint to round from double-double (this is a bug)");
  }
  // v lies strictly on one side of every midpoint, as v.hi does (distance
  // exceeds |v.lo| there), so v.hi's rounding is v's.
  return r;
}

// The arithmetic of rotary_frequency.hpp on float32 values, every operation
// correctly rounded to float32 (step 1).
struct Float32Arithmetic {
  using Value = double;
  static Value round(double x) { return static_cast<float>(x); }
  static Value number(double x) { return round(x); }
  static Value integer(std::int64_t n) { return round(static_cast<double>(n)); }
  static Value add(Value x, Value y) { return round(x + y); }
  static Value sub(Value x, Value y) { return round(x - y); }
  static Value mul(Value x, Value y) { return round(x * y); }
  static Value div(Value x, Value y) { return round(x / y); }
  static Value pow(Value x, Value y) { return float32_pow(x, y); }
  static Value two_pi() { return round(2.0 * std::numbers::pi); }  // Python's 2 * math.pi, then float32
  static bool less(Value x, Value y) { return x < y; }
  static bool greater(Value x, Value y) { return x > y; }
};

// Below this many entries a worker thread costs more than it saves.
constexpr std::int64_t minimum_entries_per_worker = 1 << 14;

bool is_hf_float32(const ComputationModel& model) {
  return model.inv_freq == FormatId::float32 && model.position == FormatId::float32 &&
         model.angle == FormatId::float32 && model.inv_freq_rule == InvFreqRule::stepwise;
}

}  // namespace

std::vector<double> hf_float32_inv_freq(const RotaryConvention& convention) {
  check_rotary_convention(convention);
  const RotaryDerived derived = rotary_derived(convention);
  std::vector<double> inv_freq(static_cast<std::size_t>(derived.frequencies));
  Float32Arithmetic arithmetic;
  for (std::int64_t i = 0; i < derived.frequencies; ++i) {
    inv_freq[static_cast<std::size_t>(i)] = rotary_inv_freq(convention, derived, i, arithmetic);
  }
  return inv_freq;
}

RotaryCache fast_rotary_model_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                    const ComputationModel& model) {
  return fast_rotary_model_cache(convention, request, model, rotary_kernels());
}

RotaryCache fast_rotary_model_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                    const ComputationModel& model, const RotaryKernels& kernels) {
  if (!is_hf_float32(model)) {
    throw ConventionError("--computation " + model.name +
                          ": the fast path computes hf-float32 only; use --impl reference for this model");
  }
  check_rotary_request(convention, request);
  if (request.format == FormatId::float64) {
    throw ConventionError(
        "--dtype float64 with --computation hf-float32 --impl fast: the fast path's bound holds "
        "for float32, float16 and bfloat16; use --impl reference for float64");
  }
  const RotaryDerived derived = rotary_derived(convention);
  const std::int64_t n = derived.frequencies;
  const std::vector<double> inv_freq = hf_float32_inv_freq(convention);
  const double factor = Float32Arithmetic::round(derived.attention_factor);
  const std::int64_t cols = rotary_columns(convention);
  // Every entry is written by the kernel (it stores every column of a row).
  RotaryCache cache{make_uninitialized_table(request.rows, cols, request.format),
                    make_uninitialized_table(request.rows, cols, request.format)};
  // Rows are independent: split across threads, the bits do not depend on how.
  const int workers = worker_count(0, request.rows * n / minimum_entries_per_worker);
  kernels.fill_hf_float32(convention, inv_freq, factor, request.first_position, workers, cache);  // steps 2 to 4
  return cache;
}

}  // namespace pecheck
