// The reference's instruction-set variants (pecheck/isa.hpp): every variant
// this CPU runs builds the baseline's tables bit for bit (the rounded values,
// the exact values and the counts of what each tier left to the next) and
// visits the same rows, for every preset in every format, at small positions
// and near the fast path's 2^24 limit.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "pecheck/isa.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/testing/table_values.hpp"
#include "pecheck/testing/isa_variants.hpp"
#include "reference_kernels.hpp"

using pecheck::testing::flat_at;

namespace pecheck::reference {
namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

bool accepts(const Convention& convention, std::int64_t d) {
  return d >= convention.min_dim && !(d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject);
}

::testing::AssertionResult same_tables(const ReferenceTable& a, const ReferenceTable& b) {
  if (a.rounded.rows != b.rounded.rows || a.rounded.cols != b.rounded.cols || a.escalations != b.escalations ||
      a.double_word_fallbacks != b.double_word_fallbacks || a.exact.size() != b.exact.size()) {
    return ::testing::AssertionFailure() << "shapes or counts differ";
  }
  for (std::int64_t k = 0; k < a.rounded.rows * a.rounded.cols; ++k) {
    if (!same_bits(flat_at(a.rounded, k), flat_at(b.rounded, k))) return ::testing::AssertionFailure() << "entry " << k;
  }
  for (std::size_t k = 0; k < a.exact.size(); ++k) {
    if (!same_bits(a.exact[k].hi, b.exact[k].hi) || !same_bits(a.exact[k].lo, b.exact[k].lo)) {
      return ::testing::AssertionFailure() << "exact value " << k;
    }
  }
  return ::testing::AssertionSuccess();
}

// The rows a variant visits, flattened in row order: rounded values, then the exact values' bits.
std::vector<std::uint64_t> visited(const ReferenceKernels& kernels, const Convention& convention,
                                   const TableRequest& request, const Format& format, ReferenceCounts& counts) {
  std::vector<std::vector<std::uint64_t>> rows(static_cast<std::size_t>(request.rows));
  std::mutex mutex;
  counts = kernels.visit_rows(convention, request, format, 2, default_first_precision, FirstStep::double_word,
                              ExactValues::full, RoundedValues::decided, [&](int, const ReferenceRow& row) {
                                std::vector<std::uint64_t> bits;
                                for (const double v : row.rounded) bits.push_back(std::bit_cast<std::uint64_t>(v));
                                for (const DoubleDouble& e : row.exact) {
                                  bits.push_back(std::bit_cast<std::uint64_t>(e.hi));
                                  bits.push_back(std::bit_cast<std::uint64_t>(e.lo));
                                }
                                for (const double e : row.plain_exact) bits.push_back(std::bit_cast<std::uint64_t>(e));
                                const std::lock_guard<std::mutex> lock(mutex);
                                rows[static_cast<std::size_t>(row.row)] = std::move(bits);
                              });
  std::vector<std::uint64_t> all;
  for (const auto& r : rows) all.insert(all.end(), r.begin(), r.end());
  return all;
}

TEST(ReferenceVariants, everyVariantBuildsAndVisitsTheBaselinesTablesBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  int compared = 0;
  for (const Convention& preset : presets()) {
    for (const std::int64_t d : {9, 64}) {
      if (!accepts(preset, d)) continue;
      for (const std::int64_t offset : {std::int64_t{0}, std::int64_t{(1 << 24) - 40}}) {
        const TableRequest request{24, d, offset};
        for (const FormatId id : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
          const Format& format = format_of(id);
          ReferenceTable baseline;
          try {
            baseline = reference_kernels(0).build_table(preset, request, format, 2, default_first_precision,
                                                        FirstStep::double_word, ExactValues::full);
          } catch (const ConventionError&) {
            continue;  // positions beyond what this preset's step allows
          }
          ReferenceCounts baseline_counts;
          const std::vector<std::uint64_t> baseline_rows =
              visited(reference_kernels(0), preset, request, format, baseline_counts);
          for (std::size_t v = 1; v < variants.size(); ++v) {
            if (!variants[v].runs_here) continue;
            SCOPED_TRACE(variants[v].name + " " + preset.name + " d=" + std::to_string(d) +
                         " offset=" + std::to_string(offset) + " " + std::string(format.name));
            const ReferenceKernels& other = reference_kernels(v);
            EXPECT_TRUE(same_tables(baseline, other.build_table(preset, request, format, 2, default_first_precision,
                                                                FirstStep::double_word, ExactValues::full)));
            ReferenceCounts counts;
            EXPECT_EQ(visited(other, preset, request, format, counts), baseline_rows);
            EXPECT_EQ(counts.escalations, baseline_counts.escalations);
            EXPECT_EQ(counts.double_word_fallbacks, baseline_counts.double_word_fallbacks);
            ++compared;
          }
        }
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

}  // namespace
}  // namespace pecheck::reference
