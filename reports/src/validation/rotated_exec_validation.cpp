#include "pecheck/reports/rotated_exec_validation.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pecheck/atomic_file.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/reports/report_directory.hpp"
#include "pecheck/reports/report_files.hpp"
#include "pecheck/reports/report_run.hpp"
#include "pecheck/reports/validation_report.hpp"
#include "pecheck/rotated_command.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::reports {

namespace {

// Each call: 128 tokens of 4 heads, as (L, H, d) and as (B, L, H, d) with
// two sequences (the shapes of the exec protocol, rotated_command.hpp).
constexpr std::int64_t tokens = 128, heads = 4, batch = 2;
// Positions 2^24 and beyond are not whole in float32: no kernel's angles reach them exactly.
constexpr std::int64_t position_limit = std::int64_t{1} << 24;

struct Call {
  FormatId format = FormatId::float32;
  std::vector<std::int64_t> shape;
  std::int64_t first = 0;
  std::string command;  // as a user repeats it
  validate::Validation result;
  std::string error;  // the call failed or wrote what cannot be OUT
  bool passed = false;
};

// The tokens along L: (L, H, d) or (B, L, H, d).
std::int64_t length_of(const Call& c) { return c.shape[c.shape.size() - 3]; }

std::string call_name(const Call& c) {
  return "positions " + std::to_string(c.first) + ".." + std::to_string(c.first + length_of(c) - 1) + ", shape " +
         shape_text(c.shape) + ", " + std::string(format_of(c.format).name);
}

// Normal values (Box-Muller on a 64-bit LCG, Knuth's MMIX constants, seeded
// by the call) rounded to the format: queries as a layer norm leaves them.
Table queries(std::int64_t rows, std::int64_t head_dim, FormatId format, std::uint64_t seed) {
  Table in = make_table(rows, head_dim, format);
  std::uint64_t state = seed * 0x9e3779b97f4a7c15ULL + 1;
  const auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (static_cast<double>(state >> 11) + 0.5) * 0x1p-53;
  };
  for (std::int64_t k = 0; k < in.size(); ++k) {
    in.set_flat(k, std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()));
  }
  return in;
}

// The first position of each block: the start, the middle and the far end of [0, max_position).
std::vector<std::int64_t> block_firsts(std::int64_t max_position) {
  const std::int64_t last = std::max<std::int64_t>(0, max_position - tokens);
  std::vector<std::int64_t> firsts = {0, last / 2, last};
  firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
  return firsts;
}

// The kernel as the report names it (its figures are off: nothing else is asked of it).
class KernelCommandSubject final : public Subject {
 public:
  explicit KernelCommandSubject(std::string command) : command_(std::move(command)) {}
  std::string name() const override { return command_; }
  SubjectCapabilities capabilities() const override { return {}; }
  Table encoding_table(const Convention&, const TableRequest&, FormatId) const override {
    throw SubjectError("the kernel `" + command_ + "` rotates queries and keys; it writes no encoding table");
  }

 private:
  std::string command_;
};

nlohmann::json to_json(const Call& c) {
  nlohmann::json out = {{"first_position", c.first},
                        {"last_position", c.first + length_of(c) - 1},
                        {"shape", c.shape},
                        {"dtype", std::string(format_of(c.format).name)},
                        {"call", c.command},
                        {"passed", c.passed}};
  if (!c.error.empty()) {
    out["error"] = c.error;
  } else {
    out["validation"] = nlohmann::json::parse(validate::validation_json(c.result, call_name(c)));
  }
  return out;
}

int run_rotated_exec(const RotatedExecRequest& request, const ValidationOutput& output) {
  const bool json = output.json;
  if (!request.convention) {
    throw ConventionError(
        "--kernel --exec needs the convention the kernel implements: --rope PRESET or --config config.json "
        "(not --rope auto)");
  }
  if (!request.convention->mrope_section.empty()) {
    // The calls hand the kernel one row of positions; M-RoPE's three rows of
    // ids are checked from files (validate OUT --input IN --positions POS).
    throw ConventionError("--kernel --exec: the convention '" + request.convention->name +
                          "' is M-RoPE (mrope_section): its kernels take (3, L) ids, which --exec does not write; "
                          "validate their output files with --positions POS of shape (3, L)");
  }
  const std::int64_t max_position = rotated_exec_max_position(request);
  const std::string& text = request.exec.command;
  const bool lines = request.exec.protocol == "lines";
  for (const std::string name : {"{input}", "{positions}", "{output}", "{dtype}"}) {
    const bool present = text.find(name) != std::string::npos;
    if (lines && present) {
      throw ConventionError("--exec: " + name + " under --exec-protocol lines: the paths come on the request line "
                            "(DTYPE INPUT POSITIONS OUTPUT), not in the command");
    }
    const bool needed = name != "{dtype}" || request.exec.dtypes.size() > 1;
    if (!lines && needed && !present) {
      throw ConventionError("--kernel --exec: the command must hold " + name +
                            " (pecheck writes {input} and {positions}, the kernel writes {output}" +
                            (name == "{dtype}" ? std::string(", in {dtype} with several --exec-dtype") : "") + ")");
    }
  }
  require_exec_temporary_directory();
  // The report directory is locked and proven writable before the first call.
  std::optional<ReportDirectory> directory;
  if (!output.output_dir.empty()) directory.emplace(output.output_dir);
  std::vector<CheckResult> results;
  std::string printed;  // what the text output prints, for validation.txt
  const CommandSubjectOptions subject = command_subject_options(request.exec);
  RotatedCommand command({request.exec.command, subject.protocol, subject.timeout});
  const RotaryConvention& convention = *request.convention;
  const std::int64_t head_dim = convention.head_dim;
  const std::int64_t length = std::min(tokens, max_position);
  const std::vector<std::vector<std::int64_t>> shapes = {{length, heads, head_dim},
                                                         {batch, length, heads, head_dim}};
  const std::vector<std::int64_t> firsts = block_firsts(max_position);
  const std::size_t total = subject.formats.size() * firsts.size() * shapes.size();
  std::vector<Call> calls;
  bool passed = true;
  for (const FormatId format : subject.formats) {
    for (const std::int64_t first : firsts) {
      for (const std::vector<std::int64_t>& shape : shapes) {
        Call c{format, shape, first, {}, {}, {}, false};
        std::int64_t rows = 1;
        for (std::size_t a = 0; a + 1 < shape.size(); ++a) rows *= shape[a];
        const Table in = queries(rows, head_dim, format, calls.size() + 1);
        std::vector<std::int64_t> positions(static_cast<std::size_t>(length));
        for (std::int64_t k = 0; k < length; ++k) positions[static_cast<std::size_t>(k)] = first + k;
        try {
          NpyTensor out = command.rotate(in.view(), shape, positions, format);
          c.command = command.last_call();
          validate::RotatedSubject s;
          s.output = validate::owned_tensor(std::move(out.shape), std::move(out.values));
          s.input = validate::borrowed_tensor(shape, in.view());
          s.positions.dtype = "<i8";
          s.positions.integer = true;
          s.positions.shape = {length};
          s.positions.integers = positions;
          s.output_name = "OUT";
          s.input_name = "IN";
          s.positions_name = "POS";
          validate::RotatedOptions options;
          options.convention = convention;
          options.max_ulp = request.max_ulp;
          c.result = validate::validate_rotated_output(s, options);
          c.passed = c.result.verdict == validate::ValidationVerdict::conforms;
          if (directory) {
            // The call's comparison, diagnosis and checks on its own rows, named by the call.
            ValidatedValues values;
            values.rotated_input = s.input.values;
            values.rotated_output = s.output.values;
            values.row_position = validate::resolve_tokens(s, std::nullopt).row_position;
            for (CheckResult& r : validation_results(c.result, call_name(c), values, output.reproduce)) {
              results.push_back(std::move(r));
            }
          }
        } catch (const CommandFailedError& e) {
          // The very first call failing to run: the command is broken, not deviating.
          if (calls.empty()) {
            std::cerr << "pecheck: " << broken_subject_message(e.what());
            return exit_broken_command;
          }
          c.command = command.last_call();
          c.error = e.what();
        } catch (const SubjectError& e) {
          c.command = command.last_call();
          c.error = e.what();
        }
        calls.push_back(std::move(c));
        const Call& done = calls.back();
        std::cerr << "pecheck: [" << calls.size() << "/" << total << "] " << call_name(done) << ": "
                  << (done.passed ? "conforms" : done.error.empty() ? "deviates" : "failed") << '\n';
        const std::string call_text = done.error.empty()
                                          ? validate::validation_text(done.result, call_name(done)) + "  call: " +
                                                done.command + "\n"
                                          : call_name(done) + ": deviates\n  " + done.error + "\n";
        if (!json) std::cout << call_text;
        printed += call_text;
        passed = passed && done.passed;
      }
    }
  }
  const std::string verdict = passed ? "conforms" : "deviates";
  nlohmann::json blocks = nlohmann::json::array();
  for (const Call& c : calls) blocks.push_back(to_json(c));
  const std::string json_text = nlohmann::json{{"kind", "rotated-exec"},
                                               {"command", request.exec.command},
                                               {"convention", convention.name},
                                               {"max_position", max_position},
                                               {"verdict", verdict},
                                               {"calls", blocks}}
                                    .dump(2) +
                                "\n";
  const std::string summary = verdict + ": " + std::to_string(calls.size()) + " calls of `" + request.exec.command +
                              "` (" + convention.name + ", positions up to " + std::to_string(max_position - 1) + ")\n";
  printed += summary;
  std::cout << (json ? json_text : summary);
  if (directory) {
    write_file_atomically(directory->staging() / "validation.json", json_text);
    write_file_atomically(directory->staging() / "validation.txt", printed);
    ReportSettings settings;
    settings.mode = RunMode::quick;
    settings.command = "pecheck validate --kernel";
    settings.reproduce = output.reproduce;
    settings.figures = false;
    Report report = build_report(KernelCommandSubject(request.exec.command), std::move(results), settings);
    report.validation_text = printed;
    write_report_files(report, directory->staging());
    directory->commit();
  }
  return passed ? 0 : 1;
}

}  // namespace

std::int64_t rotated_exec_max_position(const RotatedExecRequest& request) {
  std::int64_t max_position = 0;
  if (request.exec.max_position) {
    max_position = *request.exec.max_position;
  } else if (request.convention && request.convention->max_position > 0) {
    // The longest context the config claims: max_position_embeddings times
    // the scaling factor; a rule that names the trained length apart
    // (original_max_position_embeddings: yarn, longrope, llama3) states the
    // extended length as max_position_embeddings already.
    const RotaryScaling& scaling = request.convention->scaling;
    const double factor = scaling.kind == RotaryScalingKind::none || scaling.original_max_position > 0
                              ? 1.0
                              : std::max(1.0, scaling.factor);
    max_position = static_cast<std::int64_t>(
        std::min(static_cast<double>(position_limit), std::floor(static_cast<double>(request.convention->max_position) * factor)));
  } else {
    throw ConventionError("--kernel --exec: the convention gives no max_position_embeddings: name the largest "
                          "position the kernel may be asked for with --max-position N");
  }
  if (max_position < 1 || max_position > position_limit) {
    throw ConventionError("--max-position " + std::to_string(max_position) +
                          ": expected 1 to 2^24 (positions beyond are not whole in float32)");
  }
  return max_position;
}

int validate_rotated_exec(const RotatedExecRequest& request, const ValidationOutput& output) {
  return run_interruptible([&] { return run_rotated_exec(request, output); });
}

}  // namespace pecheck::reports
