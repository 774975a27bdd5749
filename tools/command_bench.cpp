#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli_options.hpp"
#include "commands.hpp"
#include "pecheck/bench/figures.hpp"

namespace pecheck::tools {

namespace {

// The interpreter the Python module was built for and the directory the
// build put the package in (python/CMakeLists.txt defines both when it
// builds the module); without them the Python calls are not timed unless
// --python names an interpreter.
#ifdef PECHECK_BENCH_PYTHON
constexpr const char* built_python = PECHECK_BENCH_PYTHON;
constexpr const char* built_package_directory = PECHECK_BENCH_PYTHON_PATH;
#else
constexpr const char* built_python = "";
constexpr const char* built_package_directory = "";
#endif

}  // namespace

Command add_bench_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "bench",
      "Measure the fast path, each figure beside a reference taken in the same run: the float32\n"
      "encoding table (8192 x 1024) against a streaming store of the same size, with its accuracy\n"
      "on a sample of entries; float16 and bfloat16 against float32; the fast llama3.1 rotary cache\n"
      "(65536 x 128, cos and sin, float32) per entry against the float32 table per entry, with its\n"
      "accuracy on a sample against the exact rotary encoding; the fused embedding forward pass\n"
      "(8 x 1024 ids into a 32000 x 1024 vocabulary) against a triad of the same size; and the\n"
      "correctly rounded float32 and float64 reference tables as `pecheck table --impl reference`\n"
      "builds them (rounded values only), timed once, with the entries escalated to MPFR. Every fast\n"
      "figure is the best of several rounds. Then the commands users run (table, validate of a\n"
      "table, of a rotary cache, of a rotated output), each a process of its own with its peak\n"
      "memory, and the same validations as Python calls on tensors (pecheck.validate,\n"
      "validate_rope, validate_rotated) against the commands.\n"
      "Run it on a quiet machine: the load average is printed with the figures.\n"
      "Examples:\n"
      "  pecheck bench --json > bench.json\n"
      "  pecheck bench --quick                  # a smoke test of every figure, seconds\n"
      "  pecheck bench --python /usr/bin/python3   # the pecheck that interpreter imports (installed)\n"
      "  pecheck bench --no-python                # the commands only");
  struct Options {
    bool json = false;
    bool quick = false;
    bool skip_reference = false;
    int threads = 0;
    int repetitions = 0;
    std::string convention = "vaswani";
    std::string python;
    std::string python_path;
    bool no_python = false;
  };
  auto options = std::make_shared<Options>();
  command->add_flag("--json", options->json, "Print one JSON object instead of text");
  command->add_flag("--quick", options->quick, "Tiny sizes and one round: a smoke test, not a measurement");
  command->add_flag("--no-reference", options->skip_reference, "Skip the reference table (it takes seconds)");
  command->add_option("--threads", options->threads, "Threads (default: one per hardware thread)")
      ->transform(whole_number_at_least(1));
  command->add_option("--repetitions", options->repetitions, "Rounds to take the best of (default 21)")
      ->transform(whole_number_at_least(1));
  add_convention_option(*command, options->convention);
  CLI::Option* python = command->add_option(
      "--python", options->python,
      "The interpreter whose pecheck calls are timed, importing its own (installed) pecheck unless --python-path "
      "is given (default: the interpreter the module was built for, with the build's package)");
  command->add_option("--python-path", options->python_path, "The directory put on PYTHONPATH for those calls");
  command->add_flag("--no-python", options->no_python, "Do not time the Python calls")->excludes(python);

  return {command, [options] {
    bench::BenchOptions bench_options;
    bench_options.quick = options->quick;
    bench_options.threads = options->threads;
    bench_options.repetitions = options->repetitions;
    bench_options.convention = options->convention;
    bench_options.reference = !options->skip_reference;
    bench_options.executable = std::filesystem::read_symlink("/proc/self/exe").string();
    if (options->no_python) {
      bench_options.python = {};
    } else if (!options->python.empty()) {
      bench_options.python = {options->python, options->python_path};
    } else {
      bench_options.python = {built_python,
                              options->python_path.empty() ? std::string(built_package_directory) : options->python_path};
    }
    bench_options.progress = [](const std::string& line) { std::cerr << "pecheck bench: " << line << "\n"; };
    const bench::Figures figures = bench::measure_figures(bench_options);
    std::cout << (options->json ? bench::figures_json(figures) + "\n" : bench::figures_text(figures));
    return 0;
  }};
}

}  // namespace pecheck::tools
