// Which of `pecheck validate`'s flags apply to which kind of subject, as
// data: one row per flag. A flag given to a kind its row does not name is
// refused with that kind's reason, so no flag is silently ignored and a new
// flag cannot be forgotten in one kind's list of refusals.
#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pecheck/convention.hpp"
#include "pecheck/reports/validate_arguments.hpp"

namespace pecheck::reports {

namespace {

using Kinds = unsigned;
constexpr Kinds bit(ValidateKind kind) { return 1U << static_cast<unsigned>(kind); }
constexpr Kinds table_file = bit(ValidateKind::table_file), table_exec = bit(ValidateKind::table_exec),
                rotary_file = bit(ValidateKind::rotary_file), rotary_exec = bit(ValidateKind::rotary_exec),
                rotated_file = bit(ValidateKind::rotated_file), kernel = bit(ValidateKind::kernel),
                input_layer = bit(ValidateKind::input_layer), vocabulary = bit(ValidateKind::vocabulary);
constexpr Kinds every_kind = table_file | table_exec | rotary_file | rotary_exec | rotated_file | kernel |
                             input_layer | vocabulary;
// The kinds whose convention is a rotary one.
constexpr Kinds rotary_kinds = rotary_file | rotary_exec | rotated_file | kernel;
constexpr Kinds exec_kinds = table_exec | rotary_exec | kernel;

struct FlagUse {
  std::string_view flag;
  Kinds kinds;
};

// FILE's absence or presence is each kind's own check (run_validate), with
// a message saying what the file is for that kind.
constexpr FlagUse flag_uses[] = {
    {"FILE", every_kind},
    {"--json", every_kind},
    {"--output-dir", table_file | rotary_file | rotated_file | kernel | input_layer},
    {"--tensor", table_file},
    {"--convention", table_file | table_exec | input_layer | vocabulary},
    {"--offset", table_file | rotary_file},
    {"--max-ulp", table_file | rotary_file | rotated_file | kernel | input_layer},
    {"--max-abs-error", table_file | input_layer},
    {"--atol", table_file},
    {"--rtol", table_file},
    {"--dtype", table_file},
    {"--sample", table_file},
    {"--full", table_file},
    {"--ulp-only", table_file},
    {"--exec", exec_kinds},
    {"--exec-protocol", exec_kinds},
    {"--timeout", exec_kinds},
    {"--exec-dtype", exec_kinds},
    {"--max-position", exec_kinds},
    {"--dim", exec_kinds},
    {"--memory-limit", exec_kinds},
    {"--check", table_exec},
    {"--cases", table_exec},
    {"--seed", table_exec},
    {"--quick", table_exec},
    {"--sin", rotary_file},
    {"--config", rotary_kinds},
    {"--rope", rotary_kinds},
    {"--layout", rotary_kinds},
    {"--layer-type", rotary_kinds},
    {"--model", rotary_file | rotary_exec},
    {"--sequence-length", rotary_file | rotary_exec},
    {"--input", rotated_file},
    {"--qkv-format", rotated_file},
    {"--kernel", kernel},
    {"--positions", rotated_file | input_layer},
    {"--vocabulary", input_layer | vocabulary},
    {"--ids", input_layer},
    {"--scale", vocabulary},
    {"--context", vocabulary},
};

// Why a flag outside a kind's rows does not apply to it: what that kind
// compares, so the reader sees what to drop.
std::string_view reason_for(ValidateKind kind) {
  switch (kind) {
    case ValidateKind::table_file:
      return "applies only with --exec COMMAND, not to a FILE (a file is compared entry by entry, not by generated "
             "cases)";
    case ValidateKind::table_exec:
      return "applies only to a FILE, not with --exec (the checks on a command use pecheck's third-party budgets; "
             "--exec-dtype sets its formats)";
    case ValidateKind::rotary_file:
      return "does not apply to rotary caches (--sin, --config, --rope): they are compared entry by entry with the "
             "exact encoding and the computation model (--model)";
    case ValidateKind::rotary_exec:
      return "does not apply to a rotary cache producer (--exec with --rope or --config): pecheck asks it for fixed "
             "blocks of rows and holds them to its third-party budgets; --exec-dtype sets the formats";
    case ValidateKind::rotated_file:
      return "does not apply to rotated outputs (--input): every entry is compared with the exact rotation of the "
             "input at the positions given, and with the computation models";
    case ValidateKind::kernel:
      return "does not apply to a kernel (--kernel --exec): pecheck writes its inputs and positions, and validates "
             "each output as a rotated output file";
    case ValidateKind::input_layer:
      return "does not apply with --vocabulary/--ids (an input layer's output is read from .npy, its positions are "
             "given, and its recovered encoding is compared entry by entry)";
    case ValidateKind::vocabulary:
      return "does not apply to --vocabulary alone (nothing is compared: its statistics are printed)";
  }
  return {};
}

}  // namespace

void refuse_inapplicable_flags(const ValidateArguments& arguments) {
  const ValidateKind kind = validate_kind_of(arguments);
  for (const std::string& given : arguments.given) {
    const auto* use = std::find_if(std::begin(flag_uses), std::end(flag_uses),
                                   [&given](const FlagUse& row) { return row.flag == given; });
    if (use == std::end(flag_uses)) {
      throw std::logic_error("validate: the flag " + given + " has no row in the table of flags and kinds");
    }
    if ((use->kinds & bit(kind)) != 0) continue;
    // Two families of flags name where they belong rather than what the
    // chosen kind does: the rotary ones, and the vocabulary's statistics.
    std::string why(reason_for(kind));
    const bool rotary_kind = (bit(kind) & rotary_kinds) != 0;
    if ((use->kinds & ~rotary_kinds) == 0 && !rotary_kind) why = "applies only to rotary caches (with --sin, --config or --rope)";
    if (use->kinds == vocabulary) why = "applies only to --vocabulary alone (without --ids)";
    throw ConventionError("validate: " + given + " " + why);
  }
}

}  // namespace pecheck::reports
