// libFuzzer target: the bytes an --exec command writes on stdout in the
// `lines` protocol, arriving in chunks whose sizes the input's first bytes
// choose. The reply lines taken and what is left are exactly the bytes
// appended; the buffer never holds more than a line may; every reply's
// description for an error message is one short line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "one_line_error.hpp"
#include "pecheck/lines_protocol_reply.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pecheck;
  if (size < 2) return 0;
  const std::size_t limit = 1 + data[0] % 64;   // a small limit, so overflow is reached
  const std::size_t chunk = 1 + data[1] % 32;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);
  ReplyLines lines(limit);
  std::string appended, taken;
  for (std::size_t at = 0; at < bytes.size() && !lines.overflowed();) {
    const std::size_t n = lines.append(bytes.substr(at, chunk));
    fuzz::require(lines.buffered() <= limit + 1);
    appended += bytes.substr(at, n);
    at += n;
    while (auto line = lines.take_line()) {
      fuzz::require(line->find('\n') == std::string::npos && line->size() <= limit);
      const std::string text = describe_reply(*line);
      fuzz::require(text.find_first_of("\n\r") == std::string::npos && text.size() <= 4 * 400 + 40);
      taken += *line + "\n";
    }
    if (n == 0) break;  // full without a newline: overflowed
  }
  fuzz::require(appended.size() == taken.size() + lines.buffered());
  fuzz::require(appended.compare(0, taken.size(), taken) == 0);
  return 0;
}
