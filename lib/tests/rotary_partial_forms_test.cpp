// M-RoPE's sections and the proportional partial form, read from the
// fixtures of examples/model_configs as transformers reads them, and checked
// against the public code written out independently here: the split of
// Qwen2-VL's apply_multimodal_rotary_pos_emb (cos.split(mrope_section * 2),
// chunk k from id row k % 3), Qwen3-VL's apply_interleaved_mrope (the
// temporal ids, then slice(1, 3 h, 3) from the height ids and slice(2, 3 w,
// 3) from the width ids), and _compute_proportional_rope_parameters
// (base^(-arange(0, 2 angles, 2) / head_dim), then zeros).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pecheck/rotary_config.hpp"
#include "pecheck/rotary_frequency.hpp"
#include "pecheck/testing/config_errors.hpp"

namespace pecheck {
namespace {

const std::filesystem::path configs = PECHECK_MODEL_CONFIGS;

nlohmann::json text_fields(const std::string& name) {
  std::ifstream in(configs / name);
  const nlohmann::json all = nlohmann::json::parse(in);
  return all.contains("text_config") ? all["text_config"] : all;
}

// The id row of each column of Qwen2-VL's (L, d) rotate-half cache: the d
// columns split into runs mrope_section * 2 (six runs), run k from row k % 3.
std::vector<std::int64_t> qwen2_vl_column_rows(const std::vector<std::int64_t>& section) {
  std::vector<std::int64_t> rows;
  for (int k = 0; k < 6; ++k) {
    for (std::int64_t j = 0; j < section[static_cast<std::size_t>(k % 3)]; ++j) rows.push_back(k % 3);
  }
  return rows;
}

// Qwen3-VL's interleaved assignment of the d/2 frequencies: row 0
// everywhere, then row dim at slice(dim, 3 * section[dim], 3) for dim 1, 2.
std::vector<std::int64_t> qwen3_vl_frequency_rows(const std::vector<std::int64_t>& section, std::int64_t n) {
  std::vector<std::int64_t> rows(static_cast<std::size_t>(n), 0);
  for (std::int64_t dim = 1; dim <= 2; ++dim) {
    for (std::int64_t j = dim; j < 3 * section[static_cast<std::size_t>(dim)] && j < n; j += 3) {
      rows[static_cast<std::size_t>(j)] = dim;
    }
  }
  return rows;
}

TEST(MropeSections, qwen2VlRunsFollowTheSplitOfTheCacheColumns) {
  const RotaryConvention c = read_rotary_config(configs / "qwen2-vl-7b.json");
  const RotaryDerived d = rotary_derived(c);
  const std::vector<std::int64_t> rows = qwen2_vl_column_rows(c.mrope_section);
  ASSERT_EQ(static_cast<std::int64_t>(rows.size()), d.dims);
  for (std::int64_t column = 0; column < d.dims; ++column) {
    EXPECT_EQ(mrope_position_row(c, rotary_column_frequency(c, column)), rows[static_cast<std::size_t>(column)])
        << "column " << column;
  }
}

TEST(MropeSections, qwen3VlAndQwen35InterleaveAsApplyInterleavedMropeDoes) {
  for (const char* name : {"qwen3-vl-8b.json", "qwen3.5-35b-a3b.json"}) {
    const RotaryConvention c = read_rotary_config(configs / name);
    ASSERT_TRUE(c.mrope_interleaved) << name;
    const std::int64_t n = rotary_derived(c).frequencies;
    const std::vector<std::int64_t> rows = qwen3_vl_frequency_rows(c.mrope_section, n);
    std::int64_t counts[3] = {0, 0, 0};
    for (std::int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(mrope_position_row(c, i), rows[static_cast<std::size_t>(i)]) << name << " frequency " << i;
      ++counts[mrope_position_row(c, i)];
    }
    // Each id drives as many frequencies as its section says.
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(counts[k], c.mrope_section[k]) << name << " section " << k;
  }
}

TEST(MropeSections, qwen35SectionsSplitTheRotaryWidthNotTheHead) {
  const nlohmann::json f = text_fields("qwen3.5-35b-a3b.json");
  const RotaryConvention c = read_rotary_config(configs / "qwen3.5-35b-a3b.json");
  EXPECT_EQ(c.rotary_fraction, f["rope_parameters"]["partial_rotary_factor"].get<double>());
  EXPECT_EQ(c.base, f["rope_parameters"]["rope_theta"].get<double>());
  const RotaryDerived d = rotary_derived(c);
  EXPECT_EQ(d.dims, static_cast<std::int64_t>(f["head_dim"].get<double>() * c.rotary_fraction));
  std::int64_t total = 0;
  for (std::int64_t s : c.mrope_section) total += s;
  EXPECT_EQ(total, d.dims / 2);
  // The partial factor dropped (maxtext issue 4616) leaves sections that no longer sum to the width's pairs.
  RotaryConvention whole = c;
  whole.rotary_fraction = 1.0;
  EXPECT_THROW(check_rotary_convention(whole), ConventionError);
  EXPECT_EQ(find_rotary_preset("qwen3.5")->mrope_section, c.mrope_section);
}

TEST(ProportionalForm, gemma4GlobalLayersFollowComputeProportionalRopeParameters) {
  const nlohmann::json f = text_fields("gemma-4-e2b.json");
  const std::vector<RotaryConvention> layers = read_rotary_config_layers(configs / "gemma-4-e2b.json");
  const RotaryConvention global = choose_layer_type(layers, "full_attention", "gemma-4-e2b.json");
  const RotaryConvention sliding = choose_layer_type(layers, "sliding_attention", "gemma-4-e2b.json");
  EXPECT_EQ(global.partial_form, PartialRotaryForm::proportional);
  EXPECT_EQ(sliding.partial_form, PartialRotaryForm::truncated);
  const std::int64_t head_dim = f["global_head_dim"];
  EXPECT_EQ(global.head_dim, head_dim);
  EXPECT_EQ(sliding.head_dim, f["head_dim"].get<std::int64_t>());
  const nlohmann::json& rule = f["rope_parameters"]["full_attention"];
  const double base = rule["rope_theta"], fraction = rule["partial_rotary_factor"];
  const RotaryDerived d = rotary_derived(global);
  // The cache is the whole head; int(rope_proportion * head_dim // 2) pairs rotate.
  EXPECT_EQ(d.dims, head_dim);
  const auto angles = static_cast<std::int64_t>(std::floor(fraction * static_cast<double>(head_dim) / 2.0));
  EXPECT_EQ(d.rotated_frequencies, angles);
  PlainDoubleArithmetic arithmetic;
  for (std::int64_t i = 0; i < d.frequencies; ++i) {
    const double got = rotary_inv_freq(global, d, i, arithmetic);
    if (i >= angles) {
      EXPECT_EQ(got, 0.0) << "frequency " << i << ": past the rotated pairs, torch.zeros";
      continue;
    }
    const double expected = 1.0 / std::pow(base, static_cast<double>(2 * i) / static_cast<double>(head_dim));
    EXPECT_NEAR(got, expected, 4e-16 * expected) << "frequency " << i;
  }
  // The truncated form of the same fields (pie PR 603's other side) spreads
  // 64 frequencies over the 128 rotary dims: frequency 1 is base^(-2/128), not base^(-2/512).
  RotaryConvention truncated = global;
  truncated.partial_form = PartialRotaryForm::truncated;
  const RotaryDerived t = rotary_derived(truncated);
  EXPECT_EQ(t.dims, head_dim / 4);
  EXPECT_NEAR(rotary_inv_freq(truncated, t, 1, arithmetic), std::pow(base, -2.0 / 128.0), 1e-15);
  EXPECT_EQ(find_rotary_preset("gemma4-global")->partial_form, PartialRotaryForm::proportional);
}

TEST(ProportionalForm, aFactorDividesAndOtherRulesAreRefused) {
  const RotaryConvention c = parse_rotary_config(
      R"({"head_dim": 256, "rope_parameters": {"rope_type": "proportional", "factor": 2.0, "partial_rotary_factor": 0.5,
          "rope_theta": 10000}})",
      "p.json");
  EXPECT_EQ(c.partial_form, PartialRotaryForm::proportional);
  EXPECT_EQ(c.scaling.kind, RotaryScalingKind::linear);
  PlainDoubleArithmetic arithmetic;
  const RotaryDerived d = rotary_derived(c);
  EXPECT_EQ(d.rotated_frequencies, 64);
  EXPECT_NEAR(rotary_inv_freq(c, d, 3, arithmetic), std::pow(10000.0, -6.0 / 256.0) / 2.0, 1e-16);
  EXPECT_EQ(rotary_inv_freq(c, d, 64, arithmetic), 0.0);
  RotaryConvention yarn = c;
  yarn.scaling.kind = RotaryScalingKind::yarn;
  yarn.scaling.original_max_position = 4096;
  EXPECT_THROW(check_rotary_convention(yarn), ConventionError);
  testing::expect_config_error_naming(
      R"({"head_dim": 8, "rope_parameters": {"rope_type": "proportional", "partial_rotary_factor": 0.1}})",
      "partial_rotary_factor");
}

}  // namespace
}  // namespace pecheck
