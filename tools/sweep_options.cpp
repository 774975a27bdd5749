#include "sweep_options.hpp"

#include "pecheck/sweep/work.hpp"

namespace pecheck::tools {

namespace {

// A validator whose message is the parser's own (CLI11 puts the flag first).
template <typename Parse>
CLI::Validator parsed_by(Parse parse, const std::string& name) {
  return CLI::Validator(
      [parse](std::string& value) -> std::string {
        try {
          (void)parse(value);
          return {};
        } catch (const sweep::SweepUsageError& e) {
          return e.what();
        }
      },
      name);
}

}  // namespace

CLI::Validator shard_text_validator() { return parsed_by(sweep::parse_shard, "K/N"); }
CLI::Validator positions_text_validator() { return parsed_by(sweep::parse_positions, "FIRST:LAST"); }
CLI::Validator widths_text_validator() { return parsed_by(sweep::parse_widths, "D|FIRST:LAST[:STEP]"); }

}  // namespace pecheck::tools
