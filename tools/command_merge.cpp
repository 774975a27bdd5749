#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pecheck/json_input.hpp"
#include "pecheck/one_line_text.hpp"
#include "pecheck/sweep/merge.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck::tools {

Command add_merge_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "merge",
      "Combine the partial results of `pecheck sweep --shard K/N` into the whole: the same bytes one\n"
      "unsharded sweep writes. Refuses (exit 2, naming the file and field) parts of different work,\n"
      "parts whose rows overlap, and missing rows. Exit 0 every entry within the budget, 1 not.\n"
      "Example: pecheck merge part0.json part1.json --output result.json");
  struct Options {
    std::vector<std::string> parts;
    std::string output;
  };
  auto options = std::make_shared<Options>();
  command->add_option("parts", options->parts, "The partial results (PART.json...)")->required()->check(CLI::ExistingFile);
  command->add_option("--output", options->output, "The merged result, JSON")->required();

  return {command, [options] {
    std::vector<sweep::NamedResult> parts;
    for (const std::string& path : options->parts) {
      const std::string text = read_json_input(path, sweep::max_result_file_bytes, "sweep part");
      parts.push_back({path, sweep::parse_result_json(text, escape_control_characters(path))});
    }
    const sweep::SweepResult merged = sweep::merge_results(parts);
    const std::string json = sweep::result_json(merged);
    write_file_atomically(options->output, std::as_bytes(std::span(json.data(), json.size())));
    std::cout << "merged " << parts.size() << (parts.size() == 1 ? " part" : " parts") << ": "
              << sweep::result_summary(merged) << "\n";
    return merged.statistics.held() ? 0 : 1;
  }};
}

}  // namespace pecheck::tools
