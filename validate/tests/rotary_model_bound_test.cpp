// rotary/relative-position and rotary/pair-norm on caches computed as Hugging
// Face computes them (examples/rope_caches.py, NumPy): far out, a correct
// float32 cache conforms to the hf-float32 computation model and not to the
// exact encoding; judged by the model's bound (properties/src/rotary_bounds.cpp)
// both checks hold, and caches with positions in bfloat16 or angles in float16
// still fail relative-position under that bound.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pecheck/external_subjects.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "rotary_caches.hpp"

namespace pecheck::validate {
namespace {

constexpr std::int64_t far_first = (std::int64_t{1} << 20) - 512;  // rows up to 2^20 - 1
constexpr std::int64_t near_first = 4488;  // where the exact bound refused a correct cache (README)

class RotaryModelBound : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { python_ = testing::python_with_numpy(); }
  static inline std::optional<std::string> python_;

  struct Files {
    Table cos;
    Table sin;
  };

  std::optional<Files> cache(const std::string& arguments) {
    const testing::GeneratedCache files = testing::generated_cache(*python_, arguments);
    if (files.failure) {
      ADD_FAILURE() << *files.failure;
      return std::nullopt;
    }
    return Files{read_table_file(files.cos).table, read_table_file(files.sin).table};
  }
};

properties::Outcome run(std::string_view id, const Subject& subject) {
  const properties::Check* check = properties::find_check(id);
  if (check == nullptr) throw std::logic_error("no check " + std::string(id));
  return properties::run_check(*check, subject, properties::RunConfig{});
}

std::unique_ptr<Subject> subject_of(const Table& cos, const Table& sin, std::int64_t first,
                                    std::optional<ComputationModel> model) {
  return make_rotary_file_subject("cache", cos, sin, *find_rotary_preset("llama2"), first, std::move(model));
}

TEST_F(RotaryModelBound, aCorrectFloat32CacheFarOutHoldsBothChecksUnderTheModel) {
  if (!python_) GTEST_SKIP() << "no python3 with numpy";
  for (const std::int64_t first : {near_first, far_first}) {
    const auto files = cache("--preset llama2 --rows 512 --first-position " + std::to_string(first));
    ASSERT_TRUE(files);
    RotaryValidationOptions options;
    options.convention = find_rotary_preset("llama2");
    options.first_position = first;
    const Validation result = validate_rotary_cache(files->cos, files->sin, options);
    const std::string text = validation_text(result, "llama2 from " + std::to_string(first));
    // The premise: the model, not the exact encoding, is what this cache conforms to.
    ASSERT_EQ(result.comparisons.size(), 2u) << text;
    EXPECT_FALSE(result.comparisons[0].conforms) << text;
    ASSERT_TRUE(result.comparisons[1].conforms) << text;

    const auto judged = subject_of(files->cos, files->sin, first, find_computation_model("hf-float32"));
    const properties::Outcome relative = run(properties::check_ids::rotary_relative_position, *judged);
    EXPECT_EQ(relative.verdict, properties::Verdict::held) << relative.message;
    EXPECT_NE(relative.message.find("the computation model hf-float32's bound"), std::string::npos) << relative.message;
    const properties::Outcome norm = run(properties::check_ids::rotary_pair_norm, *judged);
    EXPECT_EQ(norm.verdict, properties::Verdict::held) << norm.message;

    // The disagreement the model's bound settles: the exact encoding's refuses the same cache.
    const auto exact = subject_of(files->cos, files->sin, first, std::nullopt);
    const properties::Outcome strict = run(properties::check_ids::rotary_relative_position, *exact);
    EXPECT_EQ(strict.verdict, properties::Verdict::failed) << strict.message;
    EXPECT_NE(strict.message.find("the exact encoding's bound"), std::string::npos) << strict.message;
  }
}

TEST_F(RotaryModelBound, faultyCachesStillFailRelativePositionUnderTheModel) {
  if (!python_) GTEST_SKIP() << "no python3 with numpy";
  struct Fault {
    std::string arguments;
    std::int64_t first;
  };
  for (const Fault& fault : {Fault{"--positions bfloat16", far_first}, Fault{"--positions bfloat16", near_first},
                             Fault{"--angles float16", near_first}}) {
    const auto files =
        cache("--preset llama2 --rows 512 --first-position " + std::to_string(fault.first) + " " + fault.arguments);
    ASSERT_TRUE(files);
    const auto judged = subject_of(files->cos, files->sin, fault.first, find_computation_model("hf-float32"));
    const properties::Outcome relative = run(properties::check_ids::rotary_relative_position, *judged);
    EXPECT_EQ(relative.verdict, properties::Verdict::failed)
        << fault.arguments << " from " << fault.first << ": " << relative.message;
  }
}

}  // namespace
}  // namespace pecheck::validate
