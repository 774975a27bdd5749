// pecheck-training: runs the training family on pecheck's fast subject (or
// one of the fault matrix's) and writes the checks and their outcomes as JSON
// for `pecheck report --training` and `pecheck check training/...`. Its own
// executable, so that only it loads libtorch (seconds of dynamic linking).
//
//   pecheck-training --output FILE [--seed S] [--quick] [--fault NAME] [--check ID]...
#include <algorithm>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "pecheck/atomic_file.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/reports/check_exchange.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/training/experiment.hpp"
#include "pecheck/training/training_checks.hpp"

namespace {

int usage(const std::string& message) {
  std::cerr << "pecheck-training: " << message
            << " (usage: pecheck-training --output FILE [--seed S] [--quick] [--fault NAME] [--check ID]...)\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pecheck;
  std::string output, fault;
  std::vector<std::string> ids;
  properties::RunConfig config;
  config.honour_rc_params = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool has_value = i + 1 < argc;
    if (flag == "--quick") {
      config.quick = true;
    } else if (flag == "--output" && has_value) {
      output = argv[++i];
    } else if (flag == "--fault" && has_value) {
      fault = argv[++i];
    } else if (flag == "--check" && has_value) {
      ids.emplace_back(argv[++i]);
    } else if (flag == "--seed" && has_value) {
      try {
        std::size_t used = 0;
        config.seed = std::stoull(argv[++i], &used, 0);
        if (argv[i][used] != '\0') return usage(std::string("--seed: expected a number, not '") + argv[i] + "'");
      } catch (const std::exception&) {
        return usage(std::string("--seed: expected a number, not '") + argv[i] + "'");
      }
    } else {
      return usage("unexpected argument '" + flag + "'");
    }
  }
  if (output.empty()) return usage("--output FILE is required");
  std::unique_ptr<Subject> subject = make_fast_subject();
  if (!fault.empty()) {
    bool found = false;
    for (const properties::Fault& f : properties::fault_matrix()) {
      if (f.name == fault) {
        subject = f.make(std::shared_ptr<const Subject>(std::move(subject)));
        found = true;
        break;
      }
    }
    if (!found) return usage("--fault: no fault named '" + fault + "' in the fault matrix");
  }
  training::set_training_progress([](const std::string& line) { std::cerr << line << '\n'; });
  std::vector<reports::ExchangedCheck> results;
  for (const properties::Check& check : training::training_checks()) {
    if (!ids.empty() && std::find(ids.begin(), ids.end(), check.id) == ids.end()) continue;
    reports::ExchangedCheck result{check, properties::run_check(check, *subject, config)};
    result.check.run = nullptr;
    results.push_back(std::move(result));
  }
  try {
    const std::string json = reports::write_exchanged_checks(results);
    write_file_atomically(output, std::as_bytes(std::span(json.data(), json.size())));
  } catch (const std::exception& e) {
    std::cerr << "pecheck-training: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
