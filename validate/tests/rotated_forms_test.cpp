// Rotated outputs as published code computes them (transformers'
// apply_rotary_pos_emb, Meta's complex apply_rotary_emb, a float32 kernel),
// written at test time by examples/rotated_outputs.py in NumPy and PyTorch,
// in float32, float16 and bfloat16, in every shape users dump, at positions
// up to 2^20: each conforms, with the layout, width, convention and
// positions read from the data and no hazard.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hazard_lookup.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "rotary_caches.hpp"
#include "rotated_outputs.hpp"

namespace pecheck::validate {
namespace {

struct FormCase {
  std::string name;
  std::string arguments;  // rotated_outputs.py's
  std::string preset;     // what the detection must find (and what --rope gives in the given variant)
  RotaryLayout layout;
  std::int64_t width;
  std::optional<QkvFormat> qkv_format;
};

const std::vector<FormCase>& cases() {
  using L = RotaryLayout;
  static const std::vector<FormCase> all = {
      {"hfBfloat16", "--preset llama2 --dtype bfloat16 --length 256 --heads 4", "llama2", L::rotate_half, 128, {}},
      {"hfFloat16Far",
       "--preset llama3 --dtype float16 --length 256 --heads 2 --first-position 1048320",
       "llama3",
       L::rotate_half,
       128,
       {}},
      {"hfFloat32Bshd",
       "--preset qwen2 --shape bshd --batch 2 --heads 3 --length 200",
       "qwen2",
       L::rotate_half,
       128,
       {}},
      {"metaBfloat16Bhsd",
       "--preset llama2 --form meta --dtype bfloat16 --shape bhsd --batch 1 --heads 2 --length 300",
       "llama2-meta",
       L::interleaved,
       128,
       {}},
      {"float32FormFloat16Sbhd",
       "--preset mistral --form float32 --dtype float16 --shape sbhd --batch 2 --heads 2 --length 128",
       "mistral",
       L::rotate_half,
       128,
       {}},
      {"packedThd",
       "--preset llama2 --shape thd --batch 3 --heads 2 --length 100 --dtype bfloat16",
       "llama2",
       L::rotate_half,
       128,
       {}},
      {"gptNeoxPartial",
       "--preset gpt-neox --length 256 --heads 2 --dtype bfloat16",
       "gpt-neox",
       L::rotate_half,
       24,
       {}},
      {"gptjInterleavedPartial", "--preset gpt-j --length 256 --heads 2", "gpt-j", L::interleaved, 64, {}},
      {"yarnFactor", "--preset yarn --length 256 --heads 2 --first-position 500000", "yarn", L::rotate_half, 128, {}},
      // Over 2048 float32 positions the lowest frequencies (llama3.1 divides them by 8) are fitted
      // well enough to tell the scaled rule from the plain one; 256 bfloat16 positions are not.
      {"llama31Far",
       "--preset llama3.1 --length 2048 --heads 1 --first-position 1046528",
       "llama3.1",
       L::rotate_half,
       128,
       {}},
      // Each public form in each format at the far end (the 256 positions below 2^20).
      {"hfFloat32Far", "--preset llama2 --length 256 --heads 2 --first-position 1048320", "llama2", L::rotate_half,
       128, {}},
      {"hfBfloat16Far", "--preset llama3 --dtype bfloat16 --length 256 --heads 2 --first-position 1048320", "llama3",
       L::rotate_half, 128, {}},
      {"metaFloat32Far", "--preset llama2 --form meta --length 256 --heads 2 --first-position 1048320", "llama2-meta",
       L::interleaved, 128, {}},
      {"metaFloat16Far", "--preset llama2 --form meta --dtype float16 --length 256 --heads 2 --first-position 1048320",
       "llama2-meta", L::interleaved, 128, {}},
      {"metaBfloat16Far",
       "--preset llama2 --form meta --dtype bfloat16 --length 256 --heads 2 --first-position 1048320", "llama2-meta",
       L::interleaved, 128, {}},
      {"float32FormFloat32Far", "--preset mistral --form float32 --length 256 --heads 2 --first-position 1048320",
       "mistral", L::rotate_half, 128, {}},
      {"float32FormFloat16Far",
       "--preset mistral --form float32 --dtype float16 --length 256 --heads 2 --first-position 1048320", "mistral",
       L::rotate_half, 128, {}},
      {"float32FormBfloat16Far",
       "--preset llama3 --form float32 --dtype bfloat16 --length 256 --heads 2 --first-position 1048320", "llama3",
       L::rotate_half, 128, {}},
      {"ambiguousNamed", "--preset llama2 --shape bhsd --heads 32 --length 32", "llama2", L::rotate_half, 128,
       QkvFormat::bhsd},
  };
  return all;
}

const std::optional<std::string>& python() {
  static const std::optional<std::string> found = testing::python_with_numpy();
  return found;
}

class RotatedForms : public ::testing::TestWithParam<FormCase> {};

void expect_conforms(const FormCase& c, const std::string& backend, bool given) {
  const testing::GeneratedRotation files = testing::generated_rotation(*python(), c.arguments + backend);
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  const RotatedSubject subject = read_rotated_subject(files.output, files.input, files.positions);
  RotatedOptions options;
  options.qkv_format = c.qkv_format;
  if (given) options.convention = find_rotary_preset(c.preset);
  const Validation result = validate_rotated_output(subject, options);
  const std::string text = validation_text(result, c.name + backend);
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << text << hazard_list(result);
  EXPECT_TRUE(result.hazards.empty()) << hazard_list(result);
  EXPECT_EQ(result.rotated().layout, c.layout) << text;
  EXPECT_EQ(result.rotated().rotary_width, c.width) << text;
  EXPECT_EQ(result.rotated().position_offset, 0) << text;
  ASSERT_TRUE(result.rotated().convention.has_value()) << text;
  const RotaryDerived want = rotary_derived(*find_rotary_preset(c.preset));
  const RotaryDerived got = rotary_derived(*result.rotated().convention);
  EXPECT_EQ(got.effective_base, want.effective_base) << text;
  EXPECT_EQ(result.rotated().convention->scaling.kind, find_rotary_preset(c.preset)->scaling.kind) << text;
  // Both properties of the output's own values hold (rotated_properties.hpp).
  ASSERT_EQ(result.rotated().properties.size(), 2u) << text;
  for (const RotatedProperty& p : result.rotated().properties) EXPECT_TRUE(p.holds()) << text;
}

TEST_P(RotatedForms, theNumpyOutputConformsAndIsReadRight) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  expect_conforms(GetParam(), "", false);
}

TEST_P(RotatedForms, theTorchOutputConformsToTheGivenConvention) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  if (!testing::python_imports_torch(*python())) GTEST_SKIP() << *python() << " cannot import torch";
  expect_conforms(GetParam(), " --backend torch", true);
}

INSTANTIATE_TEST_SUITE_P(Forms, RotatedForms, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<FormCase>& param) { return param.param.name; });

}  // namespace
}  // namespace pecheck::validate
