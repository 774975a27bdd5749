// Two faults of one computation at once: positions held in bfloat16 and the
// angles rounded to bfloat16 too (a rotary module cast to bfloat16 whole).
// Neither fault alone explains the output, and its garbled angles read as a
// position offset and another base; the diagnosis names both causes, no
// offset and no base, and puts POS's first position where POS says. Outputs
// written at test time by examples/rotated_outputs.py with NumPy and PyTorch.
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

struct CombinedCase {
  std::string name;
  std::string arguments;  // rotated_outputs.py's
  std::string preset;
};

const std::vector<CombinedCase>& cases() {
  static const std::vector<CombinedCase> all = {
      {"near16k", "--preset llama2 --shape lhd --heads 2 --length 256 --first-position 15900", "llama2"},
      {"at100k", "--preset llama2 --shape lhd --heads 2 --length 256 --first-position 100000", "llama2"},
      {"below2to20Bfloat16",
       "--preset llama3 --dtype bfloat16 --shape lhd --heads 2 --length 256 --first-position 1048320", "llama3"},
  };
  return all;
}

const std::optional<std::string>& python() {
  static const std::optional<std::string> found = testing::python_with_numpy();
  return found;
}

bool named(const Validation& r, K kind) {
  return std::any_of(r.hazards.begin(), r.hazards.end(), [kind](const Hazard& h) { return h.kind == kind; });
}

void expect_both_causes(const CombinedCase& c, const std::string& backend) {
  const testing::GeneratedRotation files =
      testing::generated_rotation(*python(), c.arguments + " --positions-in bfloat16 --angles bfloat16" + backend);
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  const RotatedSubject subject = read_rotated_subject(files.output, files.input, files.positions);
  RotatedOptions options;
  options.convention = find_rotary_preset(c.preset);
  const Validation result = validate_rotated_output(subject, options);
  const std::string text = validation_text(result, c.name + backend);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text;
  EXPECT_TRUE(named(result, K::position_precision)) << hazard_list(result) << text;
  EXPECT_TRUE(named(result, K::angle_precision)) << hazard_list(result) << text;
  EXPECT_FALSE(named(result, K::position_offset)) << text;
  EXPECT_FALSE(named(result, K::wrong_base)) << text;
  EXPECT_EQ(result.rotated().position_offset, 0) << text;
  const std::vector<std::int64_t>& pos = subject.positions.integers;
  EXPECT_EQ(result.rotated().first_position, *std::min_element(pos.begin(), pos.end())) << text;
}

class RotatedCombinedFaults : public ::testing::TestWithParam<CombinedCase> {};

TEST_P(RotatedCombinedFaults, positionsAndAnglesInBfloat16AreBothNamedWithNumpy) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  expect_both_causes(GetParam(), "");
}

TEST_P(RotatedCombinedFaults, positionsAndAnglesInBfloat16AreBothNamedWithTorch) {
  if (!python()) GTEST_SKIP() << "no python3 with numpy";
  if (!testing::python_imports_torch(*python())) GTEST_SKIP() << *python() << " cannot import torch";
  expect_both_causes(GetParam(), " --backend torch");
}

INSTANTIATE_TEST_SUITE_P(Cases, RotatedCombinedFaults, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<CombinedCase>& param) { return param.param.name; });

}  // namespace
}  // namespace pecheck::validate
