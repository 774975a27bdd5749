// Diffusion timestep embeddings written at test time by
// examples/timestep_embeddings.py from the public formula of diffusers'
// get_timestep_embedding (long double rounded once, NumPy float32 and
// PyTorch float32): detection names the timestep preset, and the faults
// real code had are named by the argument that differs: downscale_freq_shift
// 1 for Stable Diffusion's 0 (kohya-ss/sd-scripts PR 1187) and the sin and
// cos halves swapped (flashinfer PR 3819).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string>

#include "hazard_lookup.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/testing/shell.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::validate {
namespace {

using testing::run_command;
using testing::shell_quote;

std::string script() { return std::string(PECHECK_EXAMPLES_DIR) + "/timestep_embeddings.py"; }

// The table of `arguments` (the script's, without OUTPUT), written once into
// the build tree under a hash of the script and the arguments.
struct Written {
  std::filesystem::path file;
  std::optional<std::string> failure;
};

Written written(const std::string& python, const std::string& arguments) {
  std::ifstream source(script());
  std::string key((std::istreambuf_iterator<char>(source)), std::istreambuf_iterator<char>());
  key += "\n" + arguments;
  const std::filesystem::path dir = std::filesystem::path(PECHECK_TABLE_CACHE_DIR) / "timestep";
  std::filesystem::create_directories(dir);
  Written result{dir / (std::to_string(std::hash<std::string>{}(key)) + ".npy"), std::nullopt};
  if (std::filesystem::exists(result.file)) return result;
  const std::filesystem::path writing = result.file.string() + ".writing.npy";  // renamed when whole
  const testing::CommandResult run = run_command(shell_quote(python) + " -B " + shell_quote(script()) + " " +
                                                 arguments + " " + shell_quote(writing.string()) + " 2>&1");
  if (run.status != 0) {
    result.failure = run.output;
    return result;
  }
  std::filesystem::rename(writing, result.file);
  return result;
}

bool imports_torch(const std::string& python) {
  return run_command(shell_quote(python) + " -c 'import torch' 2>/dev/null").status == 0;
}

// Stable Diffusion's time projection: 320 channels, timesteps 0..999.
const std::string stable_diffusion = "--flip-sin-to-cos --downscale-freq-shift 0";

class TimestepEmbedding : public ::testing::Test {
 protected:
  void SetUp() override {
    python_ = testing::python_with_numpy();
    if (!python_) GTEST_SKIP() << "no python3 with numpy";
  }
  Table table(const std::string& arguments) {
    const Written file = written(*python_, arguments);
    if (file.failure) ADD_FAILURE() << *file.failure;
    return read_table_file(file.file).table;
  }
  std::optional<std::string> python_;
};

bool names(const Detection& detection, const std::string& preset) {
  if (detection.preset == preset) return true;
  return std::find(detection.also_matches.begin(), detection.also_matches.end(), preset) !=
         detection.also_matches.end();
}

TEST_F(TimestepEmbedding, stableDiffusionsTableIsDetectedAsSdTimestepAndConforms) {
  for (const std::string dims : {"320", "321"}) {
    SCOPED_TRACE("d = " + dims);
    const Validation result = validate_table(table("1000 " + dims + " 0 " + stable_diffusion), {});
    ASSERT_TRUE(result.table().detection.preset.has_value()) << hazard_list(result);
    EXPECT_EQ(*result.table().detection.preset, "sd-timestep");
    EXPECT_EQ(result.table().detection.row_offset, 0);
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << hazard_list(result);

    ValidationOptions given;
    given.convention = *find_preset("sd-timestep");
    const Validation checked = validate_table(table("1000 " + dims + " 0 " + stable_diffusion), given);
    EXPECT_EQ(checked.verdict, ValidationVerdict::conforms) << hazard_list(checked);
  }
}

// get_timestep_embedding's defaults are tensor2tensor's table: both are named.
TEST_F(TimestepEmbedding, theFunctionsDefaultsAreDdpmTimestepIdenticalToTensor2tensor) {
  const Validation result = validate_table(table("1000 256 0"), {});
  EXPECT_TRUE(names(result.table().detection, "ddpm-timestep")) << hazard_list(result);
  EXPECT_TRUE(names(result.table().detection, "tensor2tensor"));
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << hazard_list(result);
}

struct FaultCase {
  std::string arguments;  // the table's, besides ROWS DIM OFFSET
  std::string found;      // the mismatch's evidence must name the table's value
  std::string given;      // and sd-timestep's
};

void expect_named_fault(const Table& table, const FaultCase& c) {
  ValidationOptions options;
  options.convention = *find_preset("sd-timestep");
  const Validation result = validate_table(table, options);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* mismatch = result.hazard(HazardKind::convention_mismatch);
  ASSERT_NE(mismatch, nullptr) << hazard_list(result);
  EXPECT_NE(mismatch->evidence.find(c.found), std::string::npos) << mismatch->evidence;
  EXPECT_NE(mismatch->evidence.find(c.given), std::string::npos) << mismatch->evidence;
  // The argument is the whole difference: no layout or rule named beside it.
  EXPECT_EQ(mismatch->evidence.find("differ in the layout"), std::string::npos) << mismatch->evidence;
  EXPECT_EQ(mismatch->evidence.find("frequency rule"), std::string::npos) << mismatch->evidence;
}

const FaultCase shift_one{"--flip-sin-to-cos --downscale-freq-shift 1", "downscale_freq_shift 1",
                          "downscale_freq_shift 0"};
const FaultCase halves_swapped{stable_diffusion + " --fault halves-swapped", "flip_sin_to_cos false",
                               "flip_sin_to_cos true"};

TEST_F(TimestepEmbedding, shiftOneForStableDiffusionsZeroIsNamed) {
  expect_named_fault(table("1000 320 0 " + shift_one.arguments), shift_one);
  expect_named_fault(table("1000 320 0 " + shift_one.arguments + " --compute numpy"), shift_one);
}

TEST_F(TimestepEmbedding, sinAndCosHalvesSwappedAreNamed) {
  expect_named_fault(table("1000 320 0 " + halves_swapped.arguments), halves_swapped);
  expect_named_fault(table("1000 320 0 " + halves_swapped.arguments + " --compute numpy"), halves_swapped);
}

// The function as it runs, in float32 (NumPy, then PyTorch): its angles
// carry float32 rounding (up to about 1e-4 at timestep 999), yet detection
// still names the convention, and a correct table given its convention has
// no mismatch.
TEST_F(TimestepEmbedding, float32TablesFromNumpyAndTorchAreRecognised) {
  std::vector<std::string> computes = {"numpy"};
  if (imports_torch(*python_)) computes.emplace_back("torch");
  for (const std::string& compute : computes) {
    SCOPED_TRACE(compute);
    const Table correct = table("1000 320 0 " + stable_diffusion + " --compute " + compute);
    const Validation detected = validate_table(correct, {});
    EXPECT_TRUE(names(detected.table().detection, "sd-timestep")) << hazard_list(detected);
    ValidationOptions given;
    given.convention = *find_preset("sd-timestep");
    const Validation checked = validate_table(correct, given);
    EXPECT_EQ(checked.hazard(HazardKind::convention_mismatch), nullptr) << hazard_list(checked);
    if (compute == "torch") {
      expect_named_fault(table("1000 320 0 " + shift_one.arguments + " --compute torch"), shift_one);
      expect_named_fault(table("1000 320 0 " + halves_swapped.arguments + " --compute torch"), halves_swapped);
    }
  }
  if (computes.size() == 1) GTEST_SKIP() << *python_ << " cannot import torch: the NumPy tables were checked";
}

}  // namespace
}  // namespace pecheck::validate
