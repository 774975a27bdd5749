#include "pecheck/sweep/work.hpp"

#include <cctype>
#include <charconv>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/accuracy/budgets.hpp"

namespace pecheck::sweep {

namespace {

// The whole numbers of `text` separated by `separator`, or nothing when any
// piece is not a plain decimal number (no sign, no blanks, no 0x).
std::vector<std::int64_t> split_numbers(std::string_view text, char separator) {
  std::vector<std::int64_t> numbers;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(text.find(separator, start), text.size());
    const std::string_view piece = text.substr(start, end - start);
    std::int64_t value = 0;
    const auto [rest, error] = std::from_chars(piece.data(), piece.data() + piece.size(), value);
    if (piece.empty() || std::isdigit(static_cast<unsigned char>(piece[0])) == 0 || error != std::errc{} ||
        rest != piece.data() + piece.size()) {
      return {};
    }
    numbers.push_back(value);
    if (end == text.size()) return numbers;
    start = end + 1;
  }
}

}  // namespace

std::vector<std::int64_t> WidthRange::widths() const {
  std::vector<std::int64_t> out;
  for (std::int64_t d = first; d <= last; d += step) out.push_back(d);
  return out;
}

InclusiveRange shard_positions(const InclusiveRange& positions, const Shard& shard) {
  const std::int64_t m = positions.count();
  if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count) {
    throw SweepUsageError("--shard " + shard_text(shard) + ": expected K/N with 0 <= K < N");
  }
  if (shard.count > m) {
    throw SweepUsageError("--shard " + shard_text(shard) + ": " + std::to_string(shard.count) + " shards of " +
                          std::to_string(m) + " rows (--positions " + range_text(positions) +
                          ") would leave some empty; expected at most " + std::to_string(m) + " shards");
  }
  // k m < 2^24 * 2^24: no overflow in 64 bits.
  const std::int64_t begin = positions.first + shard.index * m / shard.count;
  const std::int64_t end = positions.first + (shard.index + 1) * m / shard.count;
  return {begin, end - 1};
}

Shard parse_shard(std::string_view text) {
  const std::vector<std::int64_t> numbers = split_numbers(text, '/');
  if (numbers.size() != 2 || numbers[1] < 1 || numbers[0] >= numbers[1]) {
    throw SweepUsageError("expected K/N with 0 <= K < N (K counts from 0), got '" + std::string(text) + "'");
  }
  return {numbers[0], numbers[1]};
}

InclusiveRange parse_positions(std::string_view text) {
  const std::vector<std::int64_t> numbers = split_numbers(text, ':');
  if (numbers.size() != 2 || numbers[0] > numbers[1]) {
    throw SweepUsageError("expected FIRST:LAST with 0 <= FIRST <= LAST (both included), got '" +
                          std::string(text) + "'");
  }
  if (numbers[1] >= max_exact_position) {
    throw SweepUsageError("expected rows below 2^24 (the last is " + std::to_string(max_exact_position - 1) +
                          "), got '" + std::string(text) + "'");
  }
  return {numbers[0], numbers[1]};
}

WidthRange parse_widths(std::string_view text) {
  const std::vector<std::int64_t> numbers = split_numbers(text, ':');
  const std::string expected =
      "expected D, FIRST:LAST or FIRST:LAST:STEP with 1 <= FIRST <= LAST and STEP >= 1, got '" +
      std::string(text) + "'";
  if (numbers.empty() || numbers.size() > 3) throw SweepUsageError(expected);
  WidthRange dims{numbers[0], numbers.size() > 1 ? numbers[1] : numbers[0], numbers.size() > 2 ? numbers[2] : 1};
  if (dims.first < 1 || dims.last < dims.first || dims.step < 1) throw SweepUsageError(expected);
  if (dims.last > max_dim) {
    throw SweepUsageError("expected widths up to " + std::to_string(max_dim) + ", got '" + std::string(text) + "'");
  }
  return dims;
}

SweepWork make_work(const std::string& convention_name, const WidthRange& dims, FormatId format,
                    const InclusiveRange& positions, const std::string& subject) {
  const std::optional<Convention> convention = find_preset(convention_name);
  if (!convention) throw SweepUsageError("--convention: unknown convention '" + convention_name + "'");
  if (subject != "fast" && subject != "reference") {
    throw SweepUsageError("--subject: expected fast or reference, got '" + subject + "'");
  }
  // Every width must be one the convention accepts at every row: refused
  // here, before hours of work, rather than in the middle of a shard. Rows
  // hold increasing positions, so the first and the last row decide.
  for (std::int64_t dim : dims.widths()) {
    check_request(*convention, TableRequest{1, dim, positions.first});
    check_request(*convention, TableRequest{1, dim, positions.last});
  }
  return SweepWork{convention_name, dims,
                   format,          positions,
                   subject,         accuracy::ulp_budget(accuracy::budget_kind_of(subject), format).max_ulp,
                   PECHECK_VERSION};
}

std::int64_t entry_count(const SweepWork& work, const InclusiveRange& rows) {
  std::int64_t width_sum = 0;
  for (std::int64_t dim : work.dims.widths()) width_sum += dim;
  return rows.count() * width_sum;
}

std::string shard_text(const Shard& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

std::string range_text(const InclusiveRange& range) {
  return std::to_string(range.first) + ":" + std::to_string(range.last);
}

std::string widths_text(const WidthRange& dims) {
  if (dims.first == dims.last) return std::to_string(dims.first);
  std::string text = std::to_string(dims.first) + ":" + std::to_string(dims.last);
  if (dims.step != 1) {
    text += ':';  // not ":" + std::string: GCC 12's false -Wrestrict (bug 105651)
    text += std::to_string(dims.step);
  }
  return text;
}

}  // namespace pecheck::sweep
