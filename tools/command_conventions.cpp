#include <iostream>

#include "commands.hpp"
#include "pecheck/convention.hpp"

namespace pecheck::tools {

Command add_conventions_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "conventions",
      "List the built-in conventions (presets) with their formulas.\n"
      "A convention is data: layout, frequency rule, the position each row holds, zero rows and the\n"
      "odd-width policy. The names are the values of --convention.");
  return {command, [] {
    for (const Convention& preset : all_presets()) {
      std::cout << preset.name << "\n  " << describe(preset) << "\n  source: " << preset.source << "\n";
    }
    return 0;
  }};
}

}  // namespace pecheck::tools
