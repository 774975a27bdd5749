// Subjects that are not pecheck's code: a table file, and an external command
// that writes tables on request (any language, any framework).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"
#include "pecheck/temporary_directory.hpp"

namespace pecheck {

// A table already read from a file, holding `convention`'s rows
// [row_offset, row_offset + rows) in its format: capabilities
// fixed_convention and fixed_request, the one format it holds.
std::unique_ptr<Subject> make_table_file_subject(std::string name, Table table, Convention convention,
                                                 std::int64_t row_offset);

// A rotary cache read from files: `convention`'s positions [first_position,
// first_position + rows) in the tables' format, served as rotary_cache()
// for requests within them (capabilities fixed_rotary_convention and
// fixed_rotary_request); no additive tables. `model`: the computation model
// the cache was judged against (capabilities rotary_model), when it was.
std::unique_ptr<Subject> make_rotary_file_subject(std::string name, Table cos, Table sin, RotaryConvention convention,
                                                  std::int64_t first_position,
                                                  std::optional<ComputationModel> model = std::nullopt);

// An external command as a subject, in one of two protocols.
//
// one-shot (the default): each table request runs
//   /bin/sh -c COMMAND
// with {rows}, {dim}, {offset}, {dtype} and {output} replaced by the request,
// each shell-quoted (a placeholder written inside its own quotes, '{output}'
// or "{output}", loses those quotes: it is quoted once, by pecheck), in a
// fresh temporary directory per call that holds {output}; the file it writes
// there is read with read_table_file. The call ends when the shell exits
// (not when its output closes); whatever is left of its process group is
// then killed.
//
// lines: COMMAND is started once (/bin/sh -c COMMAND, no placeholders) and
// answers requests on its stdin, one line each,
//   ROWS DIM OFFSET DTYPE OUTPUT
// (OUTPUT, the rest of the line, is an absolute path in a fresh temporary
// directory), with one line on its stdout: "ok" once the table is written
// at OUTPUT, or "error MESSAGE". It prints nothing else on stdout. When
// pecheck is done it closes the command's stdin; the command then exits
// (it is killed, with its process group, 5 s later). A command that exits,
// times out or breaks the protocol is started again for the next request.
//
// A rotary cache producer speaks the same protocol (CommandSubjectOptions
// rotary_convention set): each rotary_cache request is one call with {rows}
// the rows, {dim} the rotary width d (head_dim times the rotary fraction),
// {offset} the first position and {dtype} the format, and the one file at
// {output} holds both tables, as `pecheck validate COS` reads a cache alone:
// a (2, rows, d) array, cos then sin, or for the complex layout Meta's complex
// (rows, d/2) freqs_cis (rotary_cache_file.hpp). Such a subject offers rotary
// caches only.
//
// A command that times out, is killed by a signal, exits non-zero, writes no
// file, or writes the wrong shape or values of another format is a
// SubjectError with its output (stdout and stderr, the last 2000 bytes,
// control characters escaped), never a crash.
//
// A command that did not run to completion (timed out, killed by a signal,
// non-zero exit, an error reply) or wrote no file is a CommandFailedError: a
// caller may stop when the very first call fails so, since the command is
// broken rather than inaccurate.
class CommandFailedError : public SubjectError {
 public:
  using SubjectError::SubjectError;
};
// A call that did not finish within the timeout. After one, a command subject
// does not call the command again: every later call fails at once with a
// CommandFailedError saying so. A command that hangs after its second call
// was otherwise called once per remaining case, each waiting the full
// timeout (77 calls, 77 minutes at the default).
class CommandTimedOutError : public CommandFailedError {
 public:
  CommandTimedOutError(const std::string& message, std::chrono::milliseconds timeout)
      : CommandFailedError(message), timeout_(timeout) {}
  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  std::chrono::milliseconds timeout_;
};
// A call that failed while the command ran under a memory limit and what it
// printed says it could not allocate (Python's MemoryError, C++'s bad_alloc,
// PyTorch's "can't allocate memory", errno ENOMEM's text): the limit, not the
// encoding, stopped it.
class CommandOutOfMemoryError : public CommandFailedError {
 public:
  using CommandFailedError::CommandFailedError;
};
enum class CommandProtocol { one_shot, lines };
// What a model supports and what one call may use (validate --exec
// --max-position, --dim, --memory-limit), shared by every --exec runner.
// Checks see the first two in the subject's capabilities and generate
// nothing beyond them; the command subject refuses a request beyond them
// (a SubjectError) before running anything, so the command is never asked.
struct CallLimits {
  std::optional<std::int64_t> max_position;  // every position asked is below this
  std::optional<std::int64_t> max_dim;       // every width asked is at most this
  // RLIMIT_AS of the command's process (one-shot: each call's shell; lines:
  // the one process); 0: none.
  std::uint64_t memory_bytes = 0;
  // One line per call on stderr before it runs: "pecheck: call 12: ...";
  // from the second call on (the runner reports the first once it succeeded).
  bool progress = false;
};
// The calls made so far, shared like CommandTimeouts.
struct CallCounter {
  std::mutex mutex;
  std::int64_t calls = 0;
};
// The first call of a command that timed out, shared by every subject made
// from copies of one CommandSubjectOptions (a replay of a failing case makes
// a subject of its own): after it, none of them calls the command again.
struct CommandTimeouts {
  std::mutex mutex;
  std::string first;  // "did not finish within N ms" for the call that timed out; empty: none yet
};
struct CommandSubjectOptions {
  std::string command_template;
  CommandProtocol protocol = CommandProtocol::one_shot;
  Convention convention;                                 // the one convention it implements
  std::optional<RotaryConvention> rotary_convention;     // set: it writes this rotary convention's caches instead
  std::vector<FormatId> formats = {FormatId::float32};   // what it can write
  std::chrono::milliseconds timeout{60'000};
  std::string output_name = "table.npy";                 // .npy or .safetensors
  // When set, every call appends its command line (with {output} shown as
  // output_name) here, so a caller can print the calls of one failing case.
  std::shared_ptr<std::vector<std::string>> call_log;
  std::shared_ptr<CommandTimeouts> timeouts = std::make_shared<CommandTimeouts>();
  CallLimits limits;
  std::shared_ptr<CallCounter> counter = std::make_shared<CallCounter>();
};
std::unique_ptr<Subject> make_command_subject(CommandSubjectOptions options);

// Makes and removes one temporary directory as a call would; throws
// TemporaryDirectoryError naming TMPDIR when it cannot, so a caller can
// refuse to start rather than blame every call on the command.
void check_temporary_directory();

// The command line for one request, each substitution shell-quoted (and a
// placeholder inside its own quotes, '{x}' or "{x}", stripped of them).
// Unknown {names} are left as they are.
std::string command_for(const std::string& command_template, const TableRequest& request, FormatId format,
                        const std::string& output);

// 'text' for /bin/sh, with embedded single quotes escaped.
std::string shell_quote(const std::string& text);

}  // namespace pecheck
