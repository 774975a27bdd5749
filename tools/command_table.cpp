#include <iostream>
#include <string>

#include "cli_options.hpp"
#include "commands.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::tools {

Command add_table_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "table",
      "Write a convention's positional-encoding table to a .npy or .safetensors file (by extension).\n"
      "Row r of the file holds the convention's row r + OFFSET. --impl reference writes the correctly\n"
      "rounded oracle (every entry within half an ulp of the exact value); --impl fast writes pecheck's\n"
      "fast implementation (float32 within 1 ulp). In .npy a bfloat16 table is written as float32 holding\n"
      "the bfloat16 values exactly, since NumPy has no bfloat16; .safetensors stores BF16 natively.\n"
      "Example: pecheck table --convention vaswani --rows 2048 --dim 512 --output pe.npy");
  struct Options {
    std::string convention;
    std::int64_t rows = 0;
    std::int64_t dim = 0;
    std::int64_t offset = 0;
    std::string dtype = "float32";
    std::string impl = "fast";
    std::string output;
  };
  auto options = std::make_shared<Options>();
  add_convention_option(*command, options->convention)->required();
  command->add_option("--rows", options->rows, "Number of rows N")->required()->transform(whole_number_at_least(1));
  command->add_option("--dim", options->dim, "Model width D (d_model)")->required()->transform(whole_number_at_least(1));
  command->add_option("--offset", options->offset, "Row offset K: row r holds the convention's row r + K")
      ->transform(whole_number_at_least(0))
      ->capture_default_str();
  add_dtype_option(*command, options->dtype);
  command->add_option("--impl", options->impl, "Implementation: fast or reference")
      ->check(CLI::IsMember({"fast", "reference"}))
      ->capture_default_str();
  command->add_option("--output", options->output, "Output file (.npy or .safetensors)")->required();

  return {command, [options] {
    // A relative convention's positions follow the table's length: the file
    // is rows [K, K + N) of the table of N + K rows.
    const Convention convention = for_rows(preset_by_name(options->convention), options->rows + options->offset);
    const FormatId format = *parse_format(options->dtype);
    const TableRequest request{options->rows, options->dim, options->offset};
    check_request(convention, request);
    if (options->impl == "reference") {
      write_table_file(options->output,
                       reference::reference_table(convention, request, format, 0, reference::ExactValues::none).rounded);
    } else {
      // A block of rows at a time: the command holds a few MiB, not the table.
      write_table_file(options->output, fast_row_blocks(convention, request, format));
    }
    return 0;
  }};
}

}  // namespace pecheck::tools
