#include "pecheck/lines_protocol_reply.hpp"

#include <algorithm>

#include "pecheck/one_line_text.hpp"

namespace pecheck {

std::size_t ReplyLines::append(std::string_view bytes) {
  const std::size_t taken = std::min(bytes.size(), room());
  pending_.append(bytes.substr(0, taken));
  return taken;
}

std::optional<std::string> ReplyLines::take_line() {
  const std::size_t newline = pending_.find('\n');
  if (newline == std::string::npos) return std::nullopt;
  std::string line = pending_.substr(0, newline);
  pending_.erase(0, newline + 1);
  return line;
}

bool ReplyLines::overflowed() const {
  return pending_.size() > max_line_bytes_ && pending_.find('\n') == std::string::npos;
}

ReplyMeaning meaning_of(std::string_view reply) {
  if (reply == "ok") return ReplyMeaning::ok;
  if (reply.substr(0, 5) == "error") return ReplyMeaning::error;
  return ReplyMeaning::out_of_step;
}

std::string describe_reply(std::string_view reply) {
  if (meaning_of(reply) == ReplyMeaning::error) return excerpt(reply, 400);
  return quoted_excerpt_of(reply, 200);
}

}  // namespace pecheck
