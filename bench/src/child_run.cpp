#include "child_run.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

extern char** environ;

namespace pecheck::bench {

ChildRun run_child(const std::vector<std::string>& argv) {
  const std::filesystem::path peak_file =
      std::filesystem::temp_directory_path() / ("pecheck-bench-peak-" + std::to_string(::getpid()));
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) environment.emplace_back(*e);
  environment.push_back("PECHECK_PEAK_RSS_FILE=" + peak_file.string());
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  ChildRun run;
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return run;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (FILE* peak = std::fopen(peak_file.c_str(), "r")) {
    if (std::fscanf(peak, "%lf", &run.peak_rss_bytes) != 1) run.peak_rss_bytes = 0.0;
    std::fclose(peak);
  }
  std::filesystem::remove(peak_file);
  return run;
}

std::filesystem::path scratch_directory() {
  if (::access("/dev/shm", W_OK) == 0) return "/dev/shm";
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
}

}  // namespace pecheck::bench
