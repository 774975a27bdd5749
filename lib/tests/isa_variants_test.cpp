// The instruction-set variants of the fast path (pecheck/isa.hpp,
// cmake/PecheckDispatch.cmake): every variant this CPU runs fills the same
// tables as the baseline, bit for bit, in every format, for every preset, at
// small and large positions and odd widths; and the choice of a variant.
#include "pecheck/isa.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "encoding_plan.hpp"
#include "fast_kernels.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/testing/isa_variants.hpp"

namespace pecheck {
namespace {

bool accepts(const Convention& convention, std::int64_t d) {
  return d >= convention.min_dim && !(d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject);
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Every table a variant fills, in its order: float64, float32, float16,
// bfloat16 and the doubles the narrow formats round, each as raw bytes.
struct Filled {
  std::vector<double> float64;
  std::vector<float> float32;
  std::vector<std::uint16_t> float16;
  std::vector<std::uint16_t> bfloat16;
  std::vector<double> source;
};

Filled fill_all(const FastKernels& kernels, const EncodingPlan& plan, std::int64_t rows, std::int64_t row_offset) {
  const auto n = static_cast<std::size_t>(rows * plan.dim());
  Filled f{std::vector<double>(n), std::vector<float>(n), std::vector<std::uint16_t>(n), std::vector<std::uint16_t>(n),
           std::vector<double>(n)};
  kernels.fill_float64(plan, 0, rows, row_offset, f.float64, 2);
  kernels.fill_float32(plan, 0, rows, row_offset, f.float32, 2);
  kernels.fill_float16(plan, 0, rows, row_offset, f.float16, 2);
  kernels.fill_bfloat16(plan, 0, rows, row_offset, f.bfloat16, 2);
  kernels.fill_narrow_source(plan, 0, rows, row_offset, f.source, 2);
  return f;
}

TEST(IsaVariants, theBaselineComesFirstAndRunsEverywhere) {
  const std::vector<isa::Variant>& variants = isa::variants();
  ASSERT_FALSE(variants.empty());
  EXPECT_EQ(variants.front().name, "baseline");
  EXPECT_TRUE(variants.front().runs_here);
  for (const isa::Variant& v : variants) EXPECT_FALSE(v.description.empty()) << v.name;
}

// Unless PECHECK_ISA forces one (ctest runs this test once per variant so),
// the selected variant is the last, best, one this CPU runs.
TEST(IsaVariants, theSelectedVariantIsTheForcedOneOrTheBestThatRunsHere) {
  const std::vector<isa::Variant>& variants = isa::variants();
  const std::size_t selected = isa::selected();
  ASSERT_LT(selected, variants.size());
  EXPECT_TRUE(variants[selected].runs_here);
  const char* forced = std::getenv("PECHECK_ISA");
  if (forced != nullptr && *forced != '\0') {
    EXPECT_EQ(variants[selected].name, forced);
    EXPECT_NE(isa::selected_description().find("forced by PECHECK_ISA"), std::string::npos);
  } else {
    for (std::size_t i = selected + 1; i < variants.size(); ++i)
      EXPECT_FALSE(variants[i].runs_here) << variants[i].name;
  }
  EXPECT_EQ(&fast_kernels(), &fast_kernels(selected));
}

TEST(IsaVariants, everyVariantFillsTheBaselinesTablesBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  std::int64_t compared = 0;
  for (const Convention& preset : presets()) {
    // Widths with one pair, odd widths, a width past one vector group and a
    // wide one; positions near 0 and near the kernel's 2^24 limit, where the
    // angle's reduction matters most.
    for (const std::int64_t d : {2, 9, 30, 130, 1024}) {
      if (!accepts(preset, d)) continue;
      const EncodingPlan plan(preset, d);
      for (const std::int64_t offset : {std::int64_t{0}, std::int64_t{(1 << 24) - 300}}) {
        const std::int64_t rows = offset == 0 ? 260 : 280;
        try {
          check_request(preset, TableRequest{rows, d, offset});
        } catch (const ConventionError&) {
          continue;  // positions beyond the fast path's range for this preset's step
        }
        const Filled baseline = fill_all(fast_kernels(0), plan, rows, offset);
        const Filled* first_wide = nullptr;
        std::vector<Filled> wide;
        wide.reserve(variants.size());
        for (std::size_t v = 1; v < variants.size(); ++v) {
          if (!variants[v].runs_here) continue;
          const Filled& other = wide.emplace_back(fill_all(fast_kernels(v), plan, rows, offset));
          const std::string where =
              variants[v].name + " " + preset.name + " d=" + std::to_string(d) + " offset=" + std::to_string(offset);
          EXPECT_TRUE(same_bytes(baseline.float64, other.float64)) << where << " float64";
          EXPECT_TRUE(same_bytes(baseline.float32, other.float32)) << where << " float32";
          EXPECT_TRUE(same_bytes(baseline.float16, other.float16)) << where << " float16";
          EXPECT_TRUE(same_bytes(baseline.bfloat16, other.bfloat16)) << where << " bfloat16";
          // The doubles the narrow formats round from are not an output:
          // measured, the baseline's differ from the wider variants' in the
          // last bit at a few entries (as a build with PECHECK_NATIVE's do
          // from one without), which the formats' rounding absorbs above.
          // The wide variants agree with each other bit for bit.
          if (first_wide == nullptr) {
            first_wide = &other;
          } else {
            EXPECT_TRUE(same_bytes(first_wide->source, other.source)) << where << " narrow source";
          }
          ++compared;
        }
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

TEST(IsaVariants, anUnknownVariantNumberIsRefused) {
  EXPECT_THROW(fast_kernels(isa::variants().size()), std::out_of_range);
}

}  // namespace
}  // namespace pecheck
