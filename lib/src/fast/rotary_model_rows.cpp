#include "rotary_model_rows.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "fast_constants.hpp"
#include "frequency_turns.hpp"
#include "pecheck/double_double_math.hpp"
#include "pecheck/parallel_for.hpp"
#include "rotary_row_store.hpp"
#include "sincos_turns.hpp"

namespace pecheck {

namespace {

// 2^k / (2 pi) in turns split for positions (rotary_model_fast.cpp, step 3),
// for every k a float32 angle's m 2^k can have (k from -149 - 24 to 127 -
// 23): split once, looked up per entry. Each is split_for_positions of the
// same double-double as before.
class TurnsSplits {
 public:
  TurnsSplits() {
    for (int k = lowest; k <= highest; ++k) {
      splits_[static_cast<std::size_t>(k - lowest)] = split_for_positions(
          dd_ldexp(DoubleDouble{fast_constants::inv_two_pi_hi, fast_constants::inv_two_pi_lo}, k));
    }
  }
  const TurnsSplit& at(int k) const {
    return splits_[static_cast<std::size_t>(std::clamp(k, lowest, highest) - lowest)];
  }

 private:
  // A zero angle has k = -24 (frexp gives exponent 0); the clamp never
  // changes a k a float32 angle gives.
  static constexpr int lowest = -149 - 24;
  static constexpr int highest = 128 - 24;
  std::array<TurnsSplit, highest - lowest + 1> splits_{};
};

// A float32 angle t = m 2^k with m an integer below 2^24 (step 3): k =
// e - 24 for t = f 2^e, 1/2 <= |f| < 1, as std::frexp gives e, read from the
// double's exponent bits (every float32 value is a normal double), and m =
// t 2^-k, a multiplication by a power of two (exact). A zero angle is m = 0,
// k = -24, as frexp's exponent 0 gives.
struct BinaryAngle {
  double m;
  int k;
};
inline BinaryAngle binary_angle(double angle) {
  if (angle == 0.0) return {angle, -24};
  const int e = static_cast<int>((std::bit_cast<std::uint64_t>(angle) >> 52) & 0x7ff) - 1022;
  const double scale = std::bit_cast<double>(static_cast<std::uint64_t>(1023 + 24 - e) << 52);
  return {angle * scale, e - 24};
}

}  // namespace

void fill_hf_float32_rows(const RotaryConvention& convention, std::span<const double> inv_freq, double factor,
                          std::int64_t first_position, int workers, RotaryCache& cache) {
  const auto n = static_cast<std::int64_t>(inv_freq.size());
  const std::int64_t padded = (n + sincos_lanes - 1) / sincos_lanes * sincos_lanes;
  const std::int64_t row_count = cache.cos.rows;
  const TurnsSplits splits;
  RotaryRowStore rows(convention, factor, cache);
  parallel_for(workers, [&](int worker) {
    // A row's angles side by side, each as its integer m and the split of its
    // 2^k / (2 pi) (step 3), then one vector pass over them; padding lanes
    // hold m = 0 (sin 0, cos 1, never read).
    std::vector<double> m(static_cast<std::size_t>(padded), 0.0), f1(m), f2(m), f3(m);
    std::vector<double> sin_row(static_cast<std::size_t>(padded)), cos_row(sin_row);
    const std::int64_t first = row_count * worker / workers;
    const std::int64_t last = row_count * (worker + 1) / workers;
    for (std::int64_t r = first; r < last; ++r) {
      const double p = static_cast<float>(first_position + r);  // exact below 2^24
      for (std::size_t i = 0; i < inv_freq.size(); ++i) {
        const double angle = static_cast<float>(p * inv_freq[i]);  // step 2
        const BinaryAngle binary = binary_angle(angle);
        m[i] = binary.m;
        const TurnsSplit& split = splits.at(binary.k);
        f1[i] = split.f1;
        f2[i] = split.f2;
        f3[i] = split.f3;
      }
      sincos_turns_each(m.data(), f1.data(), f2.data(), f3.data(), padded, sin_row.data(), cos_row.data());
      rows.store(r, cos_row.data(), sin_row.data());  // step 4
    }
  });
}

}  // namespace pecheck
