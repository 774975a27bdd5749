// `pecheck validate`: its flags parsed into the library's argument record,
// and one library call (reports/validate_arguments.hpp) that picks the kind
// of subject, refuses the flags that do not apply to it and validates it.
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "pecheck/external_subjects.hpp"
#include "validate_flags.hpp"

namespace pecheck::tools {

namespace {

// The command line that writes the same report: every option given, as
// given (auto stays auto, so detection runs again as it did); --json only
// changes what is printed, not what is written.
std::string reproduce_command(const CLI::App& command, const std::string& output_dir) {
  std::string line = "pecheck validate";
  for (const CLI::Option* option : command.get_options()) {
    const std::string name = option->get_name();
    if (option->count() == 0 || name == "--json" || name == "--output-dir" || name == "--help") continue;
    if (option->get_expected_min() == 0) {
      line += " " + name;
      continue;
    }
    for (const std::string& value : option->results()) {
      line += (option->nonpositional() ? " " + name + " " : std::string(" ")) + shell_quote(value);
    }
  }
  return line + " --output-dir " + shell_quote(output_dir);
}

}  // namespace

Command add_validate_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "validate",
      "Check a third-party positional-encoding table (.npy or .safetensors) against the correctly rounded\n"
      "reference. The convention, layout, frequency rule and the row that file row 0 holds are detected\n"
      "from the table unless given; every entry (or, with --sample N, N deterministically sampled rows\n"
      "that include the worst ones, and the verdict says so) is compared in the table's format, and known numeric "
      "faults\n"
      "are diagnosed: positions held in bf16/fp16, angles computed in low precision, values outside\n"
      "[-1, 1], NaN or infinity, a table that is not a sinusoidal encoding.\n"
      "An entry passes when it is within the ULP budget, or within the error an ordinary float64\n"
      "computation may have (angle p * w rounded in float64, then sin/cos; the bound is derived in\n"
      "accuracy/include/pecheck/accuracy/angle_allowance.hpp); the output says which criterion\n"
      "decided.\n"
      "With --exec, an external command that writes tables is checked instead (see --exec); --exec-protocol, "
      "--timeout,\n"
      "--exec-dtype, --check, --cases, --seed and --quick apply only to it, the comparison options only\n"
      "to a FILE. A command that fails on its first call exits 2: it is broken, not deviating.\n"
      "With --exec and --rope PRESET or --config, the command writes rotary caches: pecheck asks it for 512 rows from\n"
      "positions 0, 15872 and 2^20 - 512 in each --exec-dtype ({dim} is the rotary width d, {output} gets a (2, rows, "
      "d)\n"
      "array, cos then sin) and validates each block as a cache file, with rotary/relative-position and "
      "rotary/pair-norm.\n"
      "With --input IN.npy --positions POS.npy, FILE is a RoPE kernel's output (rotated queries or keys), compared\n"
      "with the exact rotation of IN at POS and with the computation models; --rope/--config name the convention.\n"
      "With --vocabulary VOCAB.npy alone (--convention NAME [--scale S], no FILE), a trained embedding\n"
      "table is measured with the report's input-layer statistics (see --scale); nothing is asserted.\n"
      "Each flag's help says which kind of subject it applies to; one given to another kind is refused.\n"
      "Exit status: 0 conforms, 1 deviates or unknown, 2 bad input.\n"
      "Example: pecheck validate pe.npy --json");

  auto flags = std::make_shared<reports::ValidateArguments>();
  add_validate_flags(*command, *flags);
  return {command, [command, flags] {
            flags->given.clear();
            for (const CLI::Option* option : command->get_options()) {
              if (option->count() > 0 && option->get_name() != "--help") flags->given.push_back(option->get_name());
            }
            return reports::run_validate(*flags, reproduce_command(*command, flags->output_dir), std::cout);
          }};
}

}  // namespace pecheck::tools
