// What the subject's embedding operation multiplies the token table by,
// measured by running that operation on a probe table. The runs train with
// this multiplier, not with Subject::embedding_scale: a subject that asks for
// sqrt(d) but divides by it, or leaves it out, or applies it twice (the scale
// faults live in the operation, scaling_faults.cpp) trains what it computes.
#include "pecheck/training/token_multiplier.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace pecheck::training {

namespace {

// Exact in float32, of both signs and several binades: a subject that adds
// an offset, or scales by a non-constant, gives inconsistent ratios.
constexpr std::array<double, 4> probe_values = {1.0, -0.75, 0.3125, 3.0};

// A linear subject's output entry is the exact multiplier times the probe,
// rounded to float32 at most twice (scale-applied-twice rounds s*E, then
// s*(s*E)): each measured ratio lies within (1 + 2^-24)^2 - 1 < 2^-23 of the
// multiplier, so two ratios lie within 2^-22 of each other (relative).
constexpr double ratio_tolerance = 0x1p-22;

std::string number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

}  // namespace

TokenMultiplier measure_token_multiplier(const Subject& subject, std::int64_t token_width,
                                         std::int64_t position_width, double scale) {
  const bool concatenated = position_width > 0;
  const std::int64_t rows = static_cast<std::int64_t>(probe_values.size());
  Table embeddings = make_table(rows, token_width, FormatId::float32);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < token_width; ++c) embeddings.set(r, c, probe_values[static_cast<std::size_t>(r)]);
  }
  // Adding: a zero encoding, so the output is the scaled token alone, exactly.
  // Concatenating: 0.5 everywhere, which must come out unchanged after the token columns.
  constexpr double encoding_value = 0.5;
  Table encoding = make_table(1, concatenated ? position_width : token_width, FormatId::float32);
  if (concatenated) {
    for (std::int64_t c = 0; c < position_width; ++c) encoding.set(0, c, encoding_value);
  }
  std::vector<std::int64_t> tokens, positions(static_cast<std::size_t>(rows), 0);
  for (std::int64_t r = 0; r < rows; ++r) tokens.push_back(r);
  EmbeddingInput input;
  input.embeddings = &embeddings;
  input.encoding = &encoding;
  input.token_ids = tokens;
  input.positions = positions;
  input.scale = scale;
  const std::string operation = concatenated ? "concat_embeddings" : "add_embeddings";
  const Table out = concatenated ? subject.concat_embeddings(input, FormatId::float32)
                                 : subject.add_embeddings(input, FormatId::float32);
  if (out.rows != rows || out.cols != token_width + position_width) {
    throw SubjectError("training: the subject's " + operation + " gave " + std::to_string(out.rows) + " x " +
                       std::to_string(out.cols) + " for " + std::to_string(rows) + " tokens of width " +
                       std::to_string(token_width) + (concatenated ? " + " + std::to_string(position_width) : ""));
  }
  TokenMultiplier measured{out.at(0, 0) / probe_values[0], operation};
  if (!std::isfinite(measured.value)) {
    throw SubjectError("training: the subject's " + operation + " multiplied the token embedding by " +
                       number(measured.value));
  }
  for (std::int64_t r = 0; r < rows; ++r) {
    const double expected = measured.value * probe_values[static_cast<std::size_t>(r)];
    for (std::int64_t c = 0; c < token_width; ++c) {
      if (std::fabs(out.at(r, c) - expected) > ratio_tolerance * std::fabs(expected)) {
        throw SubjectError("training: the subject's " + operation + " does not multiply the token embedding by one " +
                           "number (" + number(out.at(r, c)) + " for " +
                           number(probe_values[static_cast<std::size_t>(r)]) + " in column " + std::to_string(c) +
                           ", " + number(measured.value) + " for 1), so no run can train what it computes");
      }
    }
    for (std::int64_t c = 0; c < position_width; ++c) {
      if (out.at(r, token_width + c) != encoding_value) {
        throw SubjectError("training: the subject's concat_embeddings did not put the encoding after the " +
                           std::to_string(token_width) + " token columns (column " +
                           std::to_string(token_width + c) + " holds " + number(out.at(r, token_width + c)) +
                           ", not the encoding's " + number(encoding_value) + ")");
      }
    }
  }
  return measured;
}

std::string describe_token_multipliers(const Subject& subject, std::int64_t d) {
  const std::int64_t half = d / 2;
  const TokenMultiplier added = measure_token_multiplier(subject, d, 0, subject.embedding_scale(d, FormatId::float32));
  const TokenMultiplier concatenated =
      measure_token_multiplier(subject, half, d - half, subject.embedding_scale(half, FormatId::float32));
  char text[320];
  std::snprintf(text, sizeof text,
                "the scaled runs multiply the token table by %.4f (measured from the subject's %s, sqrt(%lld) = "
                "%.4f) and, concatenated, by %.4f (%s, sqrt(%lld) = %.4f)",
                added.value, added.operation.c_str(), static_cast<long long>(d), std::sqrt(double(d)),
                concatenated.value, concatenated.operation.c_str(), static_cast<long long>(half),
                std::sqrt(double(half)));
  return text;
}

}  // namespace pecheck::training
