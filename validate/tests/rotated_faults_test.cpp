// Rotated outputs with each fault of the list, written at test time
// by examples/rotated_outputs.py (NumPy; PyTorch for a few), in float32,
// float16 and bfloat16, at positions up to 2^20: each deviates and the
// fault is named with its evidence.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hazard_lookup.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "rotary_caches.hpp"
#include "rotated_outputs.hpp"

namespace pecheck::validate {
namespace {

using K = HazardKind;

struct FaultCase {
  std::string name;
  std::string arguments;  // rotated_outputs.py's
  std::string preset;     // given as --rope
  K hazard;
  bool torch_too = false;
};

// 2^20 - 512: the last 512 positions below 2^20.
const std::string far = " --first-position 1048064 --length 512";

const std::vector<FaultCase>& cases() {
  static const std::vector<FaultCase> all = {
      {"positionsBfloat16Far", "--preset llama2 --dtype bfloat16 --heads 2" + far + " --positions-in bfloat16",
       "llama2", K::position_precision, true},
      {"positionsFloat16",
       "--preset llama2 --dtype float16 --heads 2 --length 512 --first-position 3000 --positions-in float16", "llama2",
       K::position_precision},
      {"anglesFloat16", "--preset llama2 --heads 2 --length 512 --first-position 1000 --angles float16", "llama2",
       K::angle_precision},
      {"anglesBfloat16Far", "--preset llama3 --dtype bfloat16 --heads 2" + far + " --angles bfloat16", "llama3",
       K::angle_precision, true},
      {"invFreqBfloat16", "--preset llama2 --heads 2 --length 512 --inv-freq bfloat16", "llama2",
       K::inv_freq_precision},
      {"invFreqFloat16", "--preset llama3 --dtype float16 --heads 2 --length 512 --inv-freq float16", "llama3",
       K::inv_freq_precision},
      {"cacheBfloat16", "--preset llama2 --form float32 --heads 2 --length 512 --first-position 4000 --cache bfloat16",
       "llama2", K::cache_precision, true},
      {"cacheFloat16", "--preset qwen2 --form float32 --heads 2 --length 512 --cache float16", "qwen2",
       K::cache_precision},
      {"frequencyAccumulationFar", "--preset llama2 --heads 2" + far + " --accumulate-frequencies", "llama2",
       K::frequency_accumulation},
      {"frequencyAccumulationBfloat16",
       "--preset llama2 --dtype bfloat16 --heads 2" + far + " --accumulate-frequencies", "llama2",
       K::frequency_accumulation},
      {"fastTrigBfloat16Far", "--preset llama2 --dtype bfloat16 --heads 2" + far + " --fast-trig", "llama2",
       K::fast_trig, true},
      {"fastTrigFloat32Far", "--preset mistral --heads 2" + far + " --fast-trig", "mistral", K::fast_trig},
      {"layoutMismatch", "--preset llama2 --heads 2 --length 256 --layout interleaved", "llama2", K::layout_mismatch,
       true},
      {"layoutMismatchNormal", "--preset gpt-j --dtype bfloat16 --heads 2 --length 256 --layout rotate-half", "gpt-j",
       K::layout_mismatch},
      {"wrongBase", "--preset llama2 --heads 2 --length 512 --base 500000", "llama2", K::wrong_base},
      {"wrongScaling", "--preset llama3.1 --heads 1 --length 2048 --scaling none", "llama3.1", K::wrong_scaling},
      {"direction", "--preset llama2 --dtype bfloat16 --heads 2 --length 256 --direction reverse", "llama2",
       K::direction, true},
      {"attentionFactorMissing", "--preset yarn --heads 2 --length 256 --attention-factor missing", "yarn",
       K::attention_factor},
      {"attentionFactorTwice", "--preset yarn --dtype bfloat16 --heads 2 --length 256 --attention-factor twice", "yarn",
       K::attention_factor},
      {"partialWidth", "--preset gpt-neox --heads 2 --length 256 --rotary-width 96", "gpt-neox", K::partial_width},
      {"positionOffByOne", "--preset llama2 --dtype float16 --heads 2 --length 256 --position-offset 1", "llama2",
       K::position_offset},
      // Meta's complex form and the float32-compute form with faults far out,
      // as the hf form above: each public form, correct (rotated_forms_test)
      // and faulty, up to 2^20.
      {"metaPositionsBfloat16Far", "--preset llama2 --form meta --heads 2" + far + " --positions-in bfloat16",
       "llama2-meta", K::position_precision, true},
      {"metaAnglesFloat16Bfloat16Out", "--preset llama2 --form meta --dtype bfloat16 --heads 2 --length 512 "
       "--first-position 20000 --angles float16", "llama2-meta", K::angle_precision, true},
      {"float32FormAnglesBfloat16FarFloat16",
       "--preset mistral --form float32 --dtype float16 --heads 2" + far + " --angles bfloat16", "mistral",
       K::angle_precision, true},
      {"float32FormFastTrigFar", "--preset llama2 --form float32 --heads 2" + far + " --fast-trig", "llama2",
       K::fast_trig, true},
  };
  return all;
}

const std::optional<std::string>& python() {
  static const std::optional<std::string> found = testing::python_with_numpy();
  return found;
}

void expect_diagnosed(const FaultCase& c, const std::string& backend) {
  const testing::GeneratedRotation files = testing::generated_rotation(*python(), c.arguments + backend);
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  const RotatedSubject subject = read_rotated_subject(files.output, files.input, files.positions);
  RotatedOptions options;
  options.convention = find_rotary_preset(c.preset);
  const Validation result = validate_rotated_output(subject, options);
  const std::string text = validation_text(result, c.name + backend);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text;
  const auto found = std::find_if(result.hazards.begin(), result.hazards.end(),
                                  [&](const Hazard& h) { return h.kind == c.hazard; });
  ASSERT_NE(found, result.hazards.end()) << "expected " << to_string(c.hazard) << "; found " << hazard_list(result)
                                         << text;
  EXPECT_FALSE(found->evidence.empty());
}

// PyTorch runs the faults marked torch_too: its start-up takes seconds.
std::vector<FaultCase> torch_cases() {
  std::vector<FaultCase> out;
  for (const FaultCase& c : cases()) {
    if (c.torch_too) out.push_back(c);
  }
  return out;
}

class RotatedFaults : public ::testing::TestWithParam<FaultCase> {};
class RotatedTorchFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(RotatedFaults, theNumpyFaultIsNamed) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  expect_diagnosed(GetParam(), "");
}

TEST_P(RotatedTorchFaults, theTorchFaultIsNamedAlike) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  if (!testing::python_imports_torch(*python())) GTEST_SKIP() << *python() << " cannot import torch";
  expect_diagnosed(GetParam(), " --backend torch");
}

const auto case_name = [](const ::testing::TestParamInfo<FaultCase>& param) { return param.param.name; };
INSTANTIATE_TEST_SUITE_P(Faults, RotatedFaults, ::testing::ValuesIn(cases()), case_name);
INSTANTIATE_TEST_SUITE_P(Faults, RotatedTorchFaults, ::testing::ValuesIn(torch_cases()), case_name);

}  // namespace
}  // namespace pecheck::validate
