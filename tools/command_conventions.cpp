#include <iostream>

#include "commands.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::tools {

Command add_conventions_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "conventions",
      "List the built-in conventions (presets) with their formulas.\n"
      "A convention is data: layout, frequency rule, the position each row holds, zero rows and the\n"
      "odd-width policy. The names are the values of --convention.\n"
      "Then the rotary (RoPE) presets, the values of pecheck rope --preset, each with its source, and the\n"
      "computation models of pecheck rope --computation.");
  return {command, [] {
            for (const Convention& preset : all_presets()) {
              std::cout << preset.name << "\n  " << describe(preset) << "\n  source: " << preset.source << "\n";
            }
            std::cout << "\nrotary presets (pecheck rope --preset NAME)\n";
            for (const RotaryConvention& preset : rotary_presets()) {
              std::cout << preset.name << "\n  " << describe(preset) << "\n  source: " << preset.source << "\n";
            }
            std::cout << "\ncomputation models (pecheck rope --computation NAME)\n";
            for (const ComputationModel& model : computation_models()) {
              std::cout << model.name << "\n  " << model.description << "\n";
            }
            return 0;
          }};
}

}  // namespace pecheck::tools
