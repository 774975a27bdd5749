// A cache written as Hugging Face computes it (examples/rope_caches.py, NumPy
// float32, and its torch variant when PyTorch imports) against the
// computation-model oracle hf-float32 and against the exact encoding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/testing/shell.hpp"
#include "pecheck/testing/temp_dir.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck {
namespace {

// NumPy's float32 cos and sin (its own SIMD kernels, not correctly rounded):
// measured at most 1.47 ULP on 24 million random float32 arguments in
// [0, 1.6e7] (NumPy 1.24 on x86-64, against float64 cos and sin); the test
// allows 2. The cache entry is then RN32(a_f * c) with c that far from the
// exact cos of the float32 angle: for a >= 1, ulp(c) <= ulp(a c), so the
// entry is within 2 a + 1/2 ULP of the model's value (2 when a = 1, where
// the product is exact).
constexpr double numpy_cos_ulp = 2.0;

double hf_cache_bound_ulp(double attention_factor) {
  return attention_factor == 1.0 ? numpy_cos_ulp : numpy_cos_ulp * attention_factor + 0.5;
}

const std::string python = "/usr/bin/python3";
const std::string script = std::string(PECHECK_SOURCE_DIR) + "/examples/rope_caches.py";

struct HfCache {
  Table cos;
  Table sin;
  Table inv_freq;  // (1, d/2): the float32 inv_freq the script built the caches from
};

// The script's own presets, or for LongRoPE (whose 96 factors the script
// does not carry) the preset written as the config.json it came from.
std::string script_source(const RotaryConvention& c, const testing::TempDir& dir) {
  if (c.scaling.kind != RotaryScalingKind::longrope) return "--preset " + c.name;
  std::ostringstream config;
  config.precision(17);
  config << "{\"head_dim\": " << c.head_dim << ", \"rope_theta\": " << c.base
         << ", \"max_position_embeddings\": " << c.max_position
         << ", \"original_max_position_embeddings\": " << c.scaling.original_max_position
         << ", \"rope_scaling\": {\"type\": \"su\"";
  for (const auto& [key, factors] :
       {std::pair{"long_factor", &c.scaling.long_factor}, std::pair{"short_factor", &c.scaling.short_factor}}) {
    config << ", \"" << key << "\": [";
    for (std::size_t k = 0; k < factors->size(); ++k) config << (k ? ", " : "") << (*factors)[k];
    config << "]";
  }
  config << "}}";
  std::ofstream(dir / "config.json") << config.str();
  return "--config " + testing::shell_quote((dir / "config.json").string()) + " --sequence-length " +
         std::to_string(c.scaling.sequence_length);
}

HfCache write_with_script(const testing::TempDir& dir, const RotaryConvention& c, std::int64_t first, std::int64_t rows,
                          const std::string& backend) {
  const std::string command = python + " " + testing::shell_quote(script) + " " + script_source(c, dir) + " --rows " +
                              std::to_string(rows) + " --first-position " + std::to_string(first) + " --backend " +
                              backend + " --cos " + testing::shell_quote((dir / "cos.npy").string()) + " --sin " +
                              testing::shell_quote((dir / "sin.npy").string()) + " --inv-freq-out " +
                              testing::shell_quote((dir / "inv.npy").string()) + " 2>&1";
  const testing::CommandResult result = testing::run_command(command);
  if (result.status != 0) throw std::runtime_error(command + " failed: " + result.output);
  return {read_table_file(dir / "cos.npy").table, read_table_file(dir / "sin.npy").table,
          read_table_file(dir / "inv.npy").table};
}

bool torch_imports() { return testing::run_command(python + " -c 'import torch' 2>/dev/null").status == 0; }

void check_against_model_and_exact(const RotaryConvention& c, const std::string& backend) {
  testing::TempDir dir;
  const ComputationModel hf = *find_computation_model("hf-float32");
  const ComputationModel float64 = *find_computation_model("float64");
  const Format& f32 = format_of(FormatId::float32);
  const double a = rotary_derived(c).attention_factor;
  const double a_f = round_to_format(a, f32);
  for (const std::int64_t first : {std::int64_t{0}, std::int64_t{65536}, (std::int64_t{1} << 24) - 32}) {
    const std::int64_t rows = 32;
    const HfCache cache = write_with_script(dir, c, first, rows, backend);
    ASSERT_EQ(cache.cos.cols, rotary_columns(c)) << c.name;
    const RotaryCacheRequest request{first, rows, FormatId::float32};
    const auto model = reference::rotary_reference_cache(c, request, hf, 1);
    const auto exact = reference::rotary_reference_cache(c, request, std::nullopt, 1);
    double worst_model = 0.0;  // over entries whose angle is the model's
    int differing_frequencies = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      const double p = static_cast<double>(first + r);
      for (std::int64_t col = 0; col < cache.cos.cols; ++col) {
        const std::int64_t i = rotary_column_frequency(c, col);
        const double inv_r = reference::rotary_model_inv_freq(c, i, hf);
        const double w = reference::rotary_model_inv_freq(c, i, float64);  // the exact w within 2^-53 w
        const double angle = static_cast<float>(p) * static_cast<float>(inv_r);
        // NumPy's and torch's float32 pow are not correctly rounded: where the
        // script's inv_freq differs from the model's (by 1 or 2 ULP, counted below),
        // its float32 angle differs by this much, and sin and cos by at most a times it.
        const double script_inv = cache.inv_freq.at(0, i);
        const double script_angle = static_cast<float>(p) * static_cast<float>(script_inv);
        const double angle_shift = std::fabs(script_angle - angle);
        if (r == 0 && first == 0 && col == i) {
          differing_frequencies += script_inv != inv_r;
          // pow 1 ULP off is 2^-23 relative at most, up to 2 ULPs of 1 / pow.
          ASSERT_LE(std::fabs(script_inv - inv_r), 2 * ulp_of({inv_r, 0.0}, f32)) << c.name << " frequency " << i;
        }
        // What the model's rounding moves the angle by: p (inv_r - w), the
        // float32 product's rounding, and w's own 2^-53.
        const double angle_error = std::fabs(p * inv_r - p * w) + std::fabs(angle - p * inv_r) + p * w * 0x1.0p-52;
        const auto k = static_cast<std::size_t>(r * cache.cos.cols + col);
        for (const bool cosine : {true, false}) {
          const double got = cosine ? cache.cos.at(r, col) : cache.sin.at(r, col);
          const DoubleDouble m = cosine ? model.exact_cos[k] : model.exact_sin[k];
          const UlpError to_model = ulp_error(got, m, f32);
          if (angle_shift == 0.0) worst_model = std::max(worst_model, to_model.ulps);
          ASSERT_LE(absolute_error(got, m), hf_cache_bound_ulp(a) * ulp_of(m, f32) + a * angle_shift)
              << c.name << " " << backend << " position " << p << " column " << col << (cosine ? " cos" : " sin");
          // Against the exact encoding: the same plus what the model's
          // roundings of a and the angle are worth (sin and cos are 1-Lipschitz).
          const DoubleDouble e = cosine ? exact.exact_cos[k] : exact.exact_sin[k];
          const double allowed =
              hf_cache_bound_ulp(a) * ulp_of(m, f32) + a * angle_shift + std::fabs(a_f - a) + a * angle_error;
          ASSERT_LE(absolute_error(got, e), allowed * (1 + 0x1.0p-40))
              << c.name << " " << backend << " position " << p << " column " << col;
        }
      }
    }
    std::printf(
        "%s %s positions %lld..%lld: max %.3f ULP from the hf-float32 model where the angles agree (allowed %.3g)%s\n",
        c.name.c_str(), backend.c_str(), static_cast<long long>(first), static_cast<long long>(first + rows - 1),
        worst_model, hf_cache_bound_ulp(a),
        first == 0 ? (", inv_freq off the correctly rounded steps at " + std::to_string(differing_frequencies) +
                      " of " + std::to_string(rotary_derived(c).frequencies) + " frequencies")
                         .c_str()
                   : "");
  }
}

TEST(RotaryHfCache, numpyCachesMatchTheHfFloat32ModelAndTheExactEncodingWithinDerivedBounds) {
  for (const char* name : {"llama3.1", "yarn", "gpt-j", "llama2-meta", "gpt-neox"}) {
    check_against_model_and_exact(*find_rotary_preset(name), "numpy");
  }
  RotaryConvention phi3 = *find_rotary_preset("phi3-longrope");
  check_against_model_and_exact(phi3, "numpy");  // short factors
  phi3.scaling.sequence_length = 8192;
  check_against_model_and_exact(phi3, "numpy");  // long factors, beyond the original 4096
}

TEST(RotaryHfCache, torchCachesMatchTheHfFloat32Model) {
  if (!torch_imports()) GTEST_SKIP() << "PyTorch does not import in " << python;
  // torch's float32 cos and sin on CPU (SLEEF's u10 kernels: 1 ULP) are within the NumPy bound too.
  check_against_model_and_exact(*find_rotary_preset("yarn"), "torch");  // the attention factor too
}

// A fault the validation engineer injects must move the cache off the model:
// the check above can fail.
TEST(RotaryHfCache, aCacheWithBfloat16PositionsIsFarFromTheModel) {
  testing::TempDir dir;
  const RotaryConvention c = *find_rotary_preset("llama3.1");
  const std::string command = python + " " + testing::shell_quote(script) +
                              " --preset llama3.1 --rows 4 --first-position 40000 --positions bfloat16 --cos " +
                              testing::shell_quote((dir / "cos.npy").string()) + " --sin " +
                              testing::shell_quote((dir / "sin.npy").string());
  ASSERT_EQ(testing::run_command(command).status, 0);
  const Table cos = read_table_file(dir / "cos.npy").table;
  const auto model =
      reference::rotary_reference_cache(c, {40000, 4, FormatId::float32}, *find_computation_model("hf-float32"), 1);
  double worst = 0.0;
  for (std::int64_t r = 0; r < 4; ++r) {
    for (std::int64_t col = 0; col < cos.cols; ++col) {
      worst = std::max(worst, ulp_error(cos.at(r, col), model.exact_cos[static_cast<std::size_t>(r * cos.cols + col)],
                                        format_of(FormatId::float32))
                                  .ulps);
    }
  }
  EXPECT_GT(worst, 1e3 * hf_cache_bound_ulp(1.0));
}

}  // namespace
}  // namespace pecheck
