// The instruction-set variants of the rotary fast paths (rotary_kernels.hpp,
// cmake/PecheckDispatch.cmake): every variant this CPU runs writes the
// baseline's caches bit for bit, for every rotary preset and scaling rule,
// in every format, the exact encoding's cache (fast_rotary_cache) and the
// hf-float32 model's (fast_rotary_model_cache), at positions near 0, past
// 2^16 and near the 2^24 limit; and the public functions use the selected
// variant's kernels.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "pecheck/isa.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/testing/isa_variants.hpp"
#include "pecheck/testing/presets.hpp"
#include "rotary_kernels.hpp"

namespace pecheck {
namespace {

bool same_bits(const Table& a, const Table& b) {
  return a.rows == b.rows && a.cols == b.cols && a.format == b.format && a.bytes().size() == b.bytes().size() &&
         std::memcmp(a.bytes().data(), b.bytes().data(), a.bytes().size()) == 0;
}

// 300 rows: more than the float32 rotation's anchor spacing (128 rows for
// these widths, rotated_rows.hpp), so rows rotated from an anchor and the
// anchors themselves are both compared, and enough for every worker of a
// split to get rows. The last start ends at the kernel's 2^24 limit.
constexpr std::int64_t rows = 300;
const std::int64_t starts[] = {0, 65536 - 150, (std::int64_t{1} << 24) - rows};

RotaryCache exact_cache(const RotaryConvention& c, const RotaryCacheRequest& request, const RotaryKernels& kernels) {
  RotaryCache cache;
  fast_rotary_cache_into(c, request, cache, kernels);
  return cache;
}

std::string where(const isa::Variant& variant, const RotaryConvention& c, FormatId format, std::int64_t first) {
  return variant.name + " " + c.name + " " + std::string(format_of(format).name) + " from " + std::to_string(first);
}

TEST(RotaryIsaVariants, everyVariantWritesTheBaselinesExactCachesBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  std::int64_t compared = 0;
  for (const RotaryConvention& c : testing::every_rotary_rule()) {
    for (const FormatId format : {FormatId::float32, FormatId::float16, FormatId::bfloat16, FormatId::float64}) {
      for (const std::int64_t first : starts) {
        const RotaryCacheRequest request{first, rows, format};
        const RotaryCache baseline = exact_cache(c, request, rotary_kernels(0));
        for (std::size_t v = 1; v < variants.size(); ++v) {
          if (!variants[v].runs_here) continue;
          const RotaryCache other = exact_cache(c, request, rotary_kernels(v));
          EXPECT_TRUE(same_bits(baseline.cos, other.cos)) << where(variants[v], c, format, first) << " cos";
          EXPECT_TRUE(same_bits(baseline.sin, other.sin)) << where(variants[v], c, format, first) << " sin";
          ++compared;
        }
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

TEST(RotaryIsaVariants, everyVariantWritesTheBaselinesHfFloat32CachesBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  const ComputationModel model = *find_computation_model("hf-float32");
  std::int64_t compared = 0;
  for (const RotaryConvention& c : testing::every_rotary_rule()) {
    for (const FormatId format : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      for (const std::int64_t first : starts) {
        const RotaryCacheRequest request{first, rows, format};
        const RotaryCache baseline = fast_rotary_model_cache(c, request, model, rotary_kernels(0));
        for (std::size_t v = 1; v < variants.size(); ++v) {
          if (!variants[v].runs_here) continue;
          const RotaryCache other = fast_rotary_model_cache(c, request, model, rotary_kernels(v));
          EXPECT_TRUE(same_bits(baseline.cos, other.cos)) << where(variants[v], c, format, first) << " cos";
          EXPECT_TRUE(same_bits(baseline.sin, other.sin)) << where(variants[v], c, format, first) << " sin";
          ++compared;
        }
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

// The public functions reach the kernels of the variant isa::selected()
// names (the forced one when ctest runs this test under PECHECK_ISA).
TEST(RotaryIsaVariants, thePublicFunctionsRunTheSelectedVariant) {
  const std::size_t selected = isa::selected();
  EXPECT_EQ(&rotary_kernels(), &rotary_kernels(selected));
  const RotaryConvention c = testing::rotary_preset("llama3.1");
  const RotaryCacheRequest request{1000, rows, FormatId::float32};
  const RotaryCache chosen = exact_cache(c, request, rotary_kernels(selected));
  const RotaryCache pub = fast_rotary_cache(c, request);
  EXPECT_TRUE(same_bits(chosen.cos, pub.cos));
  EXPECT_TRUE(same_bits(chosen.sin, pub.sin));
}

TEST(RotaryIsaVariants, anUnknownVariantNumberIsRefused) {
  EXPECT_THROW(rotary_kernels(isa::variants().size()), std::out_of_range);
}

}  // namespace
}  // namespace pecheck
