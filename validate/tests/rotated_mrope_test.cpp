// Rotated outputs under M-RoPE (3-D position ids) and the proportional
// partial form, written at test time by examples/rotated_outputs.py from the
// model configs of examples/model_configs (NumPy, the public formulas):
// correct ones conform, each fault the issue lists is named, and POS's shape
// against the convention is refused with a message naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "hazard_lookup.hpp"
#include "pecheck/rotary_config.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "rotary_caches.hpp"
#include "rotated_outputs.hpp"

namespace pecheck::validate {
namespace {

using K = HazardKind;

const std::string configs = std::string(PECHECK_EXAMPLES_DIR) + "/model_configs/";

struct Case {
  std::string name;
  std::string config;     // a fixture of examples/model_configs
  std::string arguments;  // rotated_outputs.py's, beside --config
  std::string layer_type;
  std::optional<K> hazard;  // nullopt: conforms
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"qwen2VlImage", "qwen2-vl-7b.json", "--heads 2 --length 128 --first-position 40", "", std::nullopt},
      {"qwen2VlImageBfloat16Batch", "qwen2-vl-7b.json",
       "--shape bshd --batch 2 --heads 2 --length 128 --dtype bfloat16", "", std::nullopt},
      {"qwen2VlImagePerBatchIdsSbhd", "qwen2-vl-7b.json",
       "--shape sbhd --batch 3 --heads 2 --length 64 --mrope-batch-ids", "", std::nullopt},
      {"qwen3VlImagePerBatchIdsBhsd", "qwen3-vl-8b.json",
       "--shape bhsd --batch 2 --heads 2 --length 64 --dtype bfloat16 --mrope-batch-ids", "", std::nullopt},
      {"qwen2VlText", "qwen2-vl-7b.json", "--heads 2 --length 128 --mrope-ids text", "", std::nullopt},
      {"qwen3VlImage", "qwen3-vl-8b.json", "--heads 2 --length 128 --first-position 1000", "", std::nullopt},
      {"qwen35ImageFloat16", "qwen3.5-35b-a3b.json", "--heads 2 --length 128 --dtype float16", "", std::nullopt},
      {"gemma4Proportional", "gemma-4-e2b.json", "--heads 2 --length 256 --first-position 4000", "full_attention",
       std::nullopt},
      {"gemma4Sliding", "gemma-4-e2b.json", "--heads 2 --length 256 --layer-type sliding_attention",
       "sliding_attention", std::nullopt},
      // M-RoPE position ids off by one (vllm 16878): height and width one ahead.
      {"qwen2VlIdsOffByOne", "qwen2-vl-7b.json", "--heads 2 --length 128 --mrope-fault ids-off-by-one", "",
       K::position_offset},
      {"qwen3VlIdsOffByOneBfloat16", "qwen3-vl-8b.json",
       "--heads 2 --length 128 --dtype bfloat16 --mrope-fault ids-off-by-one", "", K::position_offset},
      {"qwen3VlSectionsIgnored", "qwen3-vl-8b.json", "--heads 2 --length 128 --mrope-fault sections-ignored", "",
       K::layout_mismatch},
      {"qwen2VlInterleavedForRuns", "qwen2-vl-7b.json", "--heads 2 --length 128 --mrope-fault other-split", "",
       K::layout_mismatch},
      // partial_rotary_factor ignored on the M-RoPE path (maxtext issue 4616): the whole head rotates.
      {"qwen35PartialFactorIgnored", "qwen3.5-35b-a3b.json", "--heads 2 --length 128 --rotary-width 256", "",
       K::partial_width},
      // A truncated partial rotary in the proportional form (pie PR 603).
      {"qwen35ProportionalForTruncated", "qwen3.5-35b-a3b.json", "--heads 2 --length 128 --proportional", "",
       K::partial_width},
  };
  return all;
}

const Case& named(const std::string& name) {
  return *std::find_if(cases().begin(), cases().end(), [&](const Case& c) { return c.name == name; });
}

const std::optional<std::string>& python() {
  static const std::optional<std::string> found = testing::python_with_numpy();
  return found;
}

Validation validate_case(const Case& c, std::string& text) {
  const testing::GeneratedRotation files =
      testing::generated_rotation(*python(), "--config " + configs + c.config + " " + c.arguments);
  if (files.failure) throw std::runtime_error(*files.failure);
  const RotatedSubject subject = read_rotated_subject(files.output, files.input, files.positions);
  RotatedOptions options;
  std::vector<RotaryConvention> layers = read_rotary_config_layers(configs + c.config);
  options.convention = choose_layer_type(std::move(layers), c.layer_type, c.config);
  Validation result = validate_rotated_output(subject, options);
  text = validation_text(result, c.name);
  return result;
}

class RotatedMrope : public ::testing::TestWithParam<Case> {};

TEST_P(RotatedMrope, isJudgedAndItsFaultNamed) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  const Case& c = GetParam();
  std::string text;
  const Validation result = validate_case(c, text);
  if (!c.hazard) {
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << hazard_list(result) << text;
    return;
  }
  EXPECT_NE(result.verdict, ValidationVerdict::conforms) << text;
  const auto found =
      std::find_if(result.hazards.begin(), result.hazards.end(), [&](const Hazard& h) { return h.kind == *c.hazard; });
  ASSERT_NE(found, result.hazards.end()) << "expected " << to_string(*c.hazard) << "; found " << hazard_list(result)
                                         << text;
}

const auto case_name = [](const ::testing::TestParamInfo<Case>& param) { return param.param.name; };
INSTANTIATE_TEST_SUITE_P(Cases, RotatedMrope, ::testing::ValuesIn(cases()), case_name);

// The off-by-one names the ids it moved; the proportional misreading names PR 603.
TEST(RotatedMropeEvidence, namesTheIdsAndTheForm) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  std::string text;
  const Validation shifted = validate_case(named("qwen2VlIdsOffByOne"), text);
  const auto offset = std::find_if(shifted.hazards.begin(), shifted.hazards.end(),
                                   [](const Hazard& h) { return h.kind == K::position_offset; });
  ASSERT_NE(offset, shifted.hazards.end()) << text;
  EXPECT_NE(offset->evidence.find("height and width ids + 1"), std::string::npos) << offset->evidence;
  const Validation proportional = validate_case(named("qwen35ProportionalForTruncated"), text);
  EXPECT_EQ(proportional.verdict, ValidationVerdict::deviates) << text;  // the kernel's width is not the given one
  EXPECT_NE(text.find("pie-project/pie PR 603"), std::string::npos) << text;
}

TEST(RotatedMropePositions, threeRowsWithoutSectionsAndOneRowWithThemAreRefused) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  const testing::GeneratedRotation image =
      testing::generated_rotation(*python(), "--config " + configs + "qwen2-vl-7b.json --heads 2 --length 64");
  ASSERT_FALSE(image.failure) << *image.failure;
  const RotatedSubject subject = read_rotated_subject(image.output, image.input, image.positions);
  RotatedOptions plain;
  plain.convention = find_rotary_preset("qwen2");
  try {
    validate_rotated_output(subject, plain);
    ADD_FAILURE() << "3 rows of ids under a convention without sections were accepted";
  } catch (const ValidationInputError& e) {
    EXPECT_NE(std::string(e.what()).find("mrope_section"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(image.positions.string()), std::string::npos) << e.what();
  }
  const testing::GeneratedRotation text_only =
      testing::generated_rotation(*python(), "--preset qwen2 --heads 2 --length 64");
  ASSERT_FALSE(text_only.failure) << *text_only.failure;
  RotatedOptions sectioned;
  sectioned.convention = read_rotary_config(configs + "qwen2-vl-7b.json");
  try {
    validate_rotated_output(read_rotated_subject(text_only.output, text_only.input, text_only.positions), sectioned);
    ADD_FAILURE() << "one row of positions under M-RoPE was accepted";
  } catch (const ValidationInputError& e) {
    EXPECT_NE(std::string(e.what()).find("(3, L)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pecheck::validate
