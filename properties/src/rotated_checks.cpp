// The checks on a kernel's own rotated outputs (RotaryKernel): the subject
// rotates queries at positions up to 2^20 and the two properties of
// rotated_properties.hpp are judged on what it returns, the same functions
// `pecheck validate OUT --input IN --positions POS` runs on an output file.
//   rotary/rotated-pair-norm: every pair keeps its norm (times A);
//   rotary/rotated-relative-position: q_m . k_n depends on m - n alone.
// A subject holding one rotation (an output file) is asked for exactly its
// rows; any other kernel for rows generated here in float32, float16 and
// bfloat16 under every preset.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/rotary_values.hpp"
#include "pecheck/properties/rotated_properties.hpp"
#include "pecheck/rotary_kernel.hpp"
#include "rotary_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::rotary {

namespace {

// One rotation asked of the kernel and what it returned.
struct KernelRun {
  std::string label;  // "llama2 float32"
  RotaryConvention convention;
  FormatId format = FormatId::float32;
  Table owned_input;  // generated rows (empty for a held rotation)
  TableView input;
  std::vector<std::int64_t> positions;
  std::vector<std::vector<std::int64_t>> mrope_positions;  // a held M-RoPE rotation's ids, else empty
  Table output;
};

// Positions in three blocks: from 0, from 4096, and ending at 2^20, where
// positions in bfloat16 are 4096 apart and float32 angles err by p ulp(theta).
std::vector<std::int64_t> kernel_positions(std::int64_t rows) {
  std::vector<std::int64_t> positions(static_cast<std::size_t>(rows));
  const std::int64_t third = rows / 3;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t block = std::min<std::int64_t>(r / std::max<std::int64_t>(third, 1), 2);
    const std::int64_t starts[] = {0, 4096, (std::int64_t{1} << 20) - (rows - 2 * third)};
    positions[static_cast<std::size_t>(r)] = starts[block] + r - block * third;
  }
  return positions;
}

std::vector<KernelRun> kernel_runs(const Subject& subject, const RotaryKernel& kernel, const RunConfig& config) {
  std::vector<KernelRun> runs;
  if (const std::optional<HeldRotation> held = kernel.held_rotation()) {
    KernelRun run{subject.name(), held->convention, held->format, Table{}, held->input, held->positions,
                  held->mrope_positions, Table{}};
    run.output = kernel.rotate(run.convention, run.input, run.positions, run.format);
    runs.push_back(std::move(run));
    return runs;
  }
  const std::int64_t rows = config.quick ? 48 : config.full ? 768 : 192;
  std::uint64_t stream = 600;
  for (const RotaryConvention& convention : swept_conventions()) {
    for (const FormatId format : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      KernelRun run;
      run.label = convention.name + " " + std::string(format_of(format).name);
      run.convention = convention;
      run.format = format;
      run.owned_input = gen::gaussian_table(scaling_support::stream_seed(config.seed, stream++), rows,
                                            convention.head_dim, 1.0, format);
      run.input = run.owned_input.view();
      run.positions = kernel_positions(rows);
      run.output = kernel.rotate(convention, run.input, run.positions, format);
      runs.push_back(std::move(run));
    }
  }
  return runs;
}

enum class Property { norm, relative };

Outcome judge(const Subject& subject, const RunConfig& config, Property which) {
  const RotaryKernel* kernel = rotary_kernel_of(subject);
  if (kernel == nullptr) {
    Outcome outcome;
    outcome.verdict = Verdict::not_applicable;
    outcome.message = "the subject does not rotate queries and keys (no RoPE kernel to ask)";
    return outcome;
  }
  Outcome outcome;
  double worst_ratio = 0.0;
  std::string worst_text = "none";
  std::int64_t violations = 0;
  const std::vector<KernelRun> runs = kernel_runs(subject, *kernel, config);
  for (const KernelRun& run : runs) {
    const RotaryDerived derived = rotary_derived(run.convention);
    const TableView output = run.output.view();
    std::vector<std::int64_t> pair_section;  // M-RoPE: the id row each pair turns by
    if (!run.mrope_positions.empty()) {
      for (std::int64_t i = 0; i < derived.dims / 2; ++i) pair_section.push_back(mrope_position_row(run.convention, i));
    }
    if (output.rows() != run.input.rows() || output.cols() != run.input.cols()) {
      throw SubjectError(run.label + ": the kernel returned (" + std::to_string(output.rows()) + ", " +
                         std::to_string(output.cols()) + ") for an input of (" + std::to_string(run.input.rows()) +
                         ", " + std::to_string(run.input.cols()) + ")");
    }
    const RotatedProperty p = which == Property::norm
                                  ? norm_property(run.input, output, run.convention.layout, derived.dims, run.format,
                                                  derived.attention_factor)
                                  : relative_position_property(run.input, output, run.positions, run.convention.layout,
                                                               derived.dims, run.format, derived.attention_factor,
                                                               rotary_inv_freqs(run.convention, std::nullopt), false,
                                                               run.mrope_positions, pair_section);
    outcome.cases += p.checked;
    violations += p.violations;
    if (p.checked > 0 && (p.worst_ratio > worst_ratio || std::isnan(p.worst_ratio))) {
      worst_ratio = std::isnan(p.worst_ratio) ? INFINITY : p.worst_ratio;
      worst_text = (runs.size() == 1 ? std::string() : run.label + ", ") + "row " + std::to_string(p.worst_row) +
                   " (position " + std::to_string(run.positions[static_cast<std::size_t>(p.worst_row)]) + "), pair " +
                   std::to_string(p.worst_pair) + ": " + scaling_support::format_number(p.worst_ratio) +
                   " times the bound " + p.bound;
    }
  }
  outcome.statistics.push_back(scaling_support::statistic(
      // The quantities of the cache checks (a pair's norm against A, a logit
      // against the exact relative rotation), measured here on the kernel's outputs.
      key_of(which == Property::norm ? Quantity::rotary_pair_norm_miss_ratio
                                     : Quantity::rotary_relative_position_miss_ratio),
      which == Property::norm ? "largest | |out| - A |in| | / bound" : "largest |out_m . out_n - exact| / bound",
      worst_ratio, std::nullopt, 1.0, worst_text));
  outcome.verdict = violations > 0 ? Verdict::failed : Verdict::held;
  // A held rotation (a file, one call of a kernel command) is named first: a
  // report of several calls tells them apart by it.
  outcome.message = (runs.size() == 1 ? runs.front().label + ": " : std::string()) + std::to_string(violations) +
                    " of " + std::to_string(outcome.cases) +
                    (which == Property::norm ? " pairs beyond the bound" : " pair products beyond the bound") +
                    "; worst: " + worst_text;
  return outcome;
}

Outcome rotated_pair_norm(const Subject& subject, const RunConfig& config) {
  return judge(subject, config, Property::norm);
}

Outcome rotated_relative_position(const Subject& subject, const RunConfig& config) {
  return judge(subject, config, Property::relative);
}

}  // namespace

const CheckDefinition rotated_pair_norm_check{
    .id = check_ids::rotated_pair_norm,
    .family = Family::rotary,
    .short_claim = "everyRotatedPairKeepsItsNorm",
    .claim =
        "every pair of the kernel's rotated output keeps its norm, |out| = A |in|, within (8u + 2^-21) A |in| + "
        "2s (u the output format's unit roundoff, s its smallest subnormal)",
    .source =
        "RoFormer section 3.2 (a rotation keeps lengths); the bound is derived in "
        "properties/src/rotated_properties.cpp",
    .kind = CheckKind::measurement,
    // Measured by the fault matrix: a wrong angle is still a rotation, so only
    // what moves a pair off its circle fails this check.
    .catches = {faults::kernel_cache_precision, faults::kernel_fast_trig, faults::kernel_layout_mismatch,
                faults::kernel_attention_factor, faults::kernel_partial_width, faults::kernel_partial_factor_ignored,
                faults::kernel_proportional_partial},
    .run = rotated_pair_norm,
};

const CheckDefinition rotated_relative_position_check{
    .id = check_ids::rotated_relative_position,
    .family = Family::rotary,
    .short_claim = "rotatedLogitsDependOnTheOffsetAlone",
    .claim =
        "q_m . k_n computed from the kernel's rotated q and k depends on m - n alone: pair by pair it is A^2 "
        "q_i^T R((n - m) theta_i) k_i within the bound the output's rounding and float32 angles allow",
    .source =
        "RoFormer section 3.4.2; kernels' position-dependent faults (kekzl/imp PR 1325, cactus-compute/cactus "
        "PR 688, ggml's theta *= theta_scale)",
    .kind = CheckKind::measurement,
    .catches = {faults::kernel_position_precision, faults::kernel_angle_precision, faults::kernel_inv_freq_precision,
                faults::kernel_cache_precision, faults::kernel_frequency_accumulation, faults::kernel_fast_trig,
                faults::kernel_layout_mismatch, faults::kernel_wrong_base, faults::kernel_wrong_scaling,
                faults::kernel_direction, faults::kernel_attention_factor, faults::kernel_partial_width,
                faults::kernel_partial_factor_ignored, faults::kernel_proportional_partial,
                faults::kernel_mrope_position_delta},
    .run = rotated_relative_position,
};

}  // namespace pecheck::properties::rotary
