// RapidCheck generators for pecheck's inputs: conventions, table shapes,
// float bit patterns per format, embedding tables, token and position ids.
//
// Generators shape their output instead of rejecting it (no RC_PRE): a dim
// generated for a convention is always valid for it, an offset always keeps
// every position below 2^24. Uniform components are resized to RapidCheck's
// nominal size so that they reach the whole range from the first case;
// weighted components aim at the places where encodings go wrong (powers of
// two, odd widths, the last positions below 2^24, signed zeros, subnormals,
// binade edges, angles near multiples of pi/4).
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <numbers>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties {

// One table to ask a subject for: a convention, the rows (request.dim is d),
// and the storage format.
struct EncodingCase {
  Convention convention;
  TableRequest request;
  FormatId format = FormatId::float32;
};

// How large a generated table may be. Tables cost what the subject costs:
// the reference spends a few microseconds per entry.
struct CaseLimits {
  std::int64_t max_entries = 4096;  // rows * dim
  std::int64_t max_rows = 64;
  std::int64_t max_dim = 4096;
  bool offsets = true;              // false: row_offset is always 0
  std::int64_t max_position = max_exact_position;  // every position below this
};

namespace gen {

// A uniform integer in [min, max), independent of RapidCheck's size (which
// would otherwise keep early cases near min). Shrinks toward min.
template <typename T>
rc::Gen<T> uniform_in(T min, T max) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max));
}

// ---------------------------------------------------------------- conventions

inline rc::Gen<FormatId> format_id() {
  return rc::gen::element(FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16);
}

inline rc::Gen<Layout> layout() {
  return rc::gen::element(Layout::interleaved, Layout::sin_cos_halves, Layout::cos_sin_halves);
}

inline rc::Gen<OddDimPolicy> odd_dim_policy() {
  return rc::gen::element(OddDimPolicy::extra_sin, OddDimPolicy::zero_column, OddDimPolicy::reject);
}

// 10^x for x uniform in [lo, hi] on a grid of 1/1000: log-uniform plausible scales.
inline rc::Gen<double> log_uniform(double lo_exponent, double hi_exponent) {
  return rc::gen::map(uniform_in<int>(0, 1001), [=](int k) {
    return std::pow(10.0, lo_exponent + (hi_exponent - lo_exponent) * k / 1000.0);
  });
}

// Paper rule: base 10000 most often; other bases seen in the wild (RoPE uses
// 500000 and 10^6) and log-uniform ones between 10 and 10^6.
inline rc::Gen<FrequencyRule> paper_rule() {
  return rc::gen::map(rc::gen::weightedOneOf<double>({{4, rc::gen::just(10000.0)},
                                                      {2, rc::gen::element(100.0, 1000.0, 500000.0, 1.0e6)},
                                                      {2, log_uniform(1.0, 6.0)}}),
                      [](double base) { return FrequencyRule{FrequencyRuleKind::paper, base, 1.0, 1.0e4}; });
}

// Timescale rule: min_ts >= 1/2 keeps the fastest frequency 1/min_ts <= 2 < pi,
// so a frequency is recoverable from two adjacent positions without aliasing;
// max_ts / min_ts > 1 keeps the ladder strictly decreasing.
inline rc::Gen<FrequencyRule> timescale_rule() {
  return rc::gen::apply(
      [](double min_ts, double ratio) { return FrequencyRule{FrequencyRuleKind::timescale, 10000.0, min_ts, min_ts * ratio}; },
      rc::gen::weightedOneOf<double>({{4, rc::gen::just(1.0)}, {1, rc::gen::element(0.5, 2.0, 10.0)}}),
      rc::gen::weightedOneOf<double>({{4, rc::gen::just(1.0e4)},
                                      {1, rc::gen::element(100.0, 1000.0, 1.0e5)},
                                      {1, log_uniform(1.0, 6.0)}}));
}

inline rc::Gen<FrequencyRule> frequency_rule() { return rc::gen::oneOf(paper_rule(), timescale_rule()); }

inline rc::Gen<Convention> preset() { return rc::gen::elementOf(presets()); }

// Any convention a user could write: any layout and rule, an offset (fairseq's
// real tokens start at padding_idx + 1 = 2), zero rows, any odd-d policy and
// a smallest width.
inline rc::Gen<Convention> custom_convention() {
  return rc::gen::apply(
      [](Layout layout_value, FrequencyRule rule, std::int64_t offset, std::vector<std::int64_t> zero_rows,
         OddDimPolicy odd, std::int64_t min_dim_value) {
        Convention convention;
        convention.name = "generated";
        convention.layout = layout_value;
        convention.frequency = rule;
        convention.position_offset = offset;
        std::sort(zero_rows.begin(), zero_rows.end());
        zero_rows.erase(std::unique(zero_rows.begin(), zero_rows.end()), zero_rows.end());
        convention.zero_rows = std::move(zero_rows);
        convention.odd_dim = odd;
        convention.min_dim = min_dim_value;
        return convention;
      },
      layout(), frequency_rule(),
      rc::gen::weightedOneOf<std::int64_t>({{6, rc::gen::just<std::int64_t>(0)},
                                            {2, rc::gen::element<std::int64_t>(1, 2)},
                                            {1, uniform_in<std::int64_t>(0, 4096)}}),
      rc::gen::weightedOneOf<std::vector<std::int64_t>>(
          {{4, rc::gen::just(std::vector<std::int64_t>{})},
           {2, rc::gen::just(std::vector<std::int64_t>{1})},
           {1, rc::gen::just(std::vector<std::int64_t>{0})},
           {1, rc::gen::container<std::vector<std::int64_t>>(rc::gen::inRange<std::int64_t>(0, 8))}}),
      odd_dim_policy(), rc::gen::weightedElement<std::int64_t>({{3, 1}, {1, 2}, {2, 4}}));
}

// Presets and custom conventions, half and half.
inline rc::Gen<Convention> convention() { return rc::gen::oneOf(preset(), custom_convention()); }

// ---------------------------------------------------------------- shapes

// The nearest width at or above d (at most one step) that the convention accepts.
inline std::int64_t valid_dim(const Convention& convention, std::int64_t d) {
  d = std::max(d, std::max<std::int64_t>(convention.min_dim, 1));
  if (d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject) ++d;
  return std::min(d, max_dim);
}

// valid_dim(convention, d), kept at or below a model's width limit when it
// has one (a width the convention accepts, one step down if need be).
inline std::int64_t valid_dim_within(const Convention& convention, std::int64_t d, std::optional<std::int64_t> limit) {
  if (!limit) return valid_dim(convention, d);
  const std::int64_t valid = valid_dim(convention, std::min(d, *limit));
  return valid <= *limit ? valid : valid_dim(convention, *limit - 1);
}

// d in [1, max_dim_value] weighted toward powers of two, their neighbours,
// odd values, tiny widths and the largest width, then moved to the nearest
// valid width.
inline rc::Gen<std::int64_t> dim_for(const Convention& convention, std::int64_t max_dim_value = 4096) {
  max_dim_value = std::clamp<std::int64_t>(max_dim_value, 1, max_dim);
  int top_power = 0;
  while ((std::int64_t{2} << top_power) <= max_dim_value) ++top_power;
  const rc::Gen<std::int64_t> power = rc::gen::map(uniform_in(0, top_power + 1),
                                                    [](int k) { return std::int64_t{1} << k; });
  const rc::Gen<std::int64_t> power_neighbour = rc::gen::apply(
      [=](std::int64_t p, int step) { return std::clamp<std::int64_t>(p + step, 1, max_dim_value); }, power,
      rc::gen::element(-1, 1));
  const rc::Gen<std::int64_t> odd = rc::gen::map(uniform_in<std::int64_t>(0, (max_dim_value + 1) / 2),
                                                 [](std::int64_t k) { return 2 * k + 1; });
  return rc::gen::map(rc::gen::weightedOneOf<std::int64_t>({{1, rc::gen::just(max_dim_value)},
                                                            {3, power},
                                                            {2, power_neighbour},
                                                            {2, odd},
                                                            {1, rc::gen::inRange<std::int64_t>(1, 9)},
                                                            {2, uniform_in<std::int64_t>(1, max_dim_value + 1)}}),
                      [=](std::int64_t d) {
                        const std::int64_t valid = valid_dim(convention, d);
                        return valid <= max_dim_value ? valid : valid_dim(convention, max_dim_value - 1);
                      });
}

// The largest row_offset that keeps every position of `rows` rows below
// `position_limit` (2^24, or a model's --max-position).
inline std::int64_t max_row_offset(const Convention& convention, std::int64_t rows,
                                   std::int64_t position_limit = max_exact_position) {
  return std::max<std::int64_t>(position_limit - rows - std::max<std::int64_t>(convention.position_offset, 0), 0);
}

// row_offset in [0, max_row_offset]: zero, small, straddling powers of two,
// the very last rows below the limit and those just before, and uniform.
inline rc::Gen<std::int64_t> row_offset_for(const Convention& convention, std::int64_t rows,
                                            std::int64_t position_limit = max_exact_position) {
  const std::int64_t limit = max_row_offset(convention, rows, position_limit);
  const auto clamp = [limit](std::int64_t x) { return std::clamp<std::int64_t>(x, 0, limit); };
  const rc::Gen<std::int64_t> near_power = rc::gen::apply(
      [=](int k, std::int64_t back) { return clamp((std::int64_t{1} << k) - back); }, rc::gen::inRange(1, 25),
      rc::gen::inRange<std::int64_t>(0, rows + 3));
  return rc::gen::weightedOneOf<std::int64_t>(
      {{2, rc::gen::just<std::int64_t>(0)},
       {1, rc::gen::just(limit)},
       {2, rc::gen::map(rc::gen::inRange<std::int64_t>(0, 64), clamp)},
       {3, near_power},
       {2, rc::gen::map(rc::gen::inRange<std::int64_t>(0, 64), [=](std::int64_t back) { return clamp(limit - back); })},
       {3, uniform_in<std::int64_t>(0, limit + 1)}});
}

// A request valid for the convention within the limits.
inline rc::Gen<TableRequest> request_for(const Convention& convention, CaseLimits limits = {}) {
  // Rows r hold positions r + offset: the rows a model's position limit leaves.
  const std::int64_t position_rows = limits.max_position - std::max<std::int64_t>(convention.position_offset, 0);
  return rc::gen::mapcat(dim_for(convention, limits.max_dim), [=](std::int64_t d) {
    const std::int64_t most_rows =
        std::max<std::int64_t>(1, std::min({limits.max_rows, limits.max_entries / d, position_rows}));
    return rc::gen::mapcat(rc::gen::inRange<std::int64_t>(1, most_rows + 1), [=](std::int64_t rows) {
      const rc::Gen<std::int64_t> offset = limits.offsets ? row_offset_for(convention, rows, limits.max_position)
                                                          : rc::gen::just<std::int64_t>(0);
      return rc::gen::map(offset, [=](std::int64_t row_offset) { return TableRequest{rows, d, row_offset}; });
    });
  });
}

// A case for a subject: its fixed convention and rows when it has them (a
// file), any convention otherwise; one of the formats it offers.
inline rc::Gen<EncodingCase> case_for(const SubjectCapabilities& capabilities, CaseLimits limits = {}) {
  const rc::Gen<Convention> conventions = !capabilities.any_convention && capabilities.fixed_convention
                                              ? rc::gen::just(*capabilities.fixed_convention)
                                              : convention();
  const std::vector<FormatId> formats =
      capabilities.formats.empty() ? std::vector<FormatId>{FormatId::float32} : capabilities.formats;
  const std::optional<TableRequest> fixed = capabilities.fixed_request;
  // A model's limits (validate --exec --max-position, --dim) bound every case.
  if (capabilities.max_dim) limits.max_dim = std::min(limits.max_dim, *capabilities.max_dim);
  if (capabilities.max_position) limits.max_position = std::min(limits.max_position, *capabilities.max_position);
  return rc::gen::mapcat(conventions, [=](const Convention& chosen) {
    rc::Gen<TableRequest> requests = request_for(chosen, limits);
    if (fixed) {
      // A file holds rows [row_offset, row_offset + rows) at one width: ask within them.
      const std::int64_t most_rows =
          std::max<std::int64_t>(1, std::min({fixed->rows, limits.max_rows, limits.max_entries / std::max<std::int64_t>(fixed->dim, 1)}));
      requests = rc::gen::mapcat(rc::gen::inRange<std::int64_t>(1, most_rows + 1), [=](std::int64_t rows) {
        return rc::gen::map(uniform_in<std::int64_t>(0, fixed->rows - rows + 1), [=](std::int64_t start) {
          return TableRequest{rows, fixed->dim, fixed->row_offset + start};
        });
      });
    }
    return rc::gen::apply([chosen](TableRequest request, FormatId format) { return EncodingCase{chosen, request, format}; },
                          requests, rc::gen::elementOf(formats));
  });
}

inline rc::Gen<EncodingCase> encoding_case(CaseLimits limits = {}) { return case_for(SubjectCapabilities{}, limits); }

// ---------------------------------------------------------------- float bit patterns

inline int exponent_bits(const Format& format) { return format.storage_bits - format.precision; }
inline std::uint64_t exponent_field_max(const Format& format) {  // all ones: infinity and NaN
  return (std::uint64_t{1} << exponent_bits(format)) - 1;
}
inline std::uint64_t mantissa_max(const Format& format) { return (std::uint64_t{1} << (format.precision - 1)) - 1; }

// The value of (sign, biased exponent field, stored significand) in the format.
inline double compose_bits(const Format& format, bool negative, std::uint64_t exponent_field, std::uint64_t mantissa) {
  const std::uint64_t bits = (std::uint64_t{negative} << (format.storage_bits - 1)) |
                             (exponent_field << (format.precision - 1)) | mantissa;
  return from_bits(bits, format);
}

inline rc::Gen<bool> sign_bit() { return rc::gen::element(false, true); }

inline rc::Gen<double> signed_zero() { return rc::gen::element(0.0, -0.0); }

// Exponent field zero, significand nonzero: every subnormal, either sign.
inline rc::Gen<double> subnormal(FormatId id) {
  const Format format = format_of(id);
  return rc::gen::apply([format](bool negative, std::uint64_t m) { return compose_bits(format, negative, 0, m); },
                        sign_bit(), uniform_in<std::uint64_t>(1, mantissa_max(format) + 1));
}

// Powers of two and their neighbours across every finite binade: significand
// 0 (the power itself), 1 or 2 (just above), all ones or one less (just below
// the next power). Includes the smallest subnormal, the largest subnormal,
// the smallest normal, 1 - ulp, 1 and the largest finite value.
inline rc::Gen<double> binade_edge(FormatId id) {
  const Format format = format_of(id);
  const std::uint64_t top = mantissa_max(format);
  return rc::gen::apply(
      [format](bool negative, std::uint64_t exponent_field, std::uint64_t mantissa) {
        return compose_bits(format, negative, exponent_field, mantissa);
      },
      sign_bit(), uniform_in<std::uint64_t>(0, exponent_field_max(format)),
      rc::gen::element<std::uint64_t>(0, 1, 2, top - 1, top));
}

inline rc::Gen<double> infinity() {
  return rc::gen::element(std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity());
}

// NaN bit patterns (quiet and signalling payloads) of the format, as doubles.
inline rc::Gen<double> nan(FormatId id) {
  const Format format = format_of(id);
  return rc::gen::apply(
      [format](bool negative, std::uint64_t m) { return compose_bits(format, negative, exponent_field_max(format), m); },
      sign_bit(), uniform_in<std::uint64_t>(1, mantissa_max(format) + 1));
}

// x moved by `steps` units in the last place of the format (toward larger
// magnitude when steps > 0), staying finite; crossing zero keeps the sign.
inline double step_ulps(double x, std::int64_t steps, const Format& format) {
  const bool negative = std::signbit(x);
  const std::uint64_t magnitude = to_bits(std::fabs(x), format);
  const std::uint64_t largest = to_bits(largest_finite(format), format);
  const std::int64_t moved = std::clamp<std::int64_t>(static_cast<std::int64_t>(magnitude) + steps, 0,
                                                      static_cast<std::int64_t>(largest));
  const double result = from_bits(static_cast<std::uint64_t>(moved), format);
  return negative ? -result : result;
}

// k * pi/4 rounded to the format, then up to 4 ulps either way: the angles
// and values where sin and cos change sign or meet, and where argument
// reduction loses the most. |k| is kept within the format's finite range.
inline rc::Gen<double> near_quarter_pi(FormatId id) {
  const Format format = format_of(id);
  const double quarter_pi = std::numbers::pi / 4.0;
  const auto max_k = static_cast<std::int64_t>(std::min(largest_finite(format) / quarter_pi, 1048576.0));
  return rc::gen::apply(
      [format, quarter_pi](std::int64_t k, std::int64_t steps) {
        return step_ulps(round_to_format(static_cast<double>(k) * quarter_pi, format), steps, format);
      },
      rc::gen::weightedOneOf<std::int64_t>({{3, rc::gen::inRange<std::int64_t>(-16, 17)},
                                            {1, uniform_in<std::int64_t>(-max_k, max_k + 1)}}),
      rc::gen::inRange<std::int64_t>(-4, 5));
}

// Every finite bit pattern equally likely (sign, exponent field, significand uniform).
inline rc::Gen<double> uniform_finite_bits(FormatId id) {
  const Format format = format_of(id);
  return rc::gen::apply(
      [format](bool negative, std::uint64_t exponent_field, std::uint64_t m) {
        return compose_bits(format, negative, exponent_field, m);
      },
      sign_bit(), uniform_in<std::uint64_t>(0, exponent_field_max(format)),
      uniform_in<std::uint64_t>(0, mantissa_max(format) + 1));
}

// Every bit pattern of the format equally likely, NaNs and infinities included.
inline rc::Gen<double> uniform_bits(FormatId id) {
  const Format format = format_of(id);
  return rc::gen::apply(
      [format](bool negative, std::uint64_t exponent_field, std::uint64_t m) {
        return compose_bits(format, negative, exponent_field, m);
      },
      sign_bit(), uniform_in<std::uint64_t>(0, exponent_field_max(format) + 1),
      uniform_in<std::uint64_t>(0, mantissa_max(format) + 1));
}

// Which non-finite values a value generator may produce.
struct Specials {
  bool infinities = true;
  bool nans = true;
};

// A value of the format, from bit patterns: weighted toward +0/-0,
// subnormals, binade edges and values near multiples of pi/4, plus uniform
// bit patterns. Never RapidCheck's gen::arbitrary<double>, which yields none
// of -0, subnormals, infinities or NaN.
inline rc::Gen<double> format_value(FormatId id, Specials specials = {}) {
  return rc::gen::weightedOneOf<double>({{2, signed_zero()},
                                         {2, subnormal(id)},
                                         {3, binade_edge(id)},
                                         {3, near_quarter_pi(id)},
                                         {3, uniform_finite_bits(id)},
                                         {specials.infinities ? 1u : 0u, infinity()},
                                         {specials.nans ? 1u : 0u, nan(id)}});
}

inline rc::Gen<double> finite_value(FormatId id) { return format_value(id, Specials{false, false}); }

// ---------------------------------------------------------------- embeddings

// A rows x cols table of the format whose entries come from `element`.
inline rc::Gen<Table> table_of(std::int64_t rows, std::int64_t cols, FormatId id, rc::Gen<double> element) {
  return rc::gen::map(rc::gen::container<std::vector<double>>(static_cast<std::size_t>(rows * cols), std::move(element)),
                      [=](std::vector<double> values) {
                        Table table = make_table(rows, cols, id);
                        for (std::int64_t k = 0; k < rows * cols; ++k) table.set_flat(k, values[static_cast<std::size_t>(k)]);
                        return table;
                      });
}

// An embedding table whose entries are any finite value of the format
// (signed zeros, subnormals and binade edges included).
inline rc::Gen<Table> embedding_table(std::int64_t vocab, std::int64_t d, FormatId id) {
  return table_of(vocab, d, id, finite_value(id));
}

// N(0, sigma^2) entries rounded once to the format, from a generated seed
// (splitmix64 and Box-Muller: the same seed gives the same table everywhere,
// unlike std::normal_distribution whose algorithm the standard leaves open).
inline Table gaussian_table(std::uint64_t seed, std::int64_t rows, std::int64_t cols, double sigma, FormatId id) {
  Table table = make_table(rows, cols, id);
  std::uint64_t state = seed;
  const auto next_unit = [&state] {  // uniform in (0, 1), 53 bits
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
  };
  const Format format = format_of(id);
  for (std::size_t k = 0; k < static_cast<std::size_t>(table.size()); k += 2) {
    const double radius = sigma * std::sqrt(-2.0 * std::log(next_unit()));
    const double angle = 2.0 * std::numbers::pi * next_unit();
    table.set_flat(static_cast<std::int64_t>(k), round_to_format(radius * std::cos(angle), format));
    if (k + 1 < static_cast<std::size_t>(table.size())) table.set_flat(static_cast<std::int64_t>(k + 1), round_to_format(radius * std::sin(angle), format));
  }
  return table;
}

inline rc::Gen<Table> gaussian_embedding_table(std::int64_t vocab, std::int64_t d, double sigma, FormatId id) {
  return rc::gen::map(rc::gen::noShrink(uniform_in<std::uint64_t>(0, ~std::uint64_t{0})),
                      [=](std::uint64_t seed) { return gaussian_table(seed, vocab, d, sigma, id); });
}

// `count` token ids in [0, vocab), weighted toward the first and last ids
// (id 0 and the padding id are zeroed rows in tensor2tensor and fairseq).
inline rc::Gen<std::vector<std::int64_t>> token_ids(std::int64_t vocab, std::int64_t count) {
  const rc::Gen<std::int64_t> id = rc::gen::weightedOneOf<std::int64_t>(
      {{1, rc::gen::element<std::int64_t>(0, std::min<std::int64_t>(1, vocab - 1), vocab - 1)},
       {4, uniform_in<std::int64_t>(0, vocab)}});
  return rc::gen::container<std::vector<std::int64_t>>(static_cast<std::size_t>(count), id);
}

// `count` rows of an encoding table of `rows` rows, weighted toward the first and last.
inline rc::Gen<std::vector<std::int64_t>> position_ids(std::int64_t rows, std::int64_t count) {
  const rc::Gen<std::int64_t> row = rc::gen::weightedOneOf<std::int64_t>(
      {{1, rc::gen::element<std::int64_t>(0, rows - 1)}, {4, uniform_in<std::int64_t>(0, rows)}});
  return rc::gen::container<std::vector<std::int64_t>>(static_cast<std::size_t>(count), row);
}

}  // namespace gen

inline void showValue(const EncodingCase& value, std::ostream& os);

}  // namespace pecheck::properties

// ---------------------------------------------------------------- printing and Arbitrary

namespace pecheck {

inline void showValue(FormatId value, std::ostream& os) { os << format_of(value).name; }
inline void showValue(Layout value, std::ostream& os) { os << to_string(value); }
inline void showValue(OddDimPolicy value, std::ostream& os) { os << to_string(value); }
inline void showValue(FrequencyRuleKind value, std::ostream& os) { os << to_string(value); }

inline void showValue(const Convention& value, std::ostream& os) {
  os << value.name << " {" << describe(value) << "}";
}

inline void showValue(const TableRequest& value, std::ostream& os) {
  os << "rows " << value.rows << ", dim " << value.dim << ", row_offset " << value.row_offset;
}

inline void showValue(const Table& value, std::ostream& os) {
  os << value.rows << " x " << value.cols << " " << format_of(value.format).name << " table";
}

}  // namespace pecheck

namespace pecheck::properties {

inline void showValue(const EncodingCase& value, std::ostream& os) {
  pecheck::showValue(value.convention, os);
  os << "; ";
  pecheck::showValue(value.request, os);
  os << "; " << format_of(value.format).name;
}

}  // namespace pecheck::properties

namespace rc {

template <>
struct Arbitrary<pecheck::FormatId> {
  static Gen<pecheck::FormatId> arbitrary() { return pecheck::properties::gen::format_id(); }
};

template <>
struct Arbitrary<pecheck::Layout> {
  static Gen<pecheck::Layout> arbitrary() { return pecheck::properties::gen::layout(); }
};

template <>
struct Arbitrary<pecheck::OddDimPolicy> {
  static Gen<pecheck::OddDimPolicy> arbitrary() { return pecheck::properties::gen::odd_dim_policy(); }
};

template <>
struct Arbitrary<pecheck::FrequencyRule> {
  static Gen<pecheck::FrequencyRule> arbitrary() { return pecheck::properties::gen::frequency_rule(); }
};

template <>
struct Arbitrary<pecheck::Convention> {
  static Gen<pecheck::Convention> arbitrary() { return pecheck::properties::gen::convention(); }
};

template <>
struct Arbitrary<pecheck::properties::EncodingCase> {
  static Gen<pecheck::properties::EncodingCase> arbitrary() { return pecheck::properties::gen::encoding_case(); }
};

}  // namespace rc
