#include "pecheck/reports/training_family.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "pecheck/reports/check_exchange.hpp"
#include "pecheck/temporary_directory.hpp"

extern char** environ;

namespace pecheck::reports {

namespace {

std::optional<std::filesystem::path> training_executable() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  const std::filesystem::path beside = self.parent_path() / "pecheck-training";
  if (::access(beside.c_str(), X_OK) == 0) return beside;
  return std::nullopt;
}

}  // namespace

std::string training_absent_note() {
  return "The training family is absent: pecheck-training was not built beside pecheck (it needs libtorch, "
         "Debian's libtorch-dev, which scripts/setup installs), so nothing here measures learning.";
}

std::vector<properties::Check> run_training_family(const TrainingRequest& request, std::string& absent) {
  const std::optional<std::filesystem::path> executable = training_executable();
  if (!executable) {
    absent = training_absent_note();
    return {};
  }
  TemporaryDirectory directory(std::filesystem::temp_directory_path(), "pecheck-training-");
  const std::filesystem::path output = directory.path() / "training.json";
  std::vector<std::string> arguments = {executable->string(), "--output", output.string(), "--seed",
                                        std::to_string(request.seed)};
  if (request.quick) arguments.emplace_back("--quick");
  if (!request.fault.empty()) arguments.insert(arguments.end(), {"--fault", request.fault});
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  // One thread for every BLAS and OpenMP call: the runs are parallel
  // already (one a core), and OpenBLAS reads this when it loads, before main.
  std::vector<std::string> environment = {"OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1"};
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    if (!entry.starts_with("OMP_NUM_THREADS=") && !entry.starts_with("OPENBLAS_NUM_THREADS=")) {
      environment.emplace_back(entry);
    }
  }
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  // stdout and stderr are pecheck's: the runs' progress lines go straight to stderr.
  if (const int error = ::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data()); error != 0) {
    throw std::runtime_error(executable->string() + ": could not start it (" + std::to_string(error) + ")");
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(executable->string() + ": lost track of it");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(executable->string() + " failed (" +
                             (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                                : "signal " + std::to_string(WTERMSIG(status))) +
                             ")");
  }
  std::ifstream in(output);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<properties::Check> checks;
  for (ExchangedCheck& exchanged : read_exchanged_checks(text.str(), output.string())) {
    properties::Check check = std::move(exchanged.check);
    auto outcome = std::make_shared<const properties::Outcome>(std::move(exchanged.outcome));
    check.run = [outcome](const Subject&, const properties::RunConfig&) { return *outcome; };
    checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace pecheck::reports
