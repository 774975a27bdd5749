// fast_rotary_cache_into writes into the tables it is given when their shape
// and format fit, and the bits are fast_rotary_cache's: every preset, every
// format, a cache of other positions overwritten (so that no stale value of
// the earlier fill can pass for a right one).
#include <gtest/gtest.h>

#include <cstring>

#include "pecheck/rotary_cache.hpp"

namespace pecheck {
namespace {

bool same_bits(const Table& a, const Table& b) {
  return a.rows == b.rows && a.cols == b.cols && a.format == b.format && a.bytes().size() == b.bytes().size() &&
         std::memcmp(a.bytes().data(), b.bytes().data(), a.bytes().size()) == 0;
}

TEST(RotaryCacheInto, reusedTablesHoldTheFreshCachesBits) {
  for (const RotaryConvention& c : rotary_presets()) {
    for (const FormatId format : {FormatId::float32, FormatId::float16, FormatId::bfloat16, FormatId::float64}) {
      const RotaryCacheRequest earlier{1000, 300, format};
      const RotaryCacheRequest later{16777215 - 300, 300, format};
      RotaryCache reused = fast_rotary_cache(c, earlier);
      const std::byte* cos_storage = reused.cos.bytes().data();
      const std::byte* sin_storage = reused.sin.bytes().data();
      fast_rotary_cache_into(c, later, reused);
      EXPECT_EQ(reused.cos.bytes().data(), cos_storage) << c.name << ": the cos table was not reused";
      EXPECT_EQ(reused.sin.bytes().data(), sin_storage) << c.name << ": the sin table was not reused";
      const RotaryCache fresh = fast_rotary_cache(c, later);
      EXPECT_TRUE(same_bits(reused.cos, fresh.cos)) << c.name << " " << format_of(format).name << " cos";
      EXPECT_TRUE(same_bits(reused.sin, fresh.sin)) << c.name << " " << format_of(format).name << " sin";
    }
  }
}

TEST(RotaryCacheInto, tablesOfAnotherShapeOrFormatAreReplaced) {
  const RotaryConvention c = *find_rotary_preset("llama3.1");
  RotaryCache cache = fast_rotary_cache(c, {0, 10, FormatId::float32});
  fast_rotary_cache_into(c, {5, 20, FormatId::bfloat16}, cache);
  const RotaryCache fresh = fast_rotary_cache(c, {5, 20, FormatId::bfloat16});
  EXPECT_TRUE(same_bits(cache.cos, fresh.cos));
  EXPECT_TRUE(same_bits(cache.sin, fresh.sin));
}

}  // namespace
}  // namespace pecheck
