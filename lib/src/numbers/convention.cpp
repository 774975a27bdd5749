#include "pecheck/convention.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace pecheck {

namespace {

std::string dim_error(const Convention& convention, std::int64_t d, std::string_view why) {
  std::ostringstream message;
  message << "--dim " << d << " is impossible for convention '" << convention.name << "': " << why;
  return message.str();
}

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

void check_dim(const Convention& convention, std::int64_t d) {
  if (d < 1) throw ConventionError(dim_error(convention, d, "the width must be at least 1"));
  if (d > max_dim) {
    throw ConventionError(dim_error(convention, d, "the width must be at most " + std::to_string(max_dim)));
  }
  if (d < convention.min_dim) {
    throw ConventionError(dim_error(convention, d,
                                    "this convention needs d >= " + std::to_string(convention.min_dim) +
                                        " (the original divides by d/2 - 1)"));
  }
  if (d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject) {
    throw ConventionError(dim_error(convention, d, "this convention rejects odd widths"));
  }
}

std::int64_t frequency_count(const Convention& convention, std::int64_t d) {
  if (d % 2 == 1 && convention.odd_dim == OddDimPolicy::extra_sin) return (d + 1) / 2;
  return d / 2;
}

FrequencyTerm frequency_term(const Convention& convention, std::int64_t d, std::int64_t i) {
  FrequencyTerm term;
  switch (convention.frequency.kind) {
    case FrequencyRuleKind::paper:
      // w_i = base^(-2i/d): the exponent's denominator is the full width,
      // odd or even, as in the paper and HF Marian.
      term.log_numerator = convention.frequency.base;
      term.log_denominator = 1.0;
      term.k = 2 * i;
      term.m = d;
      term.divisor = 1.0;
      break;
    case FrequencyRuleKind::timescale: {
      // w_i = (1/min_ts) exp(-i ln(max_ts/min_ts) / max(n - 1, 1)).
      const std::int64_t n = frequency_count(convention, d);
      term.log_numerator = convention.frequency.max_timescale;
      term.log_denominator = convention.frequency.min_timescale;
      term.k = i;
      term.m = std::max<std::int64_t>(n - 1, 1);
      term.divisor = convention.frequency.min_timescale;
      break;
    }
  }
  return term;
}

double frequency_value(const Convention& convention, std::int64_t d, std::int64_t i) {
  const FrequencyTerm term = frequency_term(convention, d, i);
  const double exponent = -(static_cast<double>(term.k) / static_cast<double>(term.m)) *
                          std::log(term.log_numerator / term.log_denominator);
  return std::exp(exponent) / term.divisor;
}

std::vector<ColumnSpec> column_layout(const Convention& convention, std::int64_t d) {
  check_dim(convention, d);
  const bool odd = d % 2 == 1;
  const std::int64_t pairs = d / 2;
  const bool extra_sin = odd && convention.odd_dim == OddDimPolicy::extra_sin;
  const std::int64_t sin_count = pairs + (extra_sin ? 1 : 0);
  const std::int64_t cos_count = pairs;

  std::vector<ColumnSpec> columns;
  columns.reserve(static_cast<std::size_t>(d));
  switch (convention.layout) {
    case Layout::interleaved:
      for (std::int64_t i = 0; i < pairs; ++i) {
        columns.push_back({ColumnKind::sin, i});
        columns.push_back({ColumnKind::cos, i});
      }
      if (extra_sin) columns.push_back({ColumnKind::sin, pairs});
      break;
    case Layout::sin_cos_halves:
      for (std::int64_t i = 0; i < sin_count; ++i) columns.push_back({ColumnKind::sin, i});
      for (std::int64_t i = 0; i < cos_count; ++i) columns.push_back({ColumnKind::cos, i});
      break;
    case Layout::cos_sin_halves:
      for (std::int64_t i = 0; i < cos_count; ++i) columns.push_back({ColumnKind::cos, i});
      for (std::int64_t i = 0; i < sin_count; ++i) columns.push_back({ColumnKind::sin, i});
      break;
  }
  while (static_cast<std::int64_t>(columns.size()) < d) columns.push_back({ColumnKind::zero, 0});
  return columns;
}

bool is_zero_row(const Convention& convention, std::int64_t row) {
  return std::find(convention.zero_rows.begin(), convention.zero_rows.end(), row) != convention.zero_rows.end();
}

const std::vector<Convention>& presets() {
  static const std::vector<Convention> all = [] {
    const FrequencyRule paper{FrequencyRuleKind::paper, 10000.0, 1.0, 1.0e4};
    const FrequencyRule timescale{FrequencyRuleKind::timescale, 10000.0, 1.0, 1.0e4};
    std::vector<Convention> list;
    list.push_back({"vaswani", Layout::interleaved, paper, 0, {}, OddDimPolicy::extra_sin, 1});
    list.push_back({"tf-tutorial", Layout::sin_cos_halves, paper, 0, {}, OddDimPolicy::reject, 1});
    list.push_back({"tensor2tensor", Layout::sin_cos_halves, timescale, 0, {}, OddDimPolicy::zero_column, 1});
    // fairseq: row padding_idx (default 1) is zeroed; real tokens start at
    // padding_idx + 1. Its d/2 - 1 divisor makes d < 4 a division by zero.
    list.push_back({"fairseq", Layout::sin_cos_halves, timescale, 0, {1}, OddDimPolicy::zero_column, 4});
    // HF Musicgen copies fairseq's get_embedding with cos first: same divisor.
    list.push_back({"musicgen", Layout::cos_sin_halves, timescale, 0, {}, OddDimPolicy::zero_column, 4});
    list.push_back({"marian-hf", Layout::sin_cos_halves, paper, 0, {}, OddDimPolicy::extra_sin, 1});
    return list;
  }();
  return all;
}

std::optional<Convention> find_preset(std::string_view name) {
  for (const Convention& preset : presets()) {
    if (preset.name == name) return preset;
  }
  return std::nullopt;
}

std::string_view to_string(Layout layout) {
  switch (layout) {
    case Layout::interleaved: return "interleaved";
    case Layout::sin_cos_halves: return "sin-cos-halves";
    case Layout::cos_sin_halves: return "cos-sin-halves";
  }
  return "?";
}

std::string_view to_string(FrequencyRuleKind kind) {
  switch (kind) {
    case FrequencyRuleKind::paper: return "paper";
    case FrequencyRuleKind::timescale: return "timescale";
  }
  return "?";
}

std::string_view to_string(OddDimPolicy policy) {
  switch (policy) {
    case OddDimPolicy::reject: return "reject";
    case OddDimPolicy::extra_sin: return "extra-sin";
    case OddDimPolicy::zero_column: return "zero-column";
  }
  return "?";
}

std::string describe(const Convention& convention) {
  std::ostringstream out;
  switch (convention.layout) {
    case Layout::interleaved: out << "PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i)"; break;
    case Layout::sin_cos_halves: out << "PE[p, i] = sin(p w_i), PE[p, n+i] = cos(p w_i)"; break;
    case Layout::cos_sin_halves: out << "PE[p, i] = cos(p w_i), PE[p, n+i] = sin(p w_i)"; break;
  }
  out << "; ";
  const FrequencyRule& rule = convention.frequency;
  if (rule.kind == FrequencyRuleKind::paper) {
    out << "w_i = " << format_number(rule.base) << "^(-2i/d)";
  } else {
    out << "w_i = (1/" << format_number(rule.min_timescale) << ") exp(-i ln(" << format_number(rule.max_timescale)
        << "/" << format_number(rule.min_timescale) << ") / max(n-1, 1))";
  }
  out << "; n = d/2; row r holds position r";
  if (convention.position_offset != 0) out << " + " << convention.position_offset;
  if (!convention.zero_rows.empty()) {
    out << "; zero rows:";
    for (std::int64_t row : convention.zero_rows) out << ' ' << row;
  }
  switch (convention.odd_dim) {
    case OddDimPolicy::reject: out << "; odd d rejected"; break;
    case OddDimPolicy::extra_sin: out << "; odd d: sin gets the extra column"; break;
    case OddDimPolicy::zero_column: out << "; odd d: one zero column appended"; break;
  }
  if (convention.min_dim > 1) out << "; d >= " << convention.min_dim;
  return out.str();
}

}  // namespace pecheck
