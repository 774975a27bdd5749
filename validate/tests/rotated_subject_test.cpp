// Reading a rotated-output subject: the sequence axis found from POS, named
// by --qkv-format, and the cases refused with a message naming the files
// (never guessed); columns beyond the rotary width must pass unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "pecheck/validate/rotated_output.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::validate {
namespace {

HeldTensor floats(std::vector<std::int64_t> shape) {
  std::int64_t rows = 1;
  for (std::size_t k = 0; k + 1 < shape.size(); ++k) rows *= shape[k];
  const std::int64_t cols = shape.back();
  return owned_tensor(std::move(shape), make_table(rows, cols, FormatId::float32));
}

NpyArray integers(std::vector<std::int64_t> values) {
  NpyArray a;
  a.shape = {static_cast<std::int64_t>(values.size())};
  a.dtype = "<i8";
  a.integer = true;
  a.integers = std::move(values);
  return a;
}

std::vector<std::int64_t> arange(std::int64_t first, std::int64_t count) {
  std::vector<std::int64_t> v;
  for (std::int64_t k = 0; k < count; ++k) v.push_back(first + k);
  return v;
}

RotatedSubject subject(std::vector<std::int64_t> shape, std::vector<std::int64_t> positions) {
  RotatedSubject s;
  s.output = floats(shape);
  s.input = floats(shape);
  s.positions = integers(std::move(positions));
  return s;
}

std::string refusal(const RotatedSubject& s, std::optional<QkvFormat> format = std::nullopt) {
  try {
    resolve_tokens(s, format);
  } catch (const ValidationInputError& e) {
    return e.what();
  }
  return "";
}

TEST(RotatedSubject, theSequenceAxisIsTheOneOfPosLength) {
  const RotatedTokens t = resolve_tokens(subject({2, 5, 3, 8}, arange(10, 5)), std::nullopt);  // bshd
  EXPECT_EQ(t.sequence_axis, 1);
  EXPECT_EQ(t.rows, 30);
  // Row r = ((b * 5) + s) * 3 + h: its position is 10 + s.
  for (std::int64_t r = 0; r < t.rows; ++r) EXPECT_EQ(t.row_position[static_cast<std::size_t>(r)], 10 + (r / 3) % 5);
  const RotatedTokens bhsd = resolve_tokens(subject({2, 3, 7, 8}, arange(0, 7)), std::nullopt);
  EXPECT_EQ(bhsd.sequence_axis, 2);
  EXPECT_EQ(bhsd.row_position[8], 1);
}

TEST(RotatedSubject, anAmbiguousAxisIsRefusedAndNamedByQkvFormat) {
  const RotatedSubject s = subject({1, 4, 4, 8}, arange(0, 4));
  const std::string message = refusal(s);
  EXPECT_NE(message.find("axes 1 and 2"), std::string::npos) << message;
  EXPECT_NE(message.find("--qkv-format"), std::string::npos) << message;
  EXPECT_EQ(resolve_tokens(s, QkvFormat::bshd).sequence_axis, 1);
  EXPECT_EQ(resolve_tokens(s, QkvFormat::bhsd).sequence_axis, 2);
  // A format naming an axis of another length, or another rank, is refused.
  EXPECT_NE(refusal(s, QkvFormat::sbhd).find("axis 0"), std::string::npos);
  EXPECT_NE(refusal(s, QkvFormat::thd).find("names 3 axes"), std::string::npos);
}

TEST(RotatedSubject, badShapesAndPositionsAreRefusedNamingTheFile) {
  RotatedSubject s = subject({6, 8}, arange(0, 6));
  s.input = floats({6, 4});
  EXPECT_NE(refusal(s).find("expected the same shape"), std::string::npos);
  EXPECT_NE(refusal(subject({6, 8}, arange(0, 5))).find("no axis"), std::string::npos);
  EXPECT_NE(refusal(subject({6, 8}, {0, 1, 2, -3, 4, 5})).find("[0, 2^24)"), std::string::npos);
  RotatedSubject two_d = subject({6, 8}, arange(0, 6));
  two_d.positions.shape = {2, 3};
  EXPECT_NE(refusal(two_d).find("one position per token"), std::string::npos);
  EXPECT_NE(refusal(subject({8}, arange(0, 8))).find("expected (L, d)"), std::string::npos);
}

// A hand-made rotation (llama2 at width 8 of a head of 10, exact in double
// then rounded to float32), 64 positions.
constexpr std::int64_t hand_length = 64, hand_head = 10, hand_width = 8;

RotaryConvention hand_made_convention() {
  RotaryConvention c = *find_rotary_preset("llama2");
  c.head_dim = hand_head;
  c.rotary_fraction = 0.8;
  return c;
}

// Token p at position stride * p; with `changed`, a column beyond the rotary
// width of one output row differs from its input. IN and OUT are held in
// `format` (a bfloat16 or float16 tensor is read as Python hands it over).
RotatedSubject hand_made(std::int64_t stride = 1, bool changed = false, FormatId format = FormatId::float32) {
  const std::int64_t length = hand_length, head = hand_head, width = hand_width;
  std::vector<std::int64_t> positions = arange(0, length);
  for (std::int64_t& p : positions) p *= stride;
  RotatedSubject s = subject({length, head}, positions);
  Table in = make_table(length, head, format);
  Table out = make_table(length, head, format);
  for (std::int64_t p = 0; p < length; ++p) {
    for (std::int64_t c = 0; c < head; ++c) {
      in.set(p, c, std::sin(0.7 * static_cast<double>(p * head + c)) + 1.5);
      out.set(p, c, in.at(p, c));
    }
    for (std::int64_t i = 0; i < width / 2; ++i) {
      const double theta = static_cast<double>(p * stride) * std::pow(10000.0, -2.0 * static_cast<double>(i) / width);
      const double xa = in.at(p, i);
      const double xb = in.at(p, i + width / 2);
      out.set(p, i, xa * std::cos(theta) - xb * std::sin(theta));
      out.set(p, i + width / 2, xa * std::sin(theta) + xb * std::cos(theta));
    }
  }
  if (changed) out.set(5, 9, out.at(5, 9) + 1.0);
  s.input = owned_tensor({length, head}, std::move(in));
  s.output = owned_tensor({length, head}, std::move(out));
  return s;
}

// A column beyond the rotary width changed: detection names it.
TEST(RotatedSubject, aColumnBeyondTheRotaryWidthMustPassUnchanged) {
  const std::int64_t width = hand_width;
  const RotatedSubject s = hand_made(1, true);
  RotatedOptions options;
  options.convention = hand_made_convention();
  const Validation result = validate_rotated_output(s, options);
  const std::string text = validation_text(result, "hand-made");
  EXPECT_EQ(result.rotated().rotary_width, width) << text;
  EXPECT_TRUE(result.has(HazardKind::pass_through_changed)) << text;
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text;
  // The text says what was found, in the one writer's frame.
  EXPECT_NE(text.find("pairing: rotate-half, rotary width 8 of 10"), std::string::npos) << text;
  EXPECT_NE(text.find("hazard pass-through-changed: columns 8 to 9"), std::string::npos) << text;
  EXPECT_NE(text.find("deviates: pass-through-changed"), std::string::npos) << text;
  EXPECT_EQ(result.hazards.size(), 1u) << text;  // the fault above is the only thing wrong
}

// The same rotation untouched conforms: the fault above is the only thing wrong.
TEST(RotatedSubject, theUntouchedHandMadeRotationConforms) {
  RotatedSubject s = hand_made();
  RotatedOptions options;
  options.convention = hand_made_convention();
  const Validation result = validate_rotated_output(s, options);
  const std::string text = validation_text(result, "hand-made");
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << text;
  EXPECT_TRUE(result.hazards.empty()) << text;
}

// In the 16-bit formats too (whose rows are decoded, and whose non-finite
// outputs are counted, on their bits): the untouched rotation conforms, and
// an output with two infinities and a NaN is named with the three of them.
TEST(RotatedSubject, sixteenBitTensorsAreReadAsFloat32OnesAre) {
  RotatedOptions options;
  options.convention = hand_made_convention();
  for (const FormatId format : {FormatId::float32, FormatId::bfloat16, FormatId::float16}) {
    SCOPED_TRACE(std::string(format_of(format).name));
    const Validation clean = validate_rotated_output(hand_made(1, false, format), options);
    const std::string clean_text = validation_text(clean, "hand-made");
    EXPECT_EQ(clean.verdict, ValidationVerdict::conforms) << clean_text;
    EXPECT_FALSE(clean.has(HazardKind::non_finite)) << clean_text;

    RotatedSubject s = hand_made(1, false, format);
    Table out = copy_table(s.output.values);
    out.set(3, 1, std::numeric_limits<double>::infinity());
    out.set(7, 9, std::numeric_limits<double>::quiet_NaN());
    out.set(40, 6, -std::numeric_limits<double>::infinity());
    s.output = owned_tensor({hand_length, hand_head}, std::move(out));
    const Validation result = validate_rotated_output(s, options);
    const std::string text = validation_text(result, "hand-made with non-finite outputs");
    EXPECT_TRUE(result.has(HazardKind::non_finite)) << text;
    EXPECT_NE(text.find("3 outputs are NaN or infinite"), std::string::npos) << text;
    EXPECT_NE(result.verdict, ValidationVerdict::conforms) << text;
  }
}

// Positions with gaps: nothing is fitted from the angles (a note says so),
// and the convention given is compared as it is.
TEST(RotatedSubject, positionsWithGapsAreComparedWithTheConventionGiven) {
  RotatedOptions options;
  options.convention = hand_made_convention();
  const Validation result = validate_rotated_output(hand_made(3), options);
  const std::string text = validation_text(result, "hand-made, stride 3");
  EXPECT_FALSE(result.rotated().frequencies_fitted) << text;
  EXPECT_NE(text.find("POS does not cover a run of consecutive positions"), std::string::npos) << text;
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << text;
  // With nothing given there is nothing to compare with: unknown, not a guess.
  EXPECT_EQ(validate_rotated_output(hand_made(3)).verdict, ValidationVerdict::unknown);
}

}  // namespace
}  // namespace pecheck::validate
