#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <span>
#include <string>

#include "cli_options.hpp"
#include "commands.hpp"
#include "pecheck/sweep/result.hpp"
#include "pecheck/sweep/run.hpp"
#include "pecheck/table_file.hpp"
#include "sweep_options.hpp"

namespace pecheck::tools {

namespace {

// "3h05m", "4m10s", "12s": the time left, for progress lines.
std::string duration_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  char buffer[32];
  if (s >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", s / 3600, s % 3600 / 60);
  } else if (s >= 60) {
    std::snprintf(buffer, sizeof buffer, "%lldm%02llds", s / 60, s % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%llds", s);
  }
  return buffer;
}

// A progress line on stderr at most every 10 seconds: the entries done, the
// rate and the time left. Timing goes to stderr only, never into the result.
sweep::SweepProgress progress_lines(const std::string& label) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto last = start;
  return [=](std::int64_t done, std::int64_t total) mutable {
    const auto now = Clock::now();
    if (now - last < std::chrono::seconds(10) || done >= total) return;
    last = now;
    const double seconds = std::chrono::duration<double>(now - start).count();
    const double rate = static_cast<double>(done) / seconds;
    char line[256];
    std::snprintf(line, sizeof line, "pecheck sweep: %s: %.1f%% (%lld of %lld entries), %.3g M entries/s, about %s left",
                  label.c_str(), 100.0 * static_cast<double>(done) / static_cast<double>(total),
                  static_cast<long long>(done), static_cast<long long>(total), rate / 1e6,
                  duration_text(static_cast<double>(total - done) / rate).c_str());
    std::cerr << line << std::endl;
  };
}

}  // namespace

Command add_sweep_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "sweep",
      "Check a subject against the correctly rounded reference at every entry of every row in a\n"
      "range, for one width or a range of widths, and write the result as JSON that `pecheck merge`\n"
      "combines. --shard K/N runs shard K (from 0) of N: rows [F + floor(K M / N), F + floor((K+1) M / N))\n"
      "of the M rows F:L, every width at each; the N shards cover every row exactly once.\n"
      "The result holds the work, the shard, the counts (entries, beyond the subject's ULP budget,\n"
      "typed mismatches, reference escalations), the max and RMS ULP (the sum of squares kept exactly),\n"
      "the max abs error and the worst inputs. Exit 0 every entry within the budget, 1 not, 2 bad usage.\n"
      "Example: pecheck sweep --convention vaswani --dim 512 --positions 0:16777215 --shard 0/2 --output part0.json");
  struct Options {
    std::string convention;
    std::string dims;
    std::string dtype = "float32";
    std::string positions;
    std::string subject = "fast";
    std::string shard = "0/1";
    int threads = 0;
    std::string output;
  };
  auto options = std::make_shared<Options>();
  add_convention_option(*command, options->convention)->required();
  command->add_option("--dim", options->dims, "Width D, or widths FIRST:LAST[:STEP] (both included)")
      ->required()
      ->check(widths_text_validator());
  add_dtype_option(*command, options->dtype);
  command->add_option("--positions", options->positions,
                      "Table rows FIRST:LAST, both included, below 2^24 (all of them: 0:16777215)")
      ->required()
      ->check(positions_text_validator());
  command->add_option("--subject", options->subject, "What is checked: fast (pecheck's fast path) or reference")
      ->check(CLI::IsMember({"fast", "reference"}))
      ->capture_default_str();
  command->add_option("--shard", options->shard, "Shard K/N, K from 0 to N - 1 (default: the whole work)")
      ->check(shard_text_validator())
      ->capture_default_str();
  command->add_option("--threads", options->threads, "Threads for the reference (default: one per hardware thread)")
      ->transform(whole_number_at_least(1));
  command->add_option("--output", options->output, "The partial result, JSON")->required();

  return {command, [options] {
    const sweep::SweepWork work =
        sweep::make_work(options->convention, sweep::parse_widths(options->dims), *parse_format(options->dtype),
                         sweep::parse_positions(options->positions), options->subject);
    const sweep::Shard shard = sweep::parse_shard(options->shard);
    const sweep::InclusiveRange rows = sweep::shard_positions(work.positions, shard);
    // The output's temporary is created now: a missing or unwritable
    // directory fails before hours of work, not after them.
    AtomicFile output(options->output);
    const std::string label = "shard " + sweep::shard_text(shard) + " (rows " + sweep::range_text(rows) + ")";
    const sweep::SweepResult result{work, shard, rows,
                                    sweep::run_sweep(work, rows, options->threads, progress_lines(label))};
    const std::string json = sweep::result_json(result);
    output.write(json);
    output.commit();
    std::cout << work.convention << " d " << sweep::widths_text(work.dims) << " " << options->dtype << ", "
              << work.subject << ", rows " << sweep::range_text(work.positions) << ", " << label << ": "
              << sweep::result_summary(result) << "\n";
    return result.statistics.held() ? 0 : 1;
  }};
}

}  // namespace pecheck::tools
