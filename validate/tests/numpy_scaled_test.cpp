// A correctly shaped sinusoid times a constant (NeMo's xscale, sockeye's
// scale-down, x-transformers' scaled output), written by NumPy at test time:
// named `scaled` with the constant, and whether it is a known one, instead of
// "not a sinusoidal encoding".
#include <gtest/gtest.h>

#include "hazard_lookup.hpp"
#include "numpy_tables.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::validate {
namespace {

const std::vector<std::string>& tables() {
  static const std::vector<std::string> all = {
      "vaswani 1000 256 0 float32 times_sqrt_d.npy --scale sqrt-d",
      "tf-tutorial 600 128 5 float16 times_inv_sqrt_d.npy --scale inv-sqrt-d",
      "fairseq 500 512 0 bfloat16 bf16_times_sqrt_d.npy --scale sqrt-d",
      "tensor2tensor 300 64 0 float32 times_3_5.npy --scale 3.5",
  };
  return all;
}

class NumpyScaled : public testing::NumpyTablesTest<tables> {};

struct ScaledCase {
  const char* file;
  const char* preset;
  std::int64_t offset;
  double scale;
  const char* named;  // the known constant's name, or "none of"
};

TEST_F(NumpyScaled, aScaledSinusoidIsNamedWithItsConstant) {
  for (const ScaledCase& c : {ScaledCase{"times_sqrt_d.npy", "vaswani", 0, 16.0, "s is sqrt(d)"},
                              ScaledCase{"times_inv_sqrt_d.npy", "tf-tutorial", 5, 0.0883883476, "s is 1/sqrt(d)"},
                              ScaledCase{"bf16_times_sqrt_d.npy", "fairseq", 0, 22.627417, "s is sqrt(d)"},
                              ScaledCase{"times_3_5.npy", "tensor2tensor", 0, 3.5, "none of sqrt(d)"}}) {
    SCOPED_TRACE(c.file);
    const Validation result = validate_table(table(c.file));
    EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
    EXPECT_EQ(result.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(result);
    const Hazard* scaled = result.hazard(HazardKind::scaled);
    ASSERT_NE(scaled, nullptr) << hazard_list(result);
    // tf-tutorial and marian-hf are the same table at even d.
    const std::string preset = c.preset == std::string("tf-tutorial") ? "is " : std::string("is ") + c.preset;
    EXPECT_NE(scaled->evidence.find(preset), std::string::npos) << scaled->evidence;
    EXPECT_NE(scaled->evidence.find("holding row " + std::to_string(c.offset) + ")"), std::string::npos)
        << scaled->evidence;
    EXPECT_NE(scaled->evidence.find(c.named), std::string::npos) << scaled->evidence;
    // The fitted constant, to the values' precision (bfloat16: 2^-8 relative).
    const std::size_t at = scaled->evidence.find("times s = ");
    ASSERT_NE(at, std::string::npos) << scaled->evidence;
    EXPECT_NEAR(std::stod(scaled->evidence.substr(at + 10)), c.scale, c.scale * 0x1p-8) << scaled->evidence;
  }
}

}  // namespace
}  // namespace pecheck::validate
