#include "scaled.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "encoding_rows.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// The first rows read (successive, so detection can read the frequencies
// from the angles of successive rows): a bounded copy, not the whole table.
constexpr std::int64_t sample_rows = 4096;
// A correctly shaped sinusoid: within bfloat16's relative rounding (2^-8) of
// the encoding times the fitted scale, in RMS over the sample. Looser than the
// values' own format so a scaled table with other small faults is still named
// scaled; the scale is the finding, not a verdict on its ULPs.
constexpr double shape_tolerance = 0x1p-8;
// A scale this close to 1 is not told from drift or noise.
constexpr double least_scale_departure = 0x1p-6;

struct KnownScale {
  std::string name;
  double value;
  std::string where;
};

std::vector<KnownScale> known_scales(std::int64_t d) {
  const double dim = static_cast<double>(d);
  return {
      {"sqrt(d)", std::sqrt(dim), "the embedding scale applied to the encoding too, as NeMo's "
                                  "FixedPositionalEncoding with xscale does"},
      {"1/sqrt(d)", 1.0 / std::sqrt(dim), "sockeye's scale-down of the positions, x-transformers' "
                                          "ScaledSinusoidalEmbedding's initial scale"},
      {"d", dim, "sqrt(d) applied twice"},
      {"1/d", 1.0 / dim, "1/sqrt(d) applied twice"},
  };
}

// The scale as named: the known constant s matches within 2 ULP of its value
// in the values' format, also when it was itself rounded to that format
// (Gemma's bf16(sqrt(3072)) = 55.5 is the input layer's case).
std::optional<KnownScale> known_scale(double s, std::int64_t d, const Format& format) {
  for (const KnownScale& known : known_scales(d)) {
    const double tolerance = std::ldexp(std::fabs(known.value), 2 - format.precision);
    if (std::fabs(s - known.value) <= tolerance) return known;
    if (std::fabs(s - round_to_format(known.value, format)) <= tolerance) {
      return KnownScale{known.name + " rounded to " + std::string(format.name), round_to_format(known.value, format),
                        known.where};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<ScaledEncoding> scaled_encoding(const Table& table, const DetectionOptions& options) {
  const FormatId format = options.value_format.value_or(table.format);
  const std::int64_t rows = std::min(table.rows, sample_rows);
  // The RMS scale: each sin/cos pair holds s^2 (sin^2 + cos^2) = s^2 over
  // two entries, so the mean square of the entries of non-zero columns is s^2 / 2.
  double squares = 0.0;
  double entries = 0.0;
  for (std::int64_t c = 0; c < table.cols; ++c) {
    double column = 0.0;
    double finite = 0.0;
    for (std::int64_t r = 0; r < rows; ++r) {
      const double v = table.at(r, c);
      if (std::isfinite(v)) column += v * v, finite += 1.0;
    }
    if (column > 0.0) squares += column, entries += finite;
  }
  if (entries == 0.0) return std::nullopt;
  const double rough = std::sqrt(2.0 * squares / entries);
  if (!(rough > 0.0) || !std::isfinite(rough)) return std::nullopt;

  Table divided = make_table(rows, table.cols, FormatId::float64);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) divided.set(r, c, table.at(r, c) / rough);
  }
  DetectionOptions coarse = options;
  coarse.value_format = FormatId::bfloat16;  // the rough scale is a few percent off: pair as drift.cpp does
  const Detection found = detect_convention(divided, coarse);
  if (!found.sinusoidal || !found.convention) return std::nullopt;

  // The scale by least squares against the encoding: s = sum v e / sum e^2.
  std::vector<std::int64_t> all(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) all[static_cast<std::size_t>(r)] = r;
  const std::vector<double> expected = encoding_rows(*found.convention, table.cols, shifted(all, found.row_offset));
  double ve = 0.0, ee = 0.0, count = 0.0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) {
      const double v = table.at(r, c);
      const double e = expected[static_cast<std::size_t>(r * table.cols + c)];
      if (std::isfinite(v)) ve += v * e, ee += e * e, count += 1.0;
    }
  }
  if (ee == 0.0) return std::nullopt;
  const double s = ve / ee;
  double residual = 0.0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) {
      const double v = table.at(r, c);
      const double d = v - s * expected[static_cast<std::size_t>(r * table.cols + c)];
      if (std::isfinite(v)) residual += d * d;
    }
  }
  const double relative_rms = std::sqrt(residual / count) / std::fabs(s);
  if (!(relative_rms <= shape_tolerance)) return std::nullopt;
  // Near 1, a table moved by noise (drift.cpp) fits a scale a little off 1
  // as well (0.99999 for noise of RMS 0.001): that is drift, not a scale.
  if (std::fabs(s - 1.0) <= least_scale_departure) return std::nullopt;

  const std::string name = found.preset ? *found.preset : "a custom convention (" + describe(*found.convention) + ")";
  const std::optional<KnownScale> known = known_scale(s, table.cols, format_of(format));
  std::ostringstream evidence;
  evidence << "sin^2 + cos^2 is " << significant(s * s, 4) << ", not 1: the table is " << name << " (file row 0 holding row "
           << found.row_offset << ") times s = " << significant(s, 9) << ", fitted by least squares over the first " << rows
           << (rows == 1 ? " row" : " rows") << ", where it lies within RMS " << significant(relative_rms, 3)
           << " s of s times the encoding";
  if (known) {
    evidence << "; s is " << known->name << " = " << significant(known->value, 9) << " for d = " << table.cols << " ("
             << known->where << ")";
  } else {
    evidence << "; s is none of sqrt(d), 1/sqrt(d), d, 1/d for d = " << table.cols;
  }
  evidence << ". Divide by s to compare the encoding itself.";
  ScaledEncoding scaled;
  scaled.hazard = {HazardKind::scaled, evidence.str()};
  scaled.reason = "the table is " + (found.preset ? *found.preset : std::string("a sinusoidal encoding")) +
                  " times " + significant(s, 6) + (known ? " (" + known->name + ")" : std::string()) +
                  ", not the encoding itself";
  scaled.scale = s;
  return scaled;
}

}  // namespace pecheck::validate
