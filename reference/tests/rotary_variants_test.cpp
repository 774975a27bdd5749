// The rotary reference's instruction-set variants (rotary_reference_kernels.hpp):
// every variant this CPU runs builds the baseline's caches bit for bit (the
// rounded values, the exact values, the counts of what the tiers left to
// MPFR) and hands a comparison the same rows, for every rotary preset and
// scaling rule, the exact encoding and the hf-float32 computation model, in
// every format, at positions near 0, past 2^16 and near 2^24.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "pecheck/isa.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/testing/isa_variants.hpp"
#include "pecheck/testing/presets.hpp"
#include "pecheck/testing/table_values.hpp"
#include "rotary_reference_kernels.hpp"

using pecheck::testing::flat_at;

namespace pecheck::reference {
namespace {

constexpr std::int64_t rows = 40;
const std::int64_t starts[] = {0, 65536 - rows / 2, (std::int64_t{1} << 24) - rows};

void append_bits(std::vector<std::uint64_t>& out, double v) { out.push_back(std::bit_cast<std::uint64_t>(v)); }
void append_bits(std::vector<std::uint64_t>& out, const DoubleDouble& v) {
  append_bits(out, v.hi);
  append_bits(out, v.lo);
}

// A cache as bits: the rounded tables, the exact values, the counts.
std::vector<std::uint64_t> cache_bits(const RotaryReferenceCache& cache) {
  std::vector<std::uint64_t> bits;
  for (const Table* t : {&cache.rounded.cos, &cache.rounded.sin}) {
    bits.push_back(static_cast<std::uint64_t>(t->rows * t->cols));
    for (std::int64_t k = 0; k < t->rows * t->cols; ++k) append_bits(bits, flat_at(*t, k));
  }
  for (const auto* exact : {&cache.exact_cos, &cache.exact_sin}) {
    for (const DoubleDouble& e : *exact) append_bits(bits, e);
  }
  bits.push_back(static_cast<std::uint64_t>(cache.escalations));
  bits.push_back(static_cast<std::uint64_t>(cache.mpfr_entries));
  return bits;
}

// The rows a variant hands a comparison, in row order, as bits (plain rows
// marked apart from double-double ones), then the counts.
std::vector<std::uint64_t> visited(const RotaryReferenceKernels& kernels, const RotaryConvention& c,
                                   const RotaryCacheRequest& request, const std::optional<ComputationModel>& model) {
  std::vector<std::vector<std::uint64_t>> by_row(static_cast<std::size_t>(request.rows));
  std::mutex mutex;
  const std::optional<ComputationModel> targets[] = {model};
  const RotaryReferenceCounts counts =
      kernels
          .visit_rows(c, request, std::span<const std::optional<ComputationModel>>(targets), 2, ExactValues::for_format,
                      [&](int, std::span<const RotaryReferenceRow> target_rows) {
                        const RotaryReferenceRow& row = target_rows.front();
                        std::vector<std::uint64_t> bits{row.by_frequency.empty() ? 0U : 1U};
                        for (const double v : row.by_frequency) append_bits(bits, v);
                        for (const DoubleDouble& v : row.cos) append_bits(bits, v);
                        for (const DoubleDouble& v : row.sin) append_bits(bits, v);
                        const std::lock_guard<std::mutex> lock(mutex);
                        by_row[static_cast<std::size_t>(row.row)] = std::move(bits);
                      })
          .front();
  std::vector<std::uint64_t> all;
  for (const auto& r : by_row) all.insert(all.end(), r.begin(), r.end());
  all.push_back(static_cast<std::uint64_t>(counts.escalations));
  all.push_back(static_cast<std::uint64_t>(counts.mpfr_entries));
  return all;
}

TEST(RotaryReferenceVariants, everyVariantBuildsAndVisitsTheBaselinesCachesBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  const std::optional<ComputationModel> hf = find_computation_model("hf-float32");
  std::int64_t compared = 0;
  for (const RotaryConvention& c : testing::every_rotary_rule()) {
    for (const std::optional<ComputationModel>& model : {std::optional<ComputationModel>{}, hf}) {
      for (const FormatId format : {FormatId::float32, FormatId::bfloat16, FormatId::float16, FormatId::float64}) {
        // float64 takes no double tier: one start is enough for its entry path.
        for (const std::int64_t first : starts) {
          if (format == FormatId::float64 && first != starts[1]) continue;
          const RotaryCacheRequest request{first, rows, format};
          const RotaryReferenceKernels& base = rotary_reference_kernels(0);
          // ExactValues::for_format: the tiers' row path (as a comparison asks).
          const std::vector<std::uint64_t> baseline =
              cache_bits(base.build_cache(c, request, model, 2, ExactValues::for_format));
          const std::vector<std::uint64_t> baseline_none =
              cache_bits(base.build_cache(c, request, model, 2, ExactValues::none));
          const std::vector<std::uint64_t> baseline_rows = visited(base, c, request, model);
          for (std::size_t v = 1; v < variants.size(); ++v) {
            if (!variants[v].runs_here) continue;
            SCOPED_TRACE(variants[v].name + " " + c.name + (model ? " hf-float32 " : " exact ") +
                         std::string(format_of(format).name) + " from " + std::to_string(first));
            const RotaryReferenceKernels& other = rotary_reference_kernels(v);
            EXPECT_EQ(cache_bits(other.build_cache(c, request, model, 2, ExactValues::for_format)), baseline);
            EXPECT_EQ(cache_bits(other.build_cache(c, request, model, 2, ExactValues::none)), baseline_none);
            EXPECT_EQ(visited(other, c, request, model), baseline_rows);
            ++compared;
          }
        }
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

// The public functions reach the selected variant's kernels.
TEST(RotaryReferenceVariants, thePublicCacheIsTheSelectedVariants) {
  const RotaryConvention c = testing::rotary_preset("llama3.1");
  const RotaryCacheRequest request{1000, 8, FormatId::float32};
  EXPECT_EQ(
      cache_bits(rotary_reference_cache(c, request, std::nullopt, 1, ExactValues::for_format)),
      cache_bits(
          rotary_reference_kernels(isa::selected()).build_cache(c, request, std::nullopt, 1, ExactValues::for_format)));
}

}  // namespace
}  // namespace pecheck::reference
