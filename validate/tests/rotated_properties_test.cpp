// The properties of a rotated output's own values (rotated_properties.hpp):
// both hold on a correct output, and each fails on the faults that break it
// (the fault matrix of the two properties), outputs written at test time by
// examples/rotated_outputs.py.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pecheck/validate/rotated_output.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "rotary_caches.hpp"
#include "rotated_outputs.hpp"

namespace pecheck::validate {
namespace {

struct PropertyCase {
  std::string name;
  std::string arguments;
  std::string preset;
  bool norm_holds;
  bool relative_holds;
};

const std::vector<PropertyCase>& cases() {
  static const std::vector<PropertyCase> all = {
      {"correctBfloat16", "--preset llama2 --dtype bfloat16 --heads 2 --length 256", "llama2", true, true},
      {"correctFloat32", "--preset yarn --heads 2 --length 256 --first-position 3000", "yarn", true, true},
      {"attentionFactorMissing", "--preset yarn --heads 2 --length 256 --attention-factor missing", "yarn", false,
       false},
      {"cacheBfloat16", "--preset llama2 --form float32 --heads 2 --length 256 --cache bfloat16", "llama2", false,
       false},
      {"direction", "--preset llama2 --dtype bfloat16 --heads 2 --length 256 --direction reverse", "llama2", true,
       false},
      {"positionsBfloat16", "--preset llama2 --heads 2 --length 256 --first-position 15900 --positions-in bfloat16",
       "llama2", true, false},
      {"anglesFloat16", "--preset llama2 --dtype float16 --heads 2 --length 256 --first-position 1000 --angles float16",
       "llama2", true, false},
  };
  return all;
}

const std::optional<std::string>& python() {
  static const std::optional<std::string> found = testing::python_with_numpy();
  return found;
}

const RotatedProperty* property(const Validation& r, const std::string& prefix) {
  for (const RotatedProperty& p : r.rotated().properties) {
    if (p.claim.rfind(prefix, 0) == 0) return &p;
  }
  return nullptr;
}

class RotatedProperties : public ::testing::TestWithParam<PropertyCase> {};

TEST_P(RotatedProperties, eachPropertyHoldsOrFailsAsTheComputationMakesIt) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  const PropertyCase& c = GetParam();
  const testing::GeneratedRotation files = testing::generated_rotation(*python(), c.arguments);
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  RotatedOptions options;
  options.convention = find_rotary_preset(c.preset);
  const Validation result =
      validate_rotated_output(read_rotated_subject(files.output, files.input, files.positions), options);
  const std::string text = validation_text(result, c.name);
  const RotatedProperty* norm = property(result, "every rotated pair");
  const RotatedProperty* relative = property(result, "q_m . k_n");
  ASSERT_NE(norm, nullptr) << text;
  ASSERT_NE(relative, nullptr) << text;
  EXPECT_EQ(norm->holds(), c.norm_holds) << text;
  EXPECT_EQ(relative->holds(), c.relative_holds) << text;
  EXPECT_GT(norm->checked, 0);
  EXPECT_GT(relative->checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Matrix, RotatedProperties, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<PropertyCase>& param) { return param.param.name; });

}  // namespace
}  // namespace pecheck::validate
