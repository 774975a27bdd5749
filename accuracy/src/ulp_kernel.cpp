#include "pecheck/accuracy/ulp_kernel.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "pecheck/isa.hpp"
#include "ulp_kernels.hpp"

namespace pecheck::accuracy {

namespace {

// Eight doubles, and their bits, as GCC's vector extensions hold them: one
// register where the target has 512-bit vectors, four pairs where it has
// SSE2 only; every operation is the scalar one lane by lane.
using Doubles = double __attribute__((vector_size(64)));
using Floats = float __attribute__((vector_size(32)));
using Bits = std::uint64_t __attribute__((vector_size(64)));
using Lanes = std::int64_t __attribute__((vector_size(64)));  // masks: -1 true, 0 false
constexpr std::size_t width = 8;
constexpr std::uint64_t magnitude_bits = 0x7fffffffffffffffULL;

inline double hi_of(const DoubleDouble& x) { return x.hi; }
inline double lo_of(const DoubleDouble& x) { return x.lo; }
inline double hi_of(double x) { return x; }
inline double lo_of(double) { return 0.0; }

// Helpers take and give vectors by reference: a vector of 64 bytes passed or
// returned by value takes a calling convention that depends on the target's
// vector width (GCC warns, -Wpsabi, on a target without 512-bit vectors).
inline void load_values(const float* v, Doubles& out) {
  Floats f;
  std::memcpy(&f, v, sizeof f);
  out = __builtin_convertvector(f, Doubles);
}
inline void load_values(const double* v, Doubles& out) { std::memcpy(&out, v, sizeof out); }
inline void load_exact(const double* e, Doubles& hi, Doubles& lo) {
  std::memcpy(&hi, e, sizeof hi);
  lo = Doubles{};
}
inline void load_exact(const DoubleDouble* e, Doubles& hi, Doubles& lo) {
  static_assert(sizeof(DoubleDouble) == 2 * sizeof(double));
  Doubles first;
  Doubles second;
  std::memcpy(&first, e, sizeof first);
  std::memcpy(&second, e + width / 2, sizeof second);
  // The even lanes of (first, second) are the his, the odd ones the los
  // (clang spells GCC's __builtin_shuffle with constant indices this way).
#if defined(__clang__)
  hi = __builtin_shufflevector(first, second, 0, 2, 4, 6, 8, 10, 12, 14);
  lo = __builtin_shufflevector(first, second, 1, 3, 5, 7, 9, 11, 13, 15);
#else
  hi = __builtin_shuffle(first, second, Lanes{0, 2, 4, 6, 8, 10, 12, 14});
  lo = __builtin_shuffle(first, second, Lanes{1, 3, 5, 7, 9, 11, 13, 15});
#endif
}

// The common path for a whole row. The ULP is the one of ulp_of: the binade
// 2^e of fl(hi + lo) is its bits masked to the exponent, halved for a power
// of two with a tail of the other sign (lib/src/numbers/ulp.cpp has why),
// floored at the format's smallest normal 2^min_exponent, times 2^(1 - p);
// all exact, since 2^-953 <= ulp <= 2^1000 in the common case. Its inverse
// 2^-k is read off the bits as narrow_rounding does
// (reference/src/double_tier.hpp): 0x7fe0000000000000 - bits(2^k) =
// bits(2^-k) for a normal 2^k with |k| <= 1022. For exact values given as
// plain doubles every lo is zero, so fl(hi + lo) = hi with no tail, and the
// same doubles come without the two_sum.
//
// Written with vector types because GCC 12 left every scalar form of this
// loop that also gathered the totals scalar, and the totals' separate
// passes were most of the accumulator's time. The squares go into eight
// partial sums, lane j taking entries j, j + 8, ... in order and the last
// count % 8 entries going to lane 0, added up 0 to 7: a fixed order, so the
// same row always gives the same bits.
template <bool Store, typename Value, typename Exact>
RowTotals common_errors(const Value* __restrict values, const Exact* __restrict exact, std::size_t count,
                        const Format& format, const std::array<double, row_thresholds>& thresholds,
                        double* __restrict ulps, double* __restrict abs_error, unsigned char* __restrict common) {
  const double min_normal = std::ldexp(1.0, format.min_exponent);
  const double ulp_scale = std::ldexp(1.0, 1 - format.precision);
  constexpr bool plain = std::is_same_v<Exact, double>;
  constexpr double infinity = std::numeric_limits<double>::infinity();
  Doubles squares{};
  Bits max_ulps{};
  Bits max_abs{};
  Bits min_magnitude = Bits{} + std::bit_cast<std::uint64_t>(infinity);
  Lanes common_count{};
  Bits largest_value{};
  std::array<Lanes, row_thresholds> above{};
  // The thresholds in registers: read through a reference, they were loaded
  // again every eight entries (the stores might have changed them, for all GCC knew).
  std::array<Doubles, row_thresholds> threshold;
  for (std::size_t k = 0; k < row_thresholds; ++k) threshold[k] = Doubles{} + thresholds[k];
  // n lanes from entry c (n < 8 only for the row's last entries, padded with
  // zeros, which are not common and add nothing).
  const auto entries = [&](std::size_t c, std::size_t n, Doubles& entry_ulps, Doubles& entry_abs, Lanes& is_common,
                           Bits& value_bits, Bits& magnitude_bits_out) [[gnu::always_inline]] {
    Doubles value{};
    Doubles hi{};
    Doubles lo{};
    if (n == width) {
      load_values(values + c, value);
      load_exact(exact + c, hi, lo);
    } else {
      for (std::size_t j = 0; j < n; ++j) {
        value[j] = static_cast<double>(values[c + j]);
        hi[j] = hi_of(exact[c + j]);
        lo[j] = lo_of(exact[c + j]);
      }
    }
    const Doubles sum = plain ? hi : hi + lo;  // two_sum, written out
    const Doubles bb = sum - hi;
    const Doubles tail = plain ? Doubles{} : (hi - (sum - bb)) + (lo - bb);
    const Doubles magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(hi) & magnitude_bits);
    const Doubles sum_magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(sum) & magnitude_bits);
    const Doubles lo_magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(lo) & magnitude_bits);
    value_bits = reinterpret_cast<Bits>(value) & magnitude_bits;
    const Lanes in_range = (reinterpret_cast<Doubles>(value_bits) <= 0x1.fffffffffffffp1023) &
                           (lo_magnitude <= 0x1.fffffffffffffp1023) & (magnitude >= 0x1p-900) &
                           (magnitude <= 0x1p1000) & (sum_magnitude >= 0x1p-900) & (sum_magnitude <= 0x1p1000);
    is_common = n == width ? in_range : in_range & (Lanes{0, 1, 2, 3, 4, 5, 6, 7} < static_cast<std::int64_t>(n));
    const Doubles binade = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(sum_magnitude) & 0x7ff0000000000000ULL);
    const Lanes below = (tail != 0.0) & ((tail < 0.0) != (sum < 0.0));
    const Doubles lowered = ((sum_magnitude == binade) & below) ? 0.5 * binade : binade;
    const Doubles ulp = (lowered > min_normal ? lowered : Doubles{} + min_normal) * ulp_scale;
    // Outside the common case the ULP may be anything: 1 keeps the bits a double.
    const Doubles ulp_safe = is_common ? ulp : Doubles{} + 1.0;
    const Doubles inverse_ulp = reinterpret_cast<Doubles>(0x7fe0000000000000ULL - reinterpret_cast<Bits>(ulp_safe));
    const Doubles difference = reinterpret_cast<Doubles>(reinterpret_cast<Bits>((value - hi) - lo) & magnitude_bits);
    entry_ulps = is_common ? difference * inverse_ulp : Doubles{};
    entry_abs = is_common ? difference : Doubles{};
    magnitude_bits_out = is_common ? reinterpret_cast<Bits>(magnitude) : Bits{} + std::bit_cast<std::uint64_t>(infinity);
    if constexpr (Store) {
      std::memcpy(ulps + c, &entry_ulps, n * sizeof(double));
      std::memcpy(abs_error + c, &entry_abs, n * sizeof(double));
      for (std::size_t j = 0; j < n; ++j) common[c + j] = is_common[j] != 0 ? 1 : 0;
    }
  };
  // Non-negative doubles order as their bits: the extrema are integer extrema.
  const auto add = [&](const Doubles& entry_ulps, const Doubles& entry_abs, const Lanes& is_common,
                       const Bits& value_bits, const Bits& magnitude) [[gnu::always_inline]] {
    const Bits ulps_bits = reinterpret_cast<Bits>(entry_ulps);
    const Bits abs_bits = reinterpret_cast<Bits>(entry_abs);
    largest_value = value_bits > largest_value ? value_bits : largest_value;
    max_ulps = ulps_bits > max_ulps ? ulps_bits : max_ulps;
    max_abs = abs_bits > max_abs ? abs_bits : max_abs;
    min_magnitude = magnitude < min_magnitude ? magnitude : min_magnitude;
    common_count -= is_common;
    for (std::size_t k = 0; k < row_thresholds; ++k) above[k] -= entry_ulps > threshold[k];
  };
  Doubles entry_ulps;
  Doubles entry_abs;
  Lanes is_common;
  Bits value_bits;
  Bits magnitude;
  std::size_t c = 0;
  for (; c + width <= count; c += width) {
    entries(c, width, entry_ulps, entry_abs, is_common, value_bits, magnitude);
    add(entry_ulps, entry_abs, is_common, value_bits, magnitude);
    squares += entry_ulps * entry_ulps;
  }
  if (c < count) {
    entries(c, count - c, entry_ulps, entry_abs, is_common, value_bits, magnitude);  // the padding counts nothing
    add(entry_ulps, entry_abs, is_common, value_bits, magnitude);
    for (std::size_t j = 0; j < count - c; ++j) squares[0] += entry_ulps[j] * entry_ulps[j];
  }
  RowTotals totals;
  std::uint64_t smallest = std::bit_cast<std::uint64_t>(infinity);
  for (std::size_t j = 0; j < width; ++j) {
    totals.squares += squares[j];
    totals.common += common_count[j];
    totals.max_ulps = std::max(totals.max_ulps, std::bit_cast<double>(max_ulps[j]));
    totals.max_abs_error = std::max(totals.max_abs_error, std::bit_cast<double>(max_abs[j]));
    totals.largest_value_bits = std::max<std::uint64_t>(totals.largest_value_bits, largest_value[j]);
    smallest = std::min<std::uint64_t>(smallest, min_magnitude[j]);
    for (std::size_t k = 0; k < row_thresholds; ++k) totals.above[k] += above[k][j];
  }
  totals.min_exact_magnitude = std::bit_cast<double>(smallest);
  return totals;
}

template <typename Value, typename Exact>
RowTotals row_errors(std::span<const Value> values, std::span<const Exact> exact, const Format& format,
                     const std::array<double, row_thresholds>& thresholds, const RowErrors* store) {
  if (store == nullptr) {
    return common_errors<false>(values.data(), exact.data(), values.size(), format, thresholds, nullptr, nullptr,
                                nullptr);
  }
  return common_errors<true>(values.data(), exact.data(), values.size(), format, thresholds, store->ulps,
                             store->abs_error, store->common);
}

}  // namespace

}  // namespace pecheck::accuracy

// This variant's table (ulp_kernels.hpp): the file is compiled once per
// instruction-set variant (accuracy/CMakeLists.txt).
extern "C" const pecheck::accuracy::UlpKernels PECHECK_ISA_SYMBOL(ulp_kernels) = {
    pecheck::accuracy::row_errors<float, pecheck::DoubleDouble>,
    pecheck::accuracy::row_errors<double, pecheck::DoubleDouble>, pecheck::accuracy::row_errors<float, double>,
    pecheck::accuracy::row_errors<double, double>};
