// Accuracy of the fast implementation against an independent 113-bit
// evaluation (quad_reference.hpp), in every preset and format, at sampled
// positions up to 2^24 - 1 and at the positions where entries come closest
// to a zero of sin or cos (near_zero_search.hpp).
//
// Each entry is held to the bounds derived in sincos_turns.cpp (the kernel)
// and rotated_rows.cpp (the rows the rounded formats come from),
//   rounded formats: 0.5 + 2^P (2^-52 + 2^-77.9 / rho + [|v| >= 2^-15] 2^-50.2 / |v|) ulp,
//   float64:               2^53 (2^-52 + 2^-77.9 / rho) ulp,
// plus the reference's own uncertainty in ulps; float32 must also stay within
// 1 ulp everywhere. The measured maxima are printed, Boost.Math style.
//
// The ULP metric is computed locally (quad_reference.hpp) until the shared
// one in ulp.hpp is implemented.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "encoding_plan.hpp"
#include "near_zero_search.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "quad_reference.hpp"
#include "test_seed.hpp"

namespace pecheck {
namespace {

using testing::LocalFormat;
using testing::Quad;

struct CheckedFormat {
  LocalFormat format;
  bool rounded_from_double;  // float64 is the kernel's own result
};

constexpr CheckedFormat checked_formats[] = {
    {testing::local_float64, false},
    {testing::local_float32, true},
    {testing::local_float16, true},
    {testing::local_bfloat16, true},
};
constexpr std::size_t format_count = std::size(checked_formats);

// sincos_turns.cpp, steps 4 and 5, and for the rounded formats
// rotated_rows.cpp, step 4: a rotated value is off by at most 2^-50.2 and is
// kept only when |v| >= 2^-14 (1 - 2^-35) > 2^-15; any other value is the kernel's.
double ulp_budget(const CheckedFormat& checked, double rho, double exact, double reference_ulps) {
  double relative = 0x1p-52 + std::exp2(-77.9) / rho;
  if (checked.rounded_from_double && std::fabs(exact) >= 0x1p-15) relative += std::exp2(-50.2) / std::fabs(exact);
  return (checked.rounded_from_double ? 0.5 : 0.0) + std::ldexp(relative, checked.format.precision) + reference_ulps;
}

// One row of the table in every format, through the plan's typed fills.
struct RowInEveryFormat {
  std::vector<double> values[format_count];
};

RowInEveryFormat fill_row(const EncodingPlan& plan, std::int64_t row) {
  const std::int64_t d = plan.dim();
  RowInEveryFormat out;
  std::vector<double> f64(d);
  std::vector<float> f32(d);
  std::vector<std::uint16_t> f16(d);
  std::vector<std::uint16_t> bf16(d);
  plan.fill_rows(0, 1, row, std::span<double>(f64));
  plan.fill_rows(0, 1, row, std::span<float>(f32));
  plan.fill_rows_float16(0, 1, row, f16);
  plan.fill_rows_bfloat16(0, 1, row, bf16);
  out.values[0] = f64;
  out.values[1].assign(f32.begin(), f32.end());
  for (const std::uint16_t bits : f16) out.values[2].push_back(float16_bits_to_double(bits));
  for (const std::uint16_t bits : bf16) out.values[3].push_back(bfloat16_bits_to_double(bits));
  return out;
}

struct Worst {
  double ulps = 0.0;
  std::int64_t position = 0;
  std::int64_t column = 0;
  double computed = 0.0;
  Quad exact = 0;
  double reference_ulps = 0.0;  // the reference's own uncertainty there
};

struct Statistics {
  Worst worst;
  double sum_of_squares = 0.0;
  std::int64_t entries = 0;
  void add(const Worst& entry) {
    sum_of_squares += entry.ulps * entry.ulps;
    ++entries;
    if (entry.ulps > worst.ulps) worst = entry;
  }
  double rms() const { return entries == 0 ? 0.0 : std::sqrt(sum_of_squares / static_cast<double>(entries)); }
};

struct PresetReport {
  Statistics sampled[format_count];
  Statistics near_zero[format_count];
  double smallest_rho = 1.0;
  std::int64_t over_budget = 0;
};

class AccuracyChecker {
 public:
  // `rows`: the table's length, for a relative convention's positions.
  AccuracyChecker(const Convention& convention, std::int64_t d,
                  std::int64_t rows = std::numeric_limits<std::int64_t>::max())
      : convention_(convention), plan_(convention, d), layout_(column_layout(convention, d)), rows_(rows) {
    for (std::int64_t i = 0; i < frequency_count(convention, d); ++i) {
      w_.push_back(testing::quad_frequency(frequency_term(convention, d, i)));
      f_.push_back(w_.back() / (2 * testing::quad_pi()));
    }
    for (std::size_t c = 0; c < layout_.size(); ++c) {
      const ColumnSpec& spec = layout_[c];
      if (spec.kind == ColumnKind::zero) continue;
      auto& columns = spec.kind == ColumnKind::sin ? sin_column_ : cos_column_;
      columns[spec.frequency_index] = static_cast<std::int64_t>(c);
    }
  }

  Quad frequency_in_turns(std::int64_t i) const { return f_[static_cast<std::size_t>(i)]; }
  std::int64_t frequencies() const { return static_cast<std::int64_t>(f_.size()); }
  // The column holding `kind` of frequency i, or -1.
  std::int64_t column_of(ColumnKind kind, std::int64_t i) const {
    const auto& columns = kind == ColumnKind::sin ? sin_column_ : cos_column_;
    const auto found = columns.find(i);
    return found == columns.end() ? -1 : found->second;
  }

  // Checks the given columns (all if empty) of the row holding `position`.
  void check(std::int64_t position, const std::vector<std::int64_t>& columns, Statistics (&stats)[format_count],
             PresetReport& report) const {
    const std::int64_t row = row_of_position(convention_, position);
    if (row < 0 || row >= rows_ || is_zero_row(convention_, row)) return;
    const RowInEveryFormat values = fill_row(plan_, row);
    const auto check_column = [&](std::int64_t c) {
      const ColumnSpec& spec = layout_[static_cast<std::size_t>(c)];
      if (spec.kind == ColumnKind::zero) return;
      const auto i = static_cast<std::size_t>(spec.frequency_index);
      const Quad exact = testing::quad_entry(spec.kind, w_[i], position);
      const double rho = position == 0 ? 1.0 : static_cast<double>(testing::quad_rho(spec.kind, f_[i], position));
      report.smallest_rho = std::min(report.smallest_rho, rho);
      const double reference_error = testing::quad_entry_error_bound(w_[i], position);
      for (std::size_t k = 0; k < format_count; ++k) {
        const LocalFormat& format = checked_formats[k].format;
        const double computed = values.values[k][static_cast<std::size_t>(c)];
        const double ulps = testing::ulp_error(computed, exact, format);
        const double reference_ulps = reference_error / static_cast<double>(testing::quad_ulp(exact, format));
        stats[k].add({ulps, position, c, computed, exact, reference_ulps});
        const double budget = ulp_budget(checked_formats[k], rho, static_cast<double>(exact), reference_ulps);
        if (ulps > budget) {
          ++report.over_budget;
          ADD_FAILURE() << convention_.name << " " << format.name << " position " << position << " column " << c
                        << ": " << ulps << " ulp, budget " << budget
                        << " (rho " << rho << "); computed " << computed << ", exact "
                        << testing::quad_text(exact);
        }
      }
    };
    if (columns.empty()) {
      for (std::int64_t c = 0; c < plan_.dim(); ++c) check_column(c);
    } else {
      for (const std::int64_t c : columns) check_column(c);
    }
  }

 private:
  Convention convention_;
  EncodingPlan plan_;
  std::vector<ColumnSpec> layout_;
  std::int64_t rows_;
  std::vector<Quad> w_;
  std::vector<Quad> f_;
  std::map<std::int64_t, std::int64_t> sin_column_;
  std::map<std::int64_t, std::int64_t> cos_column_;
};

// Full scans cost 2^24 steps each; presets sharing a frequency rule share
// frequencies, so the scans are remembered by frequency.
const testing::ScanResult& scan_once(double f) {
  static std::map<double, testing::ScanResult> cache;
  const auto found = cache.find(f);
  if (found != cache.end()) return found->second;
  return cache.emplace(f, testing::scan_closest_zeros(f, max_exact_position)).first->second;
}

void print_report(const Convention& preset, const PresetReport& report) {
  for (std::size_t k = 0; k < format_count; ++k) {
    const Statistics& sampled = report.sampled[k];
    const Statistics& near = report.near_zero[k];
    const Worst& worst = sampled.worst.ulps >= near.worst.ulps ? sampled.worst : near.worst;
    std::printf("%-14s %-8s sampled: max %.6f rms %.4f ulp (%lld entries); near zeros: max %.6f ulp (%lld entries);"
                " worst at p = %lld, column %lld: %a vs %s (reference good to %.2g ulp there)\n",
                preset.name.c_str(), checked_formats[k].format.name, sampled.worst.ulps, sampled.rms(),
                static_cast<long long>(sampled.entries), near.worst.ulps, static_cast<long long>(near.entries),
                static_cast<long long>(worst.position), static_cast<long long>(worst.column), worst.computed,
                testing::quad_text(worst.exact).c_str(), worst.reference_ulps);
  }
  std::printf("%-14s smallest rho met: 2^%.2f turns\n", preset.name.c_str(), std::log2(report.smallest_rho));
}

TEST(FastEncodingAccuracy, everyPresetIsWithinItsBoundAndFloat32WithinOneUlpUpTo2To24) {
  std::mt19937_64 rng(testing::seed("FastEncodingAccuracy"));
  std::uniform_int_distribution<std::int64_t> any_position(0, max_exact_position - 1);
  for (const Convention& preset : presets()) {
    PresetReport report;
    for (const std::int64_t d : {1024, 1023}) {
      if (d % 2 == 1 && preset.odd_dim == OddDimPolicy::reject) continue;
      const AccuracyChecker checker(preset, d);

      std::vector<std::int64_t> positions = {0, 1, 2, 3, 1 << 23, max_exact_position - 1};
      for (int n = 0; n < 20; ++n) positions.push_back(any_position(rng));
      for (const std::int64_t p : positions) checker.check(p, {}, report.sampled, report);

      if (d != 1024) continue;
      // The closest sin zero of every frequency, by continued fractions.
      for (std::int64_t i = 0; i < checker.frequencies(); ++i) {
        const std::int64_t p = testing::closest_sin_zero_position(checker.frequency_in_turns(i), max_exact_position);
        checker.check(p, {checker.column_of(ColumnKind::sin, i)}, report.near_zero, report);
      }
      // The closest cos (and sin) zeros of a few frequencies, by full scans.
      const std::int64_t n = checker.frequencies();
      for (const std::int64_t i : {std::int64_t{0}, std::int64_t{1}, n / 2, n - 1}) {
        const testing::ScanResult& scan = scan_once(static_cast<double>(checker.frequency_in_turns(i)));
        checker.check(scan.cos.position, {checker.column_of(ColumnKind::cos, i)}, report.near_zero, report);
        checker.check(scan.sin.position, {checker.column_of(ColumnKind::sin, i)}, report.near_zero, report);
      }
    }
    print_report(preset, report);
    EXPECT_EQ(report.over_budget, 0) << preset.name;
    EXPECT_LE(std::max(report.sampled[1].worst.ulps, report.near_zero[1].worst.ulps), 1.0) << preset.name;
  }
}

// The relative presets, whose rows run down to -(2^24 - 1) (or to 0): a
// negative position's row is its magnitude's with sin negated, exactly
// (encoding_plan.cpp, narrow_fill.cpp), so the bound derived for |p| < 2^24
// in sincos_turns.cpp holds unchanged; this measures it on both sides of 0,
// against the 113-bit evaluation at the signed position itself.
TEST(FastEncodingAccuracy, relativePresetsAreWithinTheBoundAtNegativePositions) {
  std::mt19937_64 rng(testing::seed("FastEncodingAccuracyNegative"));
  std::uniform_int_distribution<std::int64_t> any_position(1 - max_exact_position, max_exact_position - 1);
  for (const Convention& preset : relative_presets()) {
    const bool centred = preset.span == PositionSpan::centred_on_zero;
    const std::int64_t rows = centred ? 2 * max_exact_position - 1 : max_exact_position;  // the whole range
    const Convention convention = for_rows(preset, rows);
    PresetReport report;
    const AccuracyChecker checker(convention, 1024, rows);
    std::vector<std::int64_t> positions = {
        0, 1, -1, -2, -3, -(1 << 23), 1 - max_exact_position, max_exact_position - 1};
    for (int n = 0; n < 40; ++n) positions.push_back(any_position(rng));
    for (const std::int64_t p : positions) checker.check(p, {}, report.sampled, report);
    for (std::int64_t i = 0; i < checker.frequencies(); ++i) {
      const std::int64_t p = testing::closest_sin_zero_position(checker.frequency_in_turns(i), max_exact_position);
      checker.check(-p, {checker.column_of(ColumnKind::sin, i)}, report.near_zero, report);
      checker.check(p, {checker.column_of(ColumnKind::sin, i)}, report.near_zero, report);
    }
    print_report(convention, report);
    EXPECT_GT(report.sampled[0].entries, 0) << preset.name;
    EXPECT_EQ(report.over_budget, 0) << preset.name;
    EXPECT_LE(std::max(report.sampled[1].worst.ulps, report.near_zero[1].worst.ulps), 1.0) << preset.name;
  }
}

// rotated_rows.cpp's claims, entry by entry, on the doubles the rounded formats
// are rounded from: a value that differs from the kernel's own (the float64
// output) is a kept rotated value, so it is within 2^-50.2 of the exact value
// and at least 2^-15 in magnitude (steps 2 and 3). Most rotated values equal
// the kernel's, both being within about an ulp of the exact value. Rows
// cross anchors (K = 128 at d = 1024, K = 8 at d = 16384) and include the
// first rows, where the slow columns are near zero and must come from the
// kernel.
TEST(RotatedRows, everyValueIsTheKernelsOrWithinTheRotationBound) {
  constexpr double rotation_bound = 0x1.bb67ae8584caap-51;  // 2^-50.2, rounded up
  for (const Convention& preset : {presets()[0], presets()[2]}) {
    for (const std::int64_t d : {1024, 16384}) {
      const EncodingPlan plan(preset, d);
      const std::vector<ColumnSpec> layout = column_layout(preset, d);
      std::vector<Quad> w;
      for (std::int64_t i = 0; i < frequency_count(preset, d); ++i) {
        w.push_back(testing::quad_frequency(frequency_term(preset, d, i)));
      }
      double worst = 0.0;
      std::int64_t same = 0;
      std::int64_t different = 0;
      for (const std::int64_t first : {std::int64_t{0}, std::int64_t{5000000}}) {
        const std::int64_t rows = d == 1024 ? 200 : 20;
        std::vector<double> source(static_cast<std::size_t>(rows * d));
        std::vector<double> kernel(static_cast<std::size_t>(rows * d));
        plan.fill_rows_narrow_source(0, rows, first, source);
        plan.fill_rows(0, rows, first, std::span<double>(kernel));
        for (std::int64_t r = 0; r < rows; ++r) {
          const std::int64_t position = first + r;
          for (std::int64_t c = 0; c < d; c += d == 1024 ? 1 : 7) {
            const ColumnSpec& spec = layout[static_cast<std::size_t>(c)];
            if (spec.kind == ColumnKind::zero) continue;
            const auto at = static_cast<std::size_t>(r * d + c);
            if (std::bit_cast<std::uint64_t>(source[at]) == std::bit_cast<std::uint64_t>(kernel[at])) {
              ++same;
              continue;
            }
            ++different;
            const Quad exact = testing::quad_entry(spec.kind, w[static_cast<std::size_t>(spec.frequency_index)], position);
            const double error = std::fabs(static_cast<double>(static_cast<Quad>(source[at]) - exact));
            worst = std::max(worst, error);
            ASSERT_LE(error, rotation_bound + testing::quad_entry_error_bound(w[spec.frequency_index], position))
                << preset.name << " d=" << d << " position " << position << " column " << c;
            ASSERT_GE(std::fabs(static_cast<double>(exact)), 0x1p-15)
                << preset.name << " d=" << d << " position " << position << " column " << c;
          }
        }
      }
      std::printf("%-14s d=%-5lld values that differ from the kernel's: %lld of %lld, worst absolute error 2^%.2f "
                  "(bound 2^-50.2)\n",
                  preset.name.c_str(), static_cast<long long>(d), static_cast<long long>(different),
                  static_cast<long long>(different + same), std::log2(worst));
      EXPECT_GT(different, 0) << "the rotation should be visible somewhere";
    }
  }
}

}  // namespace
}  // namespace pecheck
