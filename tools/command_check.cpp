#include <iostream>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "pecheck/number_text.hpp"
#include "commands.hpp"
#include "pecheck/reports/training_family.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/reference/reference_subject.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::tools {

namespace {

void print_outcome(const properties::Check& check, const properties::Outcome& outcome) {
  std::cout << check.id << ": " << properties::to_string(outcome.verdict) << " (" << count_of(outcome.cases, "case")
            << ")\n"
            << "  claim: " << check.claim << "\n  source: " << check.source << '\n';
  if (!outcome.message.empty()) std::cout << "  " << outcome.message << '\n';
  for (const accuracy::Measurement& m : outcome.measurements) {
    std::cout << "  " << format_of(m.format).name << ": max " << m.max_ulp << " ulp (budget " << m.budget_ulp
              << "), rms " << m.rms_ulp << " ulp, max abs error " << m.max_abs_error << ", worst at row "
              << m.worst.row << " column " << m.worst.column << ": " << m.worst.value_hex << " vs exact "
              << m.worst.exact_text << '\n';
  }
  for (const properties::Statistic& s : outcome.statistics) {
    std::cout << "  " << s.name << " = " << s.value;
    if (s.lower_bound) std::cout << ", lower bound " << *s.lower_bound;
    if (s.upper_bound) std::cout << ", upper bound " << *s.upper_bound;
    if (!s.note.empty()) std::cout << " (" << s.note << ')';
    std::cout << '\n';
  }
  if (outcome.verdict == properties::Verdict::failed && !outcome.counterexample.empty()) {
    std::cout << "  counterexample:\n";
    for (const auto& [name, value] : outcome.counterexample) std::cout << "    " << name << " = " << value << '\n';
  }
  if (outcome.seed) std::cout << "  seed: " << hex64(*outcome.seed) << '\n';
  if (!outcome.reproduce_command.empty()) std::cout << "  reproduce: " << outcome.reproduce_command << '\n';
}

// "scale-missing, scale-divided", or what an observation is.
std::string catches_text(const std::vector<std::string>& faults) {
  if (faults.empty()) return "no fault (an observation: shown as info, never as held)";
  std::string text;
  for (const std::string& fault : faults) text += (text.empty() ? "" : ", ") + fault;
  return text;
}

}  // namespace

Command add_check_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "check",
      "Run registered checks on a built-in subject and print each outcome.\n"
      "With no ID every check runs; --list prints the ids with their claims. A failed property prints\n"
      "its shrunk counterexample and the RC_PARAMS line that replays it.\n"
      "Example: pecheck check encoding-bounds/unit-interval --subject reference");
  struct Options {
    std::vector<std::string> ids;
    std::string subject = "fast";
    std::uint64_t seed = properties::RunConfig{}.seed;
    bool list = false;
  };
  auto options = std::make_shared<Options>();
  command->add_option("ID", options->ids, "Check ids (see --list)");
  command->add_option("--subject", options->subject, "Subject: fast (pecheck's implementation) or reference")
      ->check(CLI::IsMember({"fast", "reference"}))
      ->capture_default_str();
  command->add_option("--seed", options->seed, "Seed for generated cases, decimal or 0x hex (RC_PARAMS overrides)")
      ->transform(seed_number())
      ->default_str(hex64(options->seed));
  command->add_flag("--list", options->list, "List the registered checks and exit");

  return {command, [command, options] {
    if (options->list) {
      // --list runs nothing: what would shape a run is refused, not ignored.
      if (!options->ids.empty()) throw ConventionError("check: --list prints every check and runs none; drop the ids");
      for (const char* flag : {"--subject", "--seed"}) {
        if (command->count(flag) > 0) {
          throw ConventionError("check: --list prints every check and runs none; drop " + std::string(flag));
        }
      }
      for (const properties::Check& check : properties::all_checks()) {
        std::cout << check.id << " [" << properties::to_string(check.kind) << ", " << properties::to_string(check.role)
                  << "]\n  " << check.claim << "\n  catches: " << catches_text(properties::faults_caught_by(check.id))
                  << '\n';
      }
      return 0;
    }
    std::vector<const properties::Check*> selected;
    std::vector<properties::Check> training_checks;  // run once, then not resized: `selected` points into it
    if (options->ids.empty()) {
      for (const properties::Check& check : properties::all_checks()) selected.push_back(&check);
    }
    for (const std::string& id : options->ids) {
      const properties::Check* check = properties::find_check(id);
      if (check == nullptr && id.starts_with("training/")) {
        // The training family runs in pecheck-training, all its checks at
        // once (they share one grid of runs); the ones asked for are kept.
        if (training_checks.empty()) {
          std::string absent;
          training_checks = reports::run_training_family({options->seed, false, ""}, absent);
          if (!absent.empty()) throw ConventionError("check '" + id + "': " + absent);
        }
        for (const properties::Check& candidate : training_checks) {
          if (candidate.id == id) check = &candidate;
        }
      }
      if (check == nullptr) throw ConventionError("unknown check '" + id + "' (see pecheck check --list)");
      selected.push_back(check);
    }
    const std::unique_ptr<Subject> subject =
        options->subject == "reference" ? reference::make_reference_subject() : make_fast_subject();
    properties::RunConfig config;
    config.seed = options->seed;
    int status = 0;
    for (const properties::Check* check : selected) {
      const properties::Outcome outcome = properties::run_check(*check, *subject, config);
      print_outcome(*check, outcome);
      if (properties::spoils_a_pass(outcome.verdict)) status = 1;
    }
    return status;
  }};
}

}  // namespace pecheck::tools
