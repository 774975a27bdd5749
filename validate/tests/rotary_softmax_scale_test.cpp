// The attention softmax scale as a checked output of validate --config:
// DeepSeek-V3's config derives 192^-1/2 x get_mscale(40, 1)^2 (recomputed
// here from the fixture's fields); an engine's scale given with
// --softmax-scale is held to it, and the misreadings engines had are named
// (the square dropped: transformers issue 47435, Megatron-LM issue 1429).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "hazard_lookup.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_config.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {
namespace {

std::string fixture(const std::string& name) { return std::string(PECHECK_EXAMPLES_DIR) + "/model_configs/" + name; }

nlohmann::json fields(const std::string& name) {
  std::ifstream in(fixture(name));
  return nlohmann::json::parse(in);
}

struct Checked {
  Validation result;
  std::string notes;
};

// A correct cache of the config (the fast path's exact encoding, 256 rows),
// validated against the config with `given` as --softmax-scale.
Checked validated(const std::string& config, std::optional<double> given, bool with_config = true) {
  const RotaryConvention c = read_rotary_config(fixture(config));
  const RotaryCache cache = fast_rotary_cache(c, {0, 256, FormatId::float32});
  RotaryValidationOptions options;
  if (with_config) options.convention = c;
  options.softmax_scale = given;
  Checked checked{validate_rotary_cache(cache.cos, cache.sin, options), ""};
  for (const std::string& note : checked.result.notes) checked.notes += note + "\n";
  return checked;
}

// DeepseekV3Attention's scale from the fixture: (qk_nope + qk_rope)^-1/2 times
// (0.1 mscale_all_dim ln(factor) + 1)^2.
struct DeepSeekScale {
  double plain = 0.0;
  double mscale = 0.0;
  double scale() const { return plain * mscale * mscale; }
};

DeepSeekScale deepseek_scale() {
  const nlohmann::json f = fields("deepseek-v3.json");
  const double qk = f["qk_nope_head_dim"].get<double>() + f["qk_rope_head_dim"].get<double>();
  const double factor = f["rope_scaling"]["factor"], m_all = f["rope_scaling"]["mscale_all_dim"];
  return {1.0 / std::sqrt(qk), 0.1 * m_all * std::log(factor) + 1.0};
}

TEST(SoftmaxScale, deepseekV3sDerivedScaleIsPrintedWithItsDerivation) {
  const Checked c = validated("deepseek-v3.json", std::nullopt);
  EXPECT_EQ(c.result.verdict, ValidationVerdict::conforms) << hazard_list(c.result);
  EXPECT_NE(c.notes.find("softmax scale the config derives"), std::string::npos) << c.notes;
  EXPECT_NE(c.notes.find("192^-1/2 x get_mscale(40, 1)^2"), std::string::npos) << c.notes;
  // The printed value is the scale recomputed here, to the digits printed.
  const RotaryDerived d = rotary_derived(read_rotary_config(fixture("deepseek-v3.json")));
  EXPECT_NEAR(d.softmax_scale, deepseek_scale().scale(), 1e-15);
}

TEST(SoftmaxScale, theEnginesScaleInFloat32IsAccepted) {
  const double in_float32 = static_cast<float>(deepseek_scale().scale());
  const Checked c = validated("deepseek-v3.json", in_float32);
  EXPECT_EQ(c.result.verdict, ValidationVerdict::conforms) << hazard_list(c.result);
  EXPECT_EQ(c.result.hazard(HazardKind::softmax_scale), nullptr);
  EXPECT_NE(c.notes.find("the engine's scale is it"), std::string::npos) << c.notes;
}

TEST(SoftmaxScale, eachMisreadingIsNamed) {
  const DeepSeekScale s = deepseek_scale();
  const std::pair<double, const char*> cases[] = {
      {s.plain, "transformers issue 47435"},
      {s.plain * s.mscale, "once, not squared"},
      {s.scale() * std::sqrt(192.0 / 64.0), "the rotary width 64 taken for the query-key width 192"},
      {0.2, "none of the known misreadings"},
  };
  for (const auto& [given, words] : cases) {
    SCOPED_TRACE(given);
    const Checked c = validated("deepseek-v3.json", given);
    EXPECT_EQ(c.result.verdict, ValidationVerdict::deviates);
    const Hazard* h = c.result.hazard(HazardKind::softmax_scale);
    ASSERT_NE(h, nullptr) << hazard_list(c.result);
    EXPECT_NE(h->evidence.find(words), std::string::npos) << h->evidence;
  }
}

TEST(SoftmaxScale, aPlainModelSaysNothingUnlessAskedAndTheScaleNeedsTheModelsRule) {
  EXPECT_EQ(validated("llama-3.2-1b.json", std::nullopt).notes.find("softmax"), std::string::npos);
  const Checked right = validated("llama-3.2-1b.json", 0.125);  // head_dim 64
  EXPECT_EQ(right.result.verdict, ValidationVerdict::conforms) << hazard_list(right.result);
  EXPECT_NE(right.notes.find("the engine's scale is it"), std::string::npos) << right.notes;
  const Checked detected = validated("llama-3.2-1b.json", 0.125, false);
  EXPECT_NE(detected.notes.find("--softmax-scale was not checked"), std::string::npos) << detected.notes;
}

}  // namespace
}  // namespace pecheck::validate
