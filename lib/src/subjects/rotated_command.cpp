#include "pecheck/rotated_command.hpp"

#include <string>

#include "command_call.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/one_line_text.hpp"
#include "pecheck/table_file.hpp"
#include "persistent_process.hpp"
#include "run_process.hpp"

namespace pecheck {

struct RotatedCommand::Process {
  std::unique_ptr<PersistentProcess> process;
};

RotatedCommand::RotatedCommand(RotatedCommandOptions options)
    : options_(std::move(options)), process_(std::make_unique<Process>()) {}

RotatedCommand::~RotatedCommand() = default;

namespace {

std::string request_line(FormatId format, const std::string& input, const std::string& positions,
                         const std::string& output) {
  return std::string(format_of(format).name) + " " + input + " " + positions + " " + output;
}

// OUT as the call wrote it: IN's shape, values of `format`.
NpyTensor read_output(const std::string& call_text, const std::filesystem::path& output,
                      const std::vector<std::int64_t>& shape, FormatId format) {
  NpyTensor out;
  try {
    out = read_npy_tensor(output);
  } catch (const TableFileError& e) {
    throw SubjectError(call_text + " wrote a file pecheck cannot read as OUT: " + e.what());
  }
  if (out.shape != shape) {
    throw SubjectError(call_text + " wrote OUT of shape " + shape_text(out.shape) + ", IN is " + shape_text(shape) +
                       ": expected the same shape");
  }
  if (const auto entry = first_entry_outside(out.values.view(), format)) {
    throw SubjectError(call_text + " wrote OUT with value " + std::to_string(out.values.at(entry->row, entry->col)) +
                       " (row " + std::to_string(entry->row) + " of the last axis, column " +
                       std::to_string(entry->col) + "), not a " + std::string(format_of(format).name) +
                       " value: expected OUT in the dtype asked for");
  }
  return out;
}

}  // namespace

NpyTensor RotatedCommand::rotate(const TableView& input, const std::vector<std::int64_t>& shape,
                                 std::span<const std::int64_t> positions, FormatId format) {
  if (!timed_out_.empty()) {
    throw CommandFailedError("not called: an earlier call " + timed_out_ +
                             ", and after one timeout the command is not called again, since each call would wait "
                             "the full --timeout");
  }
  const CallDirectory directory;
  const std::filesystem::path in = directory.path() / "in.npy", pos = directory.path() / "pos.npy",
                              out = directory.path() / "out.npy";
  write_npy_tensor(in, input, shape);
  write_npy_positions(pos, positions);
  std::string printed;
  if (options_.protocol == CommandProtocol::one_shot) {
    const auto command = [&](const std::string& i, const std::string& p, const std::string& o) {
      return substitute_placeholders(options_.command_template,
                                     {{"{input}", i}, {"{positions}", p}, {"{output}", o},
                                      {"{dtype}", std::string(format_of(format).name)}});
    };
    last_call_ = command("in.npy", "pos.npy", "out.npy");
    const std::string call_text = "the command `" + escape_control_characters(last_call_) + "`";
    const ProcessResult run = run_shell(command(in.string(), pos.string(), out.string()), options_.timeout);
    if (run.timed_out) {
      timed_out_ = "did not finish within " + std::to_string(options_.timeout.count()) + " ms";
      throw CommandTimedOutError(call_text + " " + timed_out_ + what_it_printed(run.output), options_.timeout);
    }
    if (run.signal != 0 || run.exit_status != 0) {
      throw CommandFailedError(call_text + " " + describe_exit(run) + what_it_printed(run.output));
    }
    printed = run.output;
    if (!std::filesystem::exists(out)) {
      throw CommandFailedError(call_text + " wrote no file at {output} (out.npy)" + what_it_printed(printed));
    }
    return read_output(call_text, out, shape, format);
  }
  if (directory.path().string().find_first_of(" \n") != std::string::npos) {
    throw TemporaryDirectoryError("the temporary directory's path holds a space or a newline, which a request line "
                                  "cannot carry: " + escape_control_characters(directory.path().string()));
  }
  last_call_ = "echo " + shell_quote(request_line(format, "in.npy", "pos.npy", "out.npy")) + " | " +
               options_.command_template;
  const std::string call_text = "the command `" + escape_control_characters(last_call_) + "`";
  std::unique_ptr<PersistentProcess>& process = process_->process;
  if (!process || !process->usable()) process = std::make_unique<PersistentProcess>(options_.command_template);
  const PersistentProcess::Exchange exchange =
      process->exchange(request_line(format, in.string(), pos.string(), out.string()), options_.timeout);
  printed = process->stderr_tail();
  switch (exchange.outcome) {
    case PersistentProcess::Outcome::timed_out:
      process.reset();
      timed_out_ = "did not answer within " + std::to_string(options_.timeout.count()) + " ms";
      throw CommandTimedOutError(call_text + " " + timed_out_ + what_it_printed(printed), options_.timeout);
    case PersistentProcess::Outcome::exited:
      process.reset();
      throw CommandFailedError(call_text + " " + exchange.exit_text + " instead of answering" + what_it_printed(printed));
    case PersistentProcess::Outcome::reply_too_long:
      process.reset();
      throw CommandFailedError(call_text + " wrote more than " + std::to_string(PersistentProcess::max_reply_bytes) +
                               " bytes on stdout without a newline (expected one reply line: 'ok' or 'error "
                               "MESSAGE')" + what_it_printed(printed));
    case PersistentProcess::Outcome::replied:
      break;
  }
  if (exchange.reply.rfind("error", 0) == 0) {
    throw CommandFailedError(call_text + " answered " + excerpt(exchange.reply, 400) + what_it_printed(printed));
  }
  if (exchange.reply != "ok") {
    process.reset();
    throw CommandFailedError(call_text + " broke the protocol: it printed " + quoted_excerpt_of(exchange.reply, 200) +
                             " on stdout, where only the reply 'ok' or 'error MESSAGE' belongs" +
                             what_it_printed(printed));
  }
  if (!std::filesystem::exists(out)) {
    throw CommandFailedError(call_text + " answered ok but wrote no file at OUTPUT (out.npy)" + what_it_printed(printed));
  }
  return read_output(call_text, out, shape, format);
}

}  // namespace pecheck
