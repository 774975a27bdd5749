#include "rotary_comparison.hpp"

#include <cmath>
#include <cstdio>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::validate {

namespace {

// The reference decides about a million entries a second on two cores; a
// cache past this many entries is compared on spread blocks of rows.
constexpr std::int64_t most_entries = std::int64_t{1} << 21;
constexpr std::int64_t block_rows = 64;

std::string decimal(DoubleDouble x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.21g", x.hi + x.lo);
  return buffer;
}

// What a framework's own float32 libm may do that the computation model
// (every operation correctly rounded) does not: inv_freq within relative
// libm_inv_freq_allowance of the model's (2^(2-q) at q significant bits,
// derived in lib/src/numbers/rotary_convention.cpp). The angle p * inv_freq
// then moves by up to that times |angle|, and its rounding to the angle format
// by one more ulp(angle); cos and sin move by at most the attention factor
// times that. An entry beyond the ULP budget passes when it is within it.
struct LibmAllowance {
  double factor = 1.0;
  std::vector<double> inv_freq;  // the model's, one per frequency
  double relative = 0.0;         // libm_inv_freq_allowance
  FormatId angle_format = FormatId::float32;

  double bound(std::int64_t position, std::int64_t frequency) const {
    const double angle = static_cast<double>(position) * inv_freq[static_cast<std::size_t>(frequency)];
    const double angle_ulp = angle == 0.0 ? 0.0 : ulp_of(DoubleDouble{angle, 0.0}, format_of(angle_format));
    return factor * (relative * angle + angle_ulp);
  }
};

struct Accumulator {
  properties::Measurement& m;
  FormatId format;
  double budget;
  const LibmAllowance* allowance = nullptr;
  std::int64_t beyond = 0;
  double squares = 0.0;

  void add(double value, DoubleDouble exact, std::int64_t row, std::int64_t position, std::int64_t column,
           std::int64_t frequency) {
    const UlpError error = ulp_error(value, exact, format_of(format));
    const double abs_error = absolute_error(value, exact);
    ++m.entries;
    m.max_abs_error = std::max(m.max_abs_error, abs_error);
    if (error.mismatch != Mismatch::none && error.mismatch != Mismatch::signed_zero) {
      ++m.mismatches;
      ++beyond;
      return;
    }
    squares += error.ulps * error.ulps;
    if (error.ulps > budget) {
      if (allowance != nullptr) {
        properties::AbsoluteBoundCheck& check = *m.abs_bound;
        const double bound = allowance->bound(position, frequency);
        ++check.beyond_ulp;
        const bool outside = !(abs_error <= bound);
        check.beyond_bound += outside;
        beyond += outside;
        if (bound > 0.0 && abs_error / bound > check.worst_ratio) {
          check.worst_ratio = abs_error / bound;
          check.worst_ulp = error.ulps;
          check.worst_bound = bound;
        }
      } else {
        ++beyond;
      }
    }
    if (m.entries == 1 || error.ulps > m.max_ulp) {
      m.max_ulp = error.ulps;
      m.worst = {row,   position,       column,    value,      hex_bits(value, format_of(format)),
                 exact, decimal(exact), abs_error, error.ulps, {}};
    }
  }
};

}  // namespace

Comparison compare_rotary_cache(const Table& cos, const Table& sin, FormatId format,
                                      const RotaryConvention& convention, std::int64_t first_position,
                                      const std::optional<ComputationModel>& model, double budget_ulp,
                                      const std::string& budget_source, int threads) {
  Comparison comparison;
  comparison.target = model ? "the computation model " + model->name : "the exact encoding";
  properties::Measurement& m = comparison.measurement;
  m.format = format;
  m.budget_ulp = budget_ulp;
  m.budget_source = budget_source;
  std::optional<LibmAllowance> allowance;
  if (model) {
    allowance.emplace();
    allowance->factor = rotary_derived(convention).attention_factor;
    allowance->relative = libm_inv_freq_allowance(*model);
    allowance->angle_format = model->angle;
    for (std::int64_t i = 0; i < rotary_derived(convention).frequencies; ++i) {
      allowance->inv_freq.push_back(reference::rotary_model_inv_freq(convention, i, *model));
    }
    m.abs_bound = properties::AbsoluteBoundCheck{
        "the libm allowance", "inv_freq within relative 2^(2-q) of the model's (a libm pow within 1 ULP), one ULP of the angle", 0,
        0, 0.0, {}, 0.0, 0.0};
  }
  Accumulator accumulate{m, format, budget_ulp, allowance ? &*allowance : nullptr};
  const std::int64_t row_entries = 2 * cos.cols;
  const std::int64_t blocks = (cos.rows + block_rows - 1) / block_rows;
  const std::int64_t blocks_wanted = std::max<std::int64_t>(1, most_entries / (row_entries * block_rows));
  const std::int64_t stride = cos.rows * row_entries <= most_entries ? 1 : (blocks + blocks_wanted - 1) / blocks_wanted;
  for (std::int64_t b = 0; b < blocks; b += stride) {
    const std::int64_t begin = b * block_rows;
    const std::int64_t rows = std::min(block_rows, cos.rows - begin);
    const RotaryCacheRequest request{first_position + begin, rows, format};
    const reference::RotaryReferenceCache exact = reference::rotary_reference_cache(convention, request, model, threads);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < cos.cols; ++c) {
        const auto k = static_cast<std::size_t>(r * cos.cols + c);
        const std::int64_t i = rotary_column_frequency(convention, c);
        accumulate.add(cos.at(begin + r, c), exact.exact_cos[k], begin + r, first_position + begin + r, c, i);
        accumulate.add(sin.at(begin + r, c), exact.exact_sin[k], begin + r, first_position + begin + r, cos.cols + c, i);
      }
    }
  }
  const std::int64_t measured = m.entries - m.mismatches;
  m.rms_ulp = measured > 0 ? std::sqrt(accumulate.squares / static_cast<double>(measured)) : 0.0;
  comparison.beyond_budget = accumulate.beyond;
  comparison.conforms = m.entries > 0 && accumulate.beyond == 0;
  return comparison;
}

}  // namespace pecheck::validate
