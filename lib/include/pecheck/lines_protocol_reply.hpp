// The reply side of --exec's `lines` protocol without the process: the bytes
// a command writes on stdout, cut into reply lines with a bound on what is
// buffered, and what a reply line means. Kept apart from the pipes and the
// polling (persistent_process.hpp) so that it can be tested and fuzzed on
// any bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pecheck {

// Bytes in, lines out. A command that writes more than `max_line_bytes`
// without a newline (a stray print, a binary dump, /dev/zero) overflows the
// buffer instead of growing it: the caller reads at most room() bytes at a
// time, so at most max_line_bytes + 1 bytes are ever held.
class ReplyLines {
 public:
  explicit ReplyLines(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  // How many bytes may be appended now (0 once the buffer holds more than a line may).
  std::size_t room() const { return pending_.size() > max_line_bytes_ ? 0 : max_line_bytes_ + 1 - pending_.size(); }
  // Appends at most room() bytes of `bytes`; returns how many it took.
  std::size_t append(std::string_view bytes);
  // The next complete line, without its newline, and nothing of it kept.
  std::optional<std::string> take_line();
  // True when more than max_line_bytes are buffered and none is a newline.
  bool overflowed() const;
  // The start of what is buffered, for a message (at most 40 bytes).
  std::string start() const { return pending_.substr(0, 40); }
  std::size_t buffered() const { return pending_.size(); }

 private:
  std::size_t max_line_bytes_;
  std::string pending_;
};

// What a reply line says: "ok", "error MESSAGE", or anything else (the
// command printed something of its own on stdout and is out of step).
enum class ReplyMeaning { ok, error, out_of_step };
ReplyMeaning meaning_of(std::string_view reply);

// The one-line description of a reply for an error message: the error's
// text, or an excerpt of what broke the protocol, control characters escaped
// and the length bounded whatever the reply holds.
std::string describe_reply(std::string_view reply);

}  // namespace pecheck
