#include "pecheck/reports/rotary_exec_validation.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pecheck/external_subjects.hpp"
#include "pecheck/interrupts.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/reports/validation_report.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::reports {

namespace {

// The blocks asked for, each where a known fault shows (CONVENTIONS.md,
// "Rotary encodings"): the first rows, where every correct cache agrees with
// the exact encoding; rows past 2^14, where positions held in bfloat16 step
// by 64 (candle PR 3520: 15962 becomes 15936 or 15968) and float16 angles
// err by whole radians; and rows ending at 2^20, a long context, where a
// correct float32 angle errs by up to 2^-4 radian and only the computation
// model explains the cache.
constexpr std::int64_t block_rows = 512;
const std::vector<std::int64_t> block_firsts = {0, 15872, (std::int64_t{1} << 20) - block_rows};

const std::vector<std::string_view> rotary_check_ids = {properties::check_ids::rotary_relative_position,
                                                        properties::check_ids::rotary_pair_norm};

struct BlockRun {
  RotaryCacheRequest request;
  std::string call;  // the command line that writes this block
  validate::Validation result;
  std::optional<ComputationModel> checks_model;
  std::vector<properties::Outcome> checks;
  std::string error;  // the command's call failed or wrote what cannot be a cache
  bool passed = false;
};

BlockRun run_block(const Subject& command, const RotaryConvention& convention, const RotaryCacheRequest& request,
                   const std::string& model, const std::vector<std::string>& calls) {
  BlockRun run;
  run.request = request;
  const RotaryCache cache = command.rotary_cache(convention, request);
  run.call = calls.empty() ? std::string() : calls.back();
  validate::RotaryValidationOptions options;
  options.convention = convention;
  options.first_position = request.first_position;
  options.model = model;
  run.result = validate::validate_rotary_cache(cache.cos, cache.sin, options);
  run.passed = run.result.verdict == validate::ValidationVerdict::conforms;
  // The rows the command wrote, as `validate COS --output-dir` checks a file's:
  // by the model's bounds when the block conforms to the model alone.
  run.checks_model = rotary_checks_model(run.result, model);
  const std::unique_ptr<Subject> rows = make_rotary_file_subject(
      "rows", convert_table(cache.cos.view(), run.result.rotary().format), convert_table(cache.sin.view(), run.result.rotary().format),
      convention, request.first_position, run.checks_model);
  properties::RunConfig config;
  config.quick = true;
  for (const std::string_view id : rotary_check_ids) {
    run.checks.push_back(properties::run_check(*properties::find_check(id), *rows, config));
    throw_if_interrupted();
    run.passed = run.passed && run.checks.back().verdict == properties::Verdict::held;
  }
  return run;
}

// The blocks within the model's positions [0, max_position): each of
// block_firsts that fits, and the last rows below max_position in place of
// those that do not, each asked for once.
std::vector<RotaryCacheRequest> blocks_within(std::int64_t max_position, FormatId format) {
  std::vector<RotaryCacheRequest> blocks;
  const std::int64_t rows = std::min(block_rows, max_position);
  for (const std::int64_t wanted : block_firsts) {
    const std::int64_t first = std::min(wanted, max_position - rows);
    const bool seen = std::any_of(blocks.begin(), blocks.end(),
                                  [&](const RotaryCacheRequest& b) { return b.first_position == first; });
    if (!seen) blocks.push_back({first, rows, format});
  }
  return blocks;
}

std::string block_name(const RotaryCacheRequest& request) {
  return "rows " + std::to_string(request.first_position) + ".." +
         std::to_string(request.first_position + request.rows - 1) + " in " +
         std::string(format_of(request.format).name);
}

void print_text(const BlockRun& run) {
  if (!run.error.empty()) {
    std::cout << block_name(run.request) << ": deviates\n  " << run.error << '\n';
    return;
  }
  std::cout << validate::validation_text(run.result, block_name(run.request));
  std::cout << "  call: " << run.call << '\n';
  for (const properties::Outcome& o : run.checks) {
    std::cout << "  " << o.check_id << ": " << properties::to_string(o.verdict) << " (" << o.message << ")\n";
  }
}

nlohmann::json to_json(const BlockRun& run) {
  nlohmann::json checks = nlohmann::json::array();
  for (const properties::Outcome& o : run.checks) {
    checks.push_back(
        {{"check", o.check_id}, {"verdict", std::string(properties::to_string(o.verdict))}, {"message", o.message}});
  }
  if (!run.error.empty()) {
    return {{"first_position", run.request.first_position},
            {"rows", run.request.rows},
            {"dtype", std::string(format_of(run.request.format).name)},
            {"error", run.error},
            {"passed", false}};
  }
  return {{"first_position", run.request.first_position},
          {"rows", run.request.rows},
          {"dtype", std::string(format_of(run.request.format).name)},
          {"call", run.call},
          {"checks_bound", run.checks_model ? "the computation model " + run.checks_model->name : "the exact encoding"},
          {"validation", nlohmann::json::parse(validate::validation_json(run.result, block_name(run.request)))},
          {"checks", checks},
          {"passed", run.passed}};
}

int run_rotary_exec(const std::optional<RotaryConvention>& convention, const std::string& model, const ExecOptions& exec,
                    bool json) {
  if (!convention) {
    throw ConventionError(
        "--exec with rotary caches needs the convention the command implements: --rope PRESET or "
        "--config config.json (not --rope auto)");
  }
  if (!find_computation_model(model)) {
    throw ConventionError("--model '" + model + "': not a computation model (hf-float32, float64, ...)");
  }
  require_exec_template(exec);
  require_exec_temporary_directory();
  CommandSubjectOptions subject_options = command_subject_options(exec);
  subject_options.rotary_convention = convention;
  // The model's length: --max-position, else its max_position_embeddings
  // (config.json or the preset), else the blocks up to 2^20.
  const std::int64_t rotary_width = rotary_derived(*convention).dims;
  if (exec.dim && *exec.dim != rotary_width) {
    throw ConventionError("--dim " + std::to_string(*exec.dim) + ": " + convention->name +
                          " rotates " + std::to_string(rotary_width) +
                          " columns (head_dim times the rotary fraction); a rotary producer is asked for that width");
  }
  if (!subject_options.limits.max_position) {
    subject_options.limits.max_position =
        convention->max_position > 0 ? convention->max_position : block_firsts.back() + block_rows;
  }
  subject_options.limits.max_dim = rotary_width;
  // Said once the first block has come back: a command broken from the
  // start gets its error alone on stderr.
  bool noted = false;
  subject_options.output_name = "cache.npy";
  auto calls = std::make_shared<std::vector<std::string>>();
  subject_options.call_log = calls;
  const std::unique_ptr<Subject> command = make_command_subject(subject_options);

  std::vector<BlockRun> runs;
  bool passed = true;
  std::size_t total = 0;
  for (FormatId format : subject_options.formats) total += blocks_within(*subject_options.limits.max_position, format).size();
  for (FormatId format : subject_options.formats) {
    for (const RotaryCacheRequest& request : blocks_within(*subject_options.limits.max_position, format)) {
      try {
        runs.push_back(run_block(*command, *convention, request, model, *calls));
      } catch (const CommandFailedError& e) {
        // A timeout or the memory limit at any block stops the run: the
        // next block would wait or fail the same way.
        if (!runs.empty() && !stopping_failure(e).empty()) {
          std::cerr << "pecheck: --exec: stopped at " << block_name(request) << ": " << e.what() << '\n';
          return exit_broken_command;
        }
        // The very first call failing to run: the command is broken, not
        // deviating. A later one fails its block, as a wrong file does.
        if (runs.empty()) {
          std::cerr << "pecheck: " << broken_subject_message(e.what());
          return exit_broken_command;
        }
        runs.push_back(BlockRun{request, {}, {}, {}, {}, e.what(), false});
      } catch (const SubjectError& e) {
        runs.push_back(BlockRun{request, {}, {}, {}, {}, e.what(), false});
      }
      if (!noted) {
        std::cerr << limits_note(subject_options.limits) << "pecheck: call 1: " << block_name(request) << ": done\n";
        noted = true;
      }
      std::cerr << "pecheck: [" << runs.size() << "/" << total << "] "
                << block_name(request) << ": " << (runs.back().passed ? "passed" : "failed") << '\n';
      if (!json) print_text(runs.back());
      passed = passed && runs.back().passed;
    }
  }
  const std::string verdict = passed ? "conforms" : "deviates";
  if (json) {
    nlohmann::json blocks = nlohmann::json::array();
    for (const BlockRun& run : runs) blocks.push_back(to_json(run));
    const nlohmann::json out = {{"command", exec.command},
                                {"convention", convention->name},
                                {"model", model},
                                {"verdict", verdict},
                                {"blocks", blocks}};
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << verdict << ": " << runs.size() << " blocks of " << std::min(block_rows, *subject_options.limits.max_position) << " rows from `" << exec.command
              << "` (" << convention->name << ")\n";
  }
  return passed ? 0 : 1;
}

}  // namespace

int validate_rotary_exec(const std::optional<RotaryConvention>& convention, const std::string& model,
                         const ExecOptions& exec, bool json) {
  return run_interruptible([&] { return run_rotary_exec(convention, model, exec, json); });
}

}  // namespace pecheck::reports
