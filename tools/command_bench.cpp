#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli_options.hpp"
#include "commands.hpp"
#include "pecheck/bench/figures.hpp"

namespace pecheck::tools {

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
      "figure is the best of several rounds.\n"
      "Run it on a quiet machine: the load average is printed with the figures.\n"
      "Example: pecheck bench --json > bench.json");
  struct Options {
    bool json = false;
    bool quick = false;
    bool skip_reference = false;
    int threads = 0;
    int repetitions = 0;
    std::string convention = "vaswani";
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

  return {command, [options] {
    bench::BenchOptions bench_options;
    bench_options.quick = options->quick;
    bench_options.threads = options->threads;
    bench_options.repetitions = options->repetitions;
    bench_options.convention = options->convention;
    bench_options.reference = !options->skip_reference;
    bench_options.executable = std::filesystem::read_symlink("/proc/self/exe").string();
    bench_options.progress = [](const std::string& line) { std::cerr << "pecheck bench: " << line << "\n"; };
    const bench::Figures figures = bench::measure_figures(bench_options);
    std::cout << (options->json ? bench::figures_json(figures) + "\n" : bench::figures_text(figures));
    return 0;
  }};
}

}  // namespace pecheck::tools
