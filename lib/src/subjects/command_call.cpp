#include "command_call.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <system_error>

#include "pecheck/external_subjects.hpp"
#include "pecheck/memory_limit.hpp"
#include "pecheck/one_line_text.hpp"
#include "pecheck/rotary_cache_file.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck {

namespace {

std::string temporary_root_named() {
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmpdir == nullptr || *tmpdir == '\0') return "/tmp (TMPDIR is not set)";
  return "TMPDIR=" + escape_control_characters(tmpdir);
}

std::filesystem::path temporary_root() {
  std::error_code error;
  std::filesystem::path root = std::filesystem::temp_directory_path(error);
  if (error) {
    throw TemporaryDirectoryError("cannot use the temporary directory " + temporary_root_named() + ": " +
                                  error.message());
  }
  // A newline in the path cannot travel on a lines-protocol request and
  // splits the output path for a command that reads lines: refused here, as
  // bad usage, rather than blamed on the command call by call.
  const std::string text = root.string();
  if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
    throw TemporaryDirectoryError("cannot use the temporary directory " + temporary_root_named() +
                                  ": its path holds a control character (expected a path without newlines)");
  }
  return root;
}

}  // namespace

CallDirectory::CallDirectory()
    : directory_(temporary_root(), "pecheck-exec-", "the temporary directory " + temporary_root_named()) {}

std::string what_it_printed(const std::string& output) {
  if (output.empty()) return "; it printed nothing";
  std::string text = output;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return "; its output ends:\n" + escape_control_characters(text, "\n\t");
}

namespace {

// `written` as a table of `format`: any wider storage is accepted when every
// value is a value of the format asked for (a bfloat16 table arrives as
// float32 from NumPy).
Table in_requested_format(const std::string& call, Table written, FormatId format) {
  if (written.format == format) return written;
  const Format& wanted = format_of(format);
  const TableView view = written.view();
  if (const auto outside = first_entry_outside(view, format)) {
    const double v = view.at(outside->row, outside->col);
    throw SubjectError(call + " wrote " + std::string(format_of(view.format()).name) + " values for {dtype} " +
                       std::string(wanted.name) + ", and " + hex_float(v) + " is not a " + std::string(wanted.name) +
                       " value");
  }
  return convert_table(view, format);
}

}  // namespace

Table read_requested_table(const std::string& call, const std::filesystem::path& output, const TableRequest& request,
                           FormatId format) {
  TableFile file;
  try {
    file = read_table_file(output);
  } catch (const TableFileError& e) {
    throw SubjectError(call + " wrote a file pecheck cannot read: " + e.what());
  }
  const TableView written = file.table.view();
  if (written.rows() != request.rows || written.cols() != request.dim) {
    throw SubjectError(call + " wrote a " + std::to_string(written.rows()) + " x " + std::to_string(written.cols()) +
                       " table; expected " + std::to_string(request.rows) + " x " + std::to_string(request.dim));
  }
  return in_requested_format(call, std::move(file.table), format);
}

TableRequest rotary_table_request(const CommandSubjectOptions& options, const RotaryCacheRequest& request) {
  TableRequest table;
  table.rows = request.rows;
  table.dim = rotary_derived(*options.rotary_convention).dims;
  table.row_offset = request.first_position;
  return table;
}

RotaryCache read_requested_cache(const std::string& call, const std::filesystem::path& output,
                                 const RotaryConvention& convention, const RotaryCacheRequest& request) {
  RotaryCache cache;
  try {
    cache = read_combined_rotary_cache(output);
  } catch (const TableFileError& e) {
    throw SubjectError(call + " wrote a file pecheck cannot read: " + e.what());
  }
  const std::int64_t cols = rotary_columns(convention);
  if (cache.cos.rows != request.rows || cache.cos.cols != cols) {
    const bool complex = convention.layout == RotaryLayout::complex_form;
    throw SubjectError(call + " wrote a cache of " + std::to_string(cache.cos.rows) + " x " +
                       std::to_string(cache.cos.cols) + " per table; expected " + std::to_string(request.rows) + " x " +
                       std::to_string(cols) +
                       (complex ? " (a complex (rows, d/2) freqs_cis)" : " (a (2, rows, d) stack, cos then sin)"));
  }
  return {in_requested_format(call, std::move(cache.cos), request.format),
          in_requested_format(call, std::move(cache.sin), request.format)};
}

SubjectCapabilities command_capabilities(const CommandSubjectOptions& options) {
  SubjectCapabilities capabilities;
  capabilities.any_convention = false;
  capabilities.formats = options.formats;
  if (options.rotary_convention) {
    capabilities.rotary_caches = true;
    capabilities.fixed_rotary_convention = options.rotary_convention;
  } else {
    capabilities.fixed_convention = options.convention;
  }
  capabilities.max_position = options.limits.max_position;
  capabilities.max_dim = options.limits.max_dim;
  return capabilities;
}

void require_within_limits(const CommandSubjectOptions& options, const TableRequest& request,
                           std::int64_t last_position) {
  const CallLimits& limits = options.limits;
  const std::string asked = std::to_string(request.rows) + " rows of width " + std::to_string(request.dim) +
                            " ending at position " + std::to_string(last_position);
  if (limits.max_position && last_position >= *limits.max_position) {
    throw SubjectError("not called: a check asked for " + asked + ", past --max-position " +
                       std::to_string(*limits.max_position) + " (positions 0 to " +
                       std::to_string(*limits.max_position - 1) + ")");
  }
  if (limits.max_dim && request.dim > *limits.max_dim) {
    throw SubjectError("not called: a check asked for " + asked + ", wider than --dim " +
                       std::to_string(*limits.max_dim));
  }
}

void announce_call(const CommandSubjectOptions& options, const TableRequest& request, FormatId format,
                   std::int64_t first_position, std::int64_t last_position) {
  std::int64_t number = 0;
  {
    const std::lock_guard<std::mutex> lock(options.counter->mutex);
    number = ++options.counter->calls;
  }
  // The first call is announced by the runner once it has succeeded: a
  // command broken from the start then gets its one error line alone.
  if (!options.limits.progress || number == 1) return;
  std::ostringstream line;
  line << "pecheck: call " << number << ": " << request.rows << " rows x " << request.dim << ", positions "
       << first_position << ".." << last_position << ", " << format_of(format).name << '\n';
  std::cerr << line.str() << std::flush;
}

namespace {

// What a process prints when an allocation is refused: CPython's
// MemoryError, libstdc++'s std::bad_alloc, PyTorch's CPU allocator, NumPy's
// _ArrayMemoryError, and strerror(ENOMEM).
bool says_out_of_memory(const std::string& printed) {
  for (const char* sign : {"MemoryError", "bad_alloc", "can't allocate memory", "Cannot allocate memory",
                           "Unable to allocate", "out of memory"}) {
    if (printed.find(sign) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

void throw_call_failed(const CommandSubjectOptions& options, const std::string& message, const std::string& printed) {
  if (options.limits.memory_bytes > 0 && says_out_of_memory(printed)) {
    throw CommandOutOfMemoryError(message + " (it ran out of memory under the per-call limit of " +
                                  byte_count_text(options.limits.memory_bytes) + ", --memory-limit)");
  }
  throw CommandFailedError(message);
}

void require_command_convention(const CommandSubjectOptions& options, const Convention& convention) {
  if (options.rotary_convention) {
    throw SubjectError("the command writes rotary caches of '" + options.rotary_convention->name +
                       "', not additive tables of '" + convention.name + "'");
  }
  if (convention.name != options.convention.name) {
    throw SubjectError("the command implements convention '" + options.convention.name + "', not '" + convention.name +
                       "'");
  }
}

void require_rotary_command(const CommandSubjectOptions& options, const RotaryConvention& convention,
                            const RotaryCacheRequest& request) {
  if (!options.rotary_convention) {
    throw SubjectError("the command writes additive tables of '" + options.convention.name +
                       "', not rotary caches of '" + convention.name + "'");
  }
  if (convention.name != options.rotary_convention->name) {
    throw SubjectError("the command implements rotary convention '" + options.rotary_convention->name + "', not '" +
                       convention.name + "'");
  }
  check_rotary_request(convention, request);
}

}  // namespace pecheck
