#include "lines_command_subject.hpp"

#include <mutex>
#include <string>

#include "command_call.hpp"
#include "pecheck/one_line_text.hpp"
#include "persistent_process.hpp"

namespace pecheck {

namespace {

class LinesCommandSubject final : public CommandSubjectBase<LinesCommandSubject> {
 public:
  using CommandSubjectBase::CommandSubjectBase;

 private:
  friend class CommandSubjectBase<LinesCommandSubject>;

  // Sends `request` to the process and hands what it wrote to `read` while
  // the call's directory exists.
  template <class Read>
  CallResult<Read> call(const TableRequest& request, FormatId format, const Read& read) const {
    // One process answers one request at a time.
    const std::lock_guard<std::mutex> lock(mutex_);
    const CallDirectory directory;
    const std::filesystem::path output = directory.path() / options_.output_name;
    if (output.string().find('\n') != std::string::npos) {
      throw TemporaryDirectoryError("the temporary directory's path holds a newline, which a request line cannot "
                                    "carry: " + escape_control_characters(output.string()));
    }
    // What a user can run to repeat this request alone.
    const std::string shown = "echo " + shell_quote(request_line(request, format, options_.output_name)) + " | " +
                              options_.command_template;
    if (options_.call_log) options_.call_log->push_back(shown);
    const std::string call_text = "the command `" + escape_control_characters(shown) + "`";
    if (!process_ || !process_->usable()) process_ = std::make_unique<PersistentProcess>(options_.command_template);
    const PersistentProcess::Exchange exchange = process_->exchange(request_line(request, format, output), options_.timeout);
    const std::string printed = process_->stderr_tail();
    switch (exchange.outcome) {
      case PersistentProcess::Outcome::timed_out:
        process_.reset();
        throw CommandTimedOutError(call_text + " did not answer within " + std::to_string(options_.timeout.count()) +
                                 " ms" + what_it_printed(printed), options_.timeout);
      case PersistentProcess::Outcome::exited:
        process_.reset();
        throw CommandFailedError(call_text + " " + exchange.exit_text + " instead of answering" +
                                 what_it_printed(printed));
      case PersistentProcess::Outcome::reply_too_long:
        process_.reset();
        throw CommandFailedError(call_text + " wrote more than " +
                                 std::to_string(PersistentProcess::max_reply_bytes) +
                                 " bytes on stdout without a newline, beginning '" + escape_control_characters(exchange.reply) + "'" +
                                 " (expected one reply line: 'ok' or 'error MESSAGE')" + what_it_printed(printed));
      case PersistentProcess::Outcome::replied:
        break;
    }
    switch (meaning_of(exchange.reply)) {
      case ReplyMeaning::ok:
        break;
      case ReplyMeaning::error:
        throw CommandFailedError(call_text + " answered " + describe_reply(exchange.reply) + what_it_printed(printed));
      case ReplyMeaning::out_of_step:
        process_.reset();  // a fresh process for the next request
        throw CommandFailedError(call_text + " broke the protocol: it printed " + describe_reply(exchange.reply) +
                                 " on stdout, where only the reply 'ok' or 'error MESSAGE' belongs" +
                                 what_it_printed(printed));
    }
    if (!std::filesystem::exists(output)) {
      throw CommandFailedError(call_text + " answered ok but wrote no file at OUTPUT (" + options_.output_name + ")" +
                               what_it_printed(printed));
    }
    return read(call_text, output);
  }

  mutable std::mutex mutex_;
  mutable std::unique_ptr<PersistentProcess> process_;
};

}  // namespace

std::string request_line(const TableRequest& request, FormatId format, const std::string& output) {
  return std::to_string(request.rows) + " " + std::to_string(request.dim) + " " + std::to_string(request.row_offset) +
         " " + std::string(format_of(format).name) + " " + output;
}

std::unique_ptr<Subject> make_lines_command_subject(CommandSubjectOptions options) {
  return std::make_unique<LinesCommandSubject>(std::move(options));
}

}  // namespace pecheck
