#include "pecheck/convention.hpp"
#include "pecheck/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace pecheck {

namespace {

std::string dim_error(const Convention& convention, std::int64_t d, std::string_view why) {
  std::ostringstream message;
  message << "--dim " << d << " is impossible for convention '" << convention.name << "': " << why;
  return message.str();
}

std::string format_number(double value) { return significant(value, 6); }

}  // namespace

void check_dim(const Convention& convention, std::int64_t d) {
  if (d < 1) throw ConventionError(dim_error(convention, d, "the width must be at least 1"));
  if (d > max_dim) {
    throw ConventionError(dim_error(convention, d, "the width must be at most " + std::to_string(max_dim)));
  }
  if (convention.frequency.kind == FrequencyRuleKind::timestep && d / 2 >= 1 &&
      d / 2 - convention.frequency.downscale_freq_shift < 1) {
    throw ConventionError(dim_error(
        convention, d,
        "this convention needs d >= " + std::to_string(2 * convention.frequency.downscale_freq_shift + 2) +
            " (get_timestep_embedding divides by d/2 - downscale_freq_shift, which must be at least 1)"));
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
    case FrequencyRuleKind::timestep:
      // w_i = scale exp(-ln(max_period) i / (n - shift)), n = floor(d/2): the
      // odd width's last column is diffusers' zero pad, not a frequency.
      term.log_numerator = convention.frequency.max_period;
      term.log_denominator = 1.0;
      term.k = i;
      term.m = d / 2 - convention.frequency.downscale_freq_shift;
      term.divisor = 1.0;
      term.multiplier = convention.frequency.scale;
      break;
  }
  return term;
}

bool same_frequency(const FrequencyTerm& a, const FrequencyTerm& b) {
  // k/m and k'/m' as fractions: m, m' >= 1 and k, k' < 2^15 (d <= max_dim), so the products are exact.
  return a.log_numerator == b.log_numerator && a.log_denominator == b.log_denominator && a.divisor == b.divisor &&
         a.multiplier == b.multiplier && a.k * b.m == b.k * a.m;
}

double frequency_value(const Convention& convention, std::int64_t d, std::int64_t i) {
  const FrequencyTerm term = frequency_term(convention, d, i);
  const double exponent = -(static_cast<double>(term.k) / static_cast<double>(term.m)) *
                          std::log(term.log_numerator / term.log_denominator);
  return term.multiplier * std::exp(exponent) / term.divisor;
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

std::vector<FrequencyColumns> columns_by_frequency(const std::vector<ColumnSpec>& columns) {
  std::vector<FrequencyColumns> by_frequency;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const ColumnSpec& spec = columns[c];
    if (spec.kind == ColumnKind::zero) continue;
    const auto i = static_cast<std::size_t>(spec.frequency_index);
    if (by_frequency.size() <= i) {
      const std::size_t first_new = by_frequency.size();
      by_frequency.resize(i + 1);
      for (std::size_t k = first_new; k <= i; ++k) by_frequency[k].frequency_index = static_cast<std::int64_t>(k);
    }
    (spec.kind == ColumnKind::sin ? by_frequency[i].sin_column : by_frequency[i].cos_column) =
        static_cast<std::int64_t>(c);
  }
  return by_frequency;
}

std::vector<FrequencyColumns> paired_frequencies(const Convention& convention, std::int64_t d) {
  std::vector<FrequencyColumns> pairs = columns_by_frequency(column_layout(convention, d));
  std::erase_if(pairs, [](const FrequencyColumns& f) { return !f.paired(); });
  return pairs;
}

bool is_zero_row(const Convention& convention, std::int64_t row) {
  return std::find(convention.zero_rows.begin(), convention.zero_rows.end(), row) != convention.zero_rows.end();
}

Convention for_rows(const Convention& convention, std::int64_t rows) {
  Convention resolved = convention;
  switch (convention.span) {
    case PositionSpan::fixed:
      return resolved;
    case PositionSpan::down_to_zero:
      if (rows < 1) throw ConventionError("--rows " + std::to_string(rows) + ": expected at least one row");
      resolved.position_offset = rows - 1;  // L rows: L-1 down to 0
      break;
    case PositionSpan::centred_on_zero:
      if (rows < 1 || rows % 2 == 0) {
        throw ConventionError("--rows " + std::to_string(rows) + " is impossible for convention '" + convention.name +
                              "': its table for length L has 2L-1 rows (expected an odd row count)");
      }
      resolved.position_offset = (rows - 1) / 2;  // 2L-1 rows: L-1 down to -(L-1)
      break;
  }
  resolved.position_step = -1;
  resolved.span = PositionSpan::fixed;
  return resolved;
}

bool same_name(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

std::optional<Convention> find_preset(std::string_view name) {
  for (const Convention& preset : all_presets()) {
    if (same_name(preset.name, name)) return preset;
  }
  return std::nullopt;
}

Convention preset_by_name(std::string_view name) {
  std::optional<Convention> found = find_preset(name);
  if (!found) {
    throw ConventionError("unknown convention '" + std::string(name) + "' (expected one of " + preset_names() + ")");
  }
  return *std::move(found);
}

std::string preset_names() {
  std::string names;
  for (const Convention& preset : all_presets()) names += (names.empty() ? "" : ", ") + preset.name;
  return names;
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
    case FrequencyRuleKind::timestep: return "timestep";
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

std::string_view to_string(PositionSpan span) {
  switch (span) {
    case PositionSpan::fixed: return "fixed";
    case PositionSpan::down_to_zero: return "down-to-zero";
    case PositionSpan::centred_on_zero: return "centred-on-zero";
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
  } else if (rule.kind == FrequencyRuleKind::timestep) {
    out << "w_i = ";
    if (rule.scale != 1.0) out << format_number(rule.scale) << " ";
    out << "exp(-ln(" << format_number(rule.max_period) << ") i / (n - " << rule.downscale_freq_shift
        << ")) (get_timestep_embedding: flip_sin_to_cos "
        << (convention.layout == Layout::cos_sin_halves ? "true" : "false") << ", downscale_freq_shift "
        << rule.downscale_freq_shift << ", scale " << format_number(rule.scale) << ", max_period "
        << format_number(rule.max_period) << ")";
  } else {
    out << "w_i = (1/" << format_number(rule.min_timescale) << ") exp(-i ln(" << format_number(rule.max_timescale)
        << "/" << format_number(rule.min_timescale) << ") / max(n-1, 1))";
  }
  out << "; n = d/2; ";
  switch (convention.span) {
    case PositionSpan::down_to_zero:
      out << "L rows: row r holds position L-1-r (L-1 down to 0)";
      break;
    case PositionSpan::centred_on_zero:
      out << "2L-1 rows: row r holds position L-1-r (L-1 down to -(L-1))";
      break;
    case PositionSpan::fixed:
      out << "row r holds position ";
      if (convention.position_step < 0) {
        out << convention.position_offset << " - r";
      } else {
        out << "r";
        if (convention.position_offset != 0) out << " + " << convention.position_offset;
      }
      break;
  }
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
