#include "pecheck/json_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace pecheck {

namespace {

std::string file_named(const std::filesystem::path& file) { return escape_control_characters(file.string()); }

// Closes the descriptor however the read ends.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::optional<std::size_t> json_nesting_beyond(std::string_view text, std::size_t limit) {
  const std::optional<JsonStructureProblem> problem = json_structure_problem(text, limit, SIZE_MAX);
  if (problem && problem->kind == JsonStructureProblem::too_deep) return problem->offset;
  return std::nullopt;
}

std::optional<JsonStructureProblem> json_structure_problem(std::string_view text, std::size_t max_depth,
                                                           std::size_t max_elements) {
  // elements[k]: the commas seen so far in the open container at depth k + 1.
  std::vector<std::size_t> elements;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (elements.size() >= max_depth) return JsonStructureProblem{JsonStructureProblem::too_deep, i};
      elements.push_back(0);
    } else if ((c == ']' || c == '}') && !elements.empty()) {
      elements.pop_back();
    } else if (c == ',' && !elements.empty()) {
      if (++elements.back() >= max_elements) return JsonStructureProblem{JsonStructureProblem::too_many_elements, i};
    }
  }
  return std::nullopt;
}

void require_json_structure(std::string_view text, std::string_view file) {
  const std::optional<JsonStructureProblem> problem = json_structure_problem(text);
  if (!problem) return;
  if (problem->kind == JsonStructureProblem::too_deep) {
    throw JsonInputError(escape_control_characters(file) + ": arrays and objects nest deeper than " +
                         std::to_string(max_json_depth) + " levels at byte " + std::to_string(problem->offset) +
                         " (expected at most " + std::to_string(max_json_depth) + ")");
  }
  throw JsonInputError(escape_control_characters(file) + ": an array or object holds more than " +
                       std::to_string(max_json_elements) + " elements (at byte " + std::to_string(problem->offset) +
                       "; expected at most " + std::to_string(max_json_elements) + ")");
}

std::string read_json_input(const std::filesystem::path& file, std::uint64_t limit, std::string_view what) {
  const Descriptor in{::open(file.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) throw JsonInputError(file_named(file) + ": cannot be read: " + std::strerror(errno));
  struct stat status {};
  if (::fstat(in.fd, &status) != 0) throw JsonInputError(file_named(file) + ": cannot be read: " + std::strerror(errno));
  if (!S_ISREG(status.st_mode)) throw JsonInputError(file_named(file) + ": not a regular file (expected a " + std::string(what) + ")");
  const auto size = static_cast<std::uint64_t>(status.st_size);
  if (size > limit) {
    throw JsonInputError(file_named(file) + ": " + std::to_string(size) + " bytes, more than the " +
                         std::to_string(limit) + " bytes a " + std::string(what) + " may have (expected a smaller file)");
  }
  // Read up to the limit plus one byte: a file that grew since fstat is
  // caught too, and nothing beyond the limit is ever held.
  std::string text(static_cast<std::size_t>(size), '\0');
  std::size_t done = 0;
  for (;;) {
    if (done == text.size()) {
      if (text.size() > limit) break;
      text.resize(std::min<std::uint64_t>(limit + 1, text.size() + 4096));
    }
    const ssize_t got = ::read(in.fd, text.data() + done, text.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw JsonInputError(file_named(file) + ": cannot be read: " + std::strerror(errno));
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  text.resize(done);
  if (text.size() > limit) {
    throw JsonInputError(file_named(file) + ": more than the " + std::to_string(limit) + " bytes a " +
                         std::string(what) + " may have (expected a smaller file)");
  }
  return text;
}

}  // namespace pecheck
