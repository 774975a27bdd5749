#include "pecheck/embedding.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "pecheck/double_double.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/testing/table_values.hpp"

using namespace pecheck::testing;  // fill_table, flat_at, flat_set, table_of, values_of

namespace pecheck {
namespace {

constexpr FormatId kNarrowFormats[] = {FormatId::float32, FormatId::float16, FormatId::bfloat16};

// sqrt(d) correctly rounded to p bits by integer arithmetic alone, an oracle
// independent of correctly_rounded_sqrt: with sqrt(d) in [2^e, 2^(e+1)) the
// format's spacing there is 2^q, q = e - p + 1 (negative for every d below
// 2^(2p)); then sqrt(d) / 2^q = sqrt(d 4^-q) = sqrt(n), n an integer below
// 2^(2p) <= 2^48, whose floor a and rounding (compare 4n with (2a + 1)^2) are exact.
double integer_oracle_sqrt(std::int64_t d, int precision) {
  int e = 0;
  while ((std::int64_t{1} << (2 * (e + 1))) <= d) ++e;  // 4^e <= d < 4^(e+1)
  const int q = e - precision + 1;
  EXPECT_LE(q, 0) << "the oracle is written for d up to 4^p";
  const auto n = static_cast<std::uint64_t>(d) << (-2 * q);
  auto a = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n)));
  while (a * a > n) --a;
  while ((a + 1) * (a + 1) <= n) ++a;
  const std::uint64_t twice_plus_one = 2 * a + 1;
  const std::uint64_t four_n = 4 * n;
  if (four_n > twice_plus_one * twice_plus_one || (four_n == twice_plus_one * twice_plus_one && (a & 1) != 0)) ++a;
  return std::ldexp(static_cast<double>(a), q);  // a <= 2^p: exact
}

TEST(EmbeddingScale, isSqrtDCorrectlyRoundedForEveryWidthAndFormat) {
  for (FormatId id : kNarrowFormats) {
    const Format& format = format_of(id);
    for (std::int64_t d = 1; d <= max_dim; ++d) {
      ASSERT_EQ(correctly_rounded_sqrt(d, id), integer_oracle_sqrt(d, format.precision))
          << "d = " << d << " in " << format.name;
    }
  }
  for (std::int64_t d = 1; d <= max_dim; ++d) {
    ASSERT_EQ(correctly_rounded_sqrt(d, FormatId::float64), std::sqrt(static_cast<double>(d)));
  }
}

TEST(EmbeddingScale, matchesGemmasBfloat16ScaleAndTheFloat16Value) {
  // CONVENTIONS.md: Gemma multiplies by sqrt(3072) rounded to bfloat16, 55.5.
  EXPECT_EQ(correctly_rounded_sqrt(3072, FormatId::bfloat16), 55.5);
  // float16 keeps 11 bits: 55.4256... lies between 55.40625 and 55.4375 (spacing 1/32), nearer the latter.
  EXPECT_EQ(correctly_rounded_sqrt(3072, FormatId::float16), 55.4375);
  EXPECT_EQ(correctly_rounded_sqrt(512, FormatId::float32), static_cast<double>(std::sqrt(512.0f)));
}

TEST(EmbeddingScale, breaksExactTiesToTheEvenSignificand) {
  // 257 = 1.00000001b x 2^8 is the midpoint of bfloat16's 256 and 258; 256 is even.
  EXPECT_EQ(correctly_rounded_sqrt(257 * 257, FormatId::bfloat16), 256.0);
  // 259 lies between 258 (odd significand) and 260 (even).
  EXPECT_EQ(correctly_rounded_sqrt(259 * 259, FormatId::bfloat16), 260.0);
  EXPECT_EQ(correctly_rounded_sqrt(16384, FormatId::bfloat16), 128.0);
}

TEST(EmbeddingScale, rejectsWidthsBelowOne) {
  EXPECT_THROW(correctly_rounded_sqrt(0, FormatId::float32), SubjectError);
  EXPECT_THROW(correctly_rounded_sqrt(-4, FormatId::float32), SubjectError);
}

// ---- add_embeddings against an independent oracle ----------------------------

// The exact value hi + lo rounded once to the format: round_to_format(hi)
// unless hi is exactly a midpoint of the format and lo breaks the tie. hi is
// a midpoint when r = round_to_format(hi) differs from hi and 2 hi - r (the
// value on the other side at the same distance) is a value of the format.
double round_pair_once(DoubleDouble x, const Format& format) {
  const double r = round_to_format(x.hi, format);
  if (x.lo == 0.0 || r == x.hi || !std::isfinite(r)) return r;
  const double other = x.hi + (x.hi - r);
  if (!is_representable(other, format)) return r;
  const bool lo_towards_other = (other > x.hi) == (x.lo > 0.0);
  return lo_towards_other ? other : r;
}

// IEEE arithmetic in the format, one correct rounding per operation, from
// error-free transformations rather than from the code under test.
double oracle_add(double scale, double e, double pe, const Format& format) {
  const double scaled = round_pair_once(two_prod(scale, e), format);
  return round_pair_once(two_sum(scaled, pe), format);
}

bool same_bits(double a, double b, const Format& format) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return to_bits(a, format) == to_bits(b, format);
}

// Any finite value of the format, from its bit pattern (subnormals, binade
// edges and both zeros come up; RapidCheck's own doubles never give them).
rc::Gen<double> finite_format_value(FormatId id) {
  const Format& format = format_of(id);
  const std::uint64_t mask =
      format.storage_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << format.storage_bits) - 1;
  return rc::gen::oneOf(
      rc::gen::suchThat(rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                                     [mask, &format](std::uint64_t bits) { return from_bits(bits & mask, format); }),
                        [](double v) { return std::isfinite(v); }),
      rc::gen::element(0.0, -0.0, 1.0, -1.0, smallest_subnormal(format), -smallest_normal(format),
                       largest_finite(format)));
}

RC_GTEST_PROP(AddEmbeddings, roundsEachOperationOnceInTheFormat, ()) {
  const FormatId id = *rc::gen::element(FormatId::float32, FormatId::float16, FormatId::bfloat16).as("format");
  const Format& format = format_of(id);
  const std::int64_t d = *rc::gen::inRange<std::int64_t>(1, 9).as("d");
  Table embeddings = make_table(3, d, id);
  Table encoding = make_table(2, d, id);
  fill_table(embeddings, [&] { return *finite_format_value(id); });
  fill_table(encoding, [&] { return *finite_format_value(id); });
  const double scale = *finite_format_value(id).as("scale");
  const std::vector<std::int64_t> ids = {2, 0, 1, 2};
  const std::vector<std::int64_t> positions = {0, 1, 1, 0};
  const Table x = add_embeddings({&embeddings, &encoding, ids, positions, scale}, id);
  for (std::int64_t j = 0; j < x.rows; ++j) {
    for (std::int64_t c = 0; c < d; ++c) {
      const double expected = oracle_add(scale, embeddings.at(ids[j], c), encoding.at(positions[j], c), format);
      RC_ASSERT(same_bits(x.at(j, c), expected, format));
    }
  }
}

RC_GTEST_PROP(AddEmbeddings, fusedFloat32PathGivesTheSameBitsAsTheGenericPath, ()) {
  const std::int64_t d = *rc::gen::inRange<std::int64_t>(1, 40).as("d");
  Table embeddings = make_table(4, d, FormatId::float32);
  Table encoding = make_table(3, d, FormatId::float32);
  fill_table(embeddings, [&] { return *finite_format_value(FormatId::float32); });
  fill_table(encoding, [&] { return *finite_format_value(FormatId::float32); });
  const double scale = *finite_format_value(FormatId::float32).as("scale");
  const std::vector<std::int64_t> ids = {3, 1, 0, 3, 2};
  const std::vector<std::int64_t> positions = {0, 2, 1, 1, 0};
  const Table generic = add_embeddings({&embeddings, &encoding, ids, positions, scale}, FormatId::float32);

  std::vector<float> fused(ids.size() * static_cast<std::size_t>(d));
  add_embeddings_float32(std::as_const(embeddings).storage<float>(), std::as_const(encoding).storage<float>(), d, ids, positions, static_cast<float>(scale), fused);
  for (std::size_t i = 0; i < fused.size(); ++i) {
    RC_ASSERT(same_bits(flat_at(generic, static_cast<std::int64_t>(i)), static_cast<double>(fused[i]), format_of(FormatId::float32)));
  }
}

TEST(AddEmbeddings, followsIeeeSignedZeroRules) {
  Table embeddings = make_table(1, 3, FormatId::bfloat16);
  Table encoding = make_table(1, 3, FormatId::bfloat16);
  embeddings = table_of(embeddings.rows, embeddings.cols, embeddings.format, {-0.0, -0.0, 0.0});
  encoding = table_of(encoding.rows, encoding.cols, encoding.format, {0.0, -0.0, -0.0});
  const std::vector<std::int64_t> ids = {0};
  const std::vector<std::int64_t> positions = {0};
  const Table x = add_embeddings({&embeddings, &encoding, ids, positions, 2.0}, FormatId::bfloat16);
  EXPECT_FALSE(std::signbit(flat_at(x, static_cast<std::int64_t>(0)))) << "2 * -0 = -0, and -0 + +0 = +0 in round-to-nearest";
  EXPECT_TRUE(std::signbit(flat_at(x, static_cast<std::int64_t>(1)))) << "-0 + -0 = -0";
  EXPECT_FALSE(std::signbit(flat_at(x, static_cast<std::int64_t>(2)))) << "+0 + -0 = +0";
}

TEST(AddEmbeddings, overflowsToInfinityAsTheFormatWould) {
  for (FormatId id : kNarrowFormats) {
    const Format& format = format_of(id);
    Table embeddings = make_table(1, 2, id);
    Table encoding = make_table(1, 2, id);
    embeddings = table_of(embeddings.rows, embeddings.cols, embeddings.format, {largest_finite(format), -largest_finite(format)});
    encoding = table_of(encoding.rows, encoding.cols, encoding.format, {0.0, 1.0});
    const std::vector<std::int64_t> ids = {0};
    const std::vector<std::int64_t> positions = {0};
    const Table x = add_embeddings({&embeddings, &encoding, ids, positions, 2.0}, id);
    EXPECT_EQ(flat_at(x, static_cast<std::int64_t>(0)), std::numeric_limits<double>::infinity()) << format.name;
    EXPECT_EQ(flat_at(x, static_cast<std::int64_t>(1)), -std::numeric_limits<double>::infinity()) << format.name;
    // The largest value plus a quarter of its ulp (less than half) rounds back to it.
    const double quarter_ulp = std::ldexp(1.0, format.max_exponent - format.precision - 1);  // ulp = 2^(emax - p + 1)
    Table near = make_table(1, 1, id);
    near = table_of(near.rows, near.cols, near.format, {quarter_ulp});
    Table top = make_table(1, 1, id);
    top = table_of(top.rows, top.cols, top.format, {largest_finite(format)});
    const Table y = add_embeddings({&top, &near, ids, positions, 1.0}, id);
    EXPECT_EQ(flat_at(y, static_cast<std::int64_t>(0)), largest_finite(format)) << format.name;
  }
}

// ---- concat and padding -----------------------------------------------------

TEST(ConcatEmbeddings, placesTheScaledTokenRowBeforeTheEncodingRow) {
  Table embeddings = make_table(2, 2, FormatId::float32);
  Table encoding = make_table(3, 3, FormatId::float32);
  embeddings = table_of(embeddings.rows, embeddings.cols, embeddings.format, {1.5, -0.0, 3.0, 0.25});
  encoding = table_of(encoding.rows, encoding.cols, encoding.format, {0.0, 1.0, -1.0, 0.5, 0.75, -0.0, 2.0, 4.0, 8.0});
  const std::vector<std::int64_t> ids = {1, 0};
  const std::vector<std::int64_t> positions = {2, 1};
  const Table x = concat_embeddings({&embeddings, &encoding, ids, positions, 2.0}, FormatId::float32);
  ASSERT_EQ(x.cols, 5);
  EXPECT_EQ(values_of(x), (std::vector<double>{6.0, 0.5, 2.0, 4.0, 8.0, 3.0, -0.0, 0.5, 0.75, -0.0}));
  EXPECT_TRUE(std::signbit(x.at(1, 1))) << "2 * -0 keeps its sign";
  EXPECT_TRUE(std::signbit(x.at(1, 4))) << "the encoding row is copied bit for bit";
}

TEST(ZeroPad, putsPositiveZeroColumnsOnEachSide) {
  Table table = make_table(2, 2, FormatId::float16);
  table = table_of(table.rows, table.cols, table.format, {1.0, -0.0, 2.0, 3.0});
  const Table padded = zero_pad(table, 1, 2);
  ASSERT_EQ(padded.cols, 5);
  EXPECT_EQ(padded.format, FormatId::float16);
  EXPECT_EQ(values_of(padded), (std::vector<double>{0.0, 1.0, -0.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.0, 0.0}));
  EXPECT_FALSE(std::signbit(padded.at(0, 0)));
  EXPECT_TRUE(std::signbit(padded.at(0, 2)));
  EXPECT_THROW(zero_pad(table, -1, 0), SubjectError);
}

// ---- errors a user can act on -----------------------------------------------

void expect_subject_error(const std::function<void()>& action, const std::string& fragment) {
  try {
    action();
    ADD_FAILURE() << "expected a SubjectError mentioning '" << fragment << "'";
  } catch (const SubjectError& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(AddEmbeddings, rejectsBadInputWithAMessageNamingIt) {
  Table embeddings = make_table(2, 3, FormatId::bfloat16);
  Table encoding = make_table(2, 3, FormatId::bfloat16);
  Table narrow = make_table(2, 2, FormatId::bfloat16);
  const std::vector<std::int64_t> ids = {0, 1};
  const std::vector<std::int64_t> positions = {1, 0};
  const std::vector<std::int64_t> bad_ids = {0, 2};
  const std::vector<std::int64_t> one = {0};
  expect_subject_error([&] { add_embeddings({&embeddings, &narrow, ids, positions, 1.0}, FormatId::bfloat16); },
                       "columns");
  expect_subject_error([&] { add_embeddings({&embeddings, &encoding, bad_ids, positions, 1.0}, FormatId::bfloat16); },
                       "token id 2");
  expect_subject_error([&] { add_embeddings({&embeddings, &encoding, ids, one, 1.0}, FormatId::bfloat16); },
                       "positions");
  expect_subject_error([&] { add_embeddings({&embeddings, &encoding, ids, positions, 0.1}, FormatId::bfloat16); },
                       "scale");
  // A float32 table may be given for a bfloat16 operation when its rows hold bfloat16 values.
  Table wide = convert_table(embeddings, FormatId::float32);
  wide.set(1, 2, 0.1);  // not a bfloat16 value
  expect_subject_error([&] { add_embeddings({&wide, &encoding, ids, positions, 1.0}, FormatId::bfloat16); },
                       "row 1, column 2");
  const Table rounded = rounded_to(wide, FormatId::bfloat16);
  EXPECT_NO_THROW(add_embeddings({&rounded, &encoding, ids, positions, 1.0}, FormatId::bfloat16));
}

TEST(AddEmbeddingsFloat32, rejectsIdsOutsideTheVocabulary) {
  const std::vector<float> vocabulary(6, 1.0f);
  const std::vector<float> encoding(4, 0.5f);
  const std::vector<std::int64_t> ids = {3};
  const std::vector<std::int64_t> positions = {0};
  std::vector<float> out(2);
  expect_subject_error([&] { add_embeddings_float32(vocabulary, encoding, 2, ids, positions, 1.0f, out); },
                       "token id 3");
}

// The fused pass split across 1, 2 and 3 threads gives the same bits, with
// plain stores (a small output) and with streaming ones (2048 x 1024 floats,
// 8 MiB); each equals the scalar formula. The values are arbitrary floats.
TEST(AddEmbeddingsFloat32, threadCountsOneTwoAndThreeGiveTheSameBits) {
  for (const std::int64_t tokens : {std::int64_t{37}, std::int64_t{2048}}) {
    constexpr std::int64_t d = 1024;
    constexpr std::int64_t vocabulary_rows = 50;
    constexpr std::int64_t positions_count = 300;
    std::vector<float> vocabulary(vocabulary_rows * d);
    std::vector<float> encoding(positions_count * d);
    for (std::size_t i = 0; i < vocabulary.size(); ++i) vocabulary[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)));
    for (std::size_t i = 0; i < encoding.size(); ++i) encoding[i] = static_cast<float>(std::cos(0.11 * static_cast<double>(i)));
    std::vector<std::int64_t> ids;
    std::vector<std::int64_t> positions;
    for (std::int64_t j = 0; j < tokens; ++j) {
      ids.push_back((j * 7) % vocabulary_rows);
      positions.push_back(j % positions_count);
    }
    const float scale = 32.0f;
    std::vector<float> out[3];
    for (int t = 0; t < 3; ++t) {
      out[t].assign(static_cast<std::size_t>(tokens * d), -1.0f);
      add_embeddings_float32(vocabulary, encoding, d, ids, positions, scale, out[t], t + 1);
    }
    for (std::int64_t j = 0; j < tokens; ++j) {
      for (std::int64_t c = 0; c < d; c += 13) {
        const float expected = vocabulary[static_cast<std::size_t>(ids[static_cast<std::size_t>(j)] * d + c)] * scale +
                               encoding[static_cast<std::size_t>(positions[static_cast<std::size_t>(j)] * d + c)];
        ASSERT_EQ(std::bit_cast<std::uint32_t>(out[0][static_cast<std::size_t>(j * d + c)]),
                  std::bit_cast<std::uint32_t>(expected))
            << "token " << j << " column " << c;
      }
    }
    for (int t = 1; t < 3; ++t) {
      ASSERT_EQ(std::memcmp(out[0].data(), out[t].data(), out[0].size() * sizeof(float)), 0)
          << tokens << " tokens, " << t + 1 << " threads";
    }
  }
}

// ---- subjects ---------------------------------------------------------------

class TableOnlySubject final : public Subject {
 public:
  std::string name() const override { return "table-only"; }
  SubjectCapabilities capabilities() const override { return {}; }
  Table encoding_table(const Convention&, const TableRequest&, FormatId format) const override {
    return make_table(0, 0, format);
  }
};

TEST(Subject, refusesEmbeddingOperationsItDoesNotOfferNamingItselfAndTheOperation) {
  const TableOnlySubject subject;
  expect_subject_error([&] { subject.embedding_scale(512, FormatId::float32); }, "'table-only'");
  expect_subject_error([&] { subject.embedding_scale(512, FormatId::float32); }, "embedding_scale");
  expect_subject_error([&] { subject.add_embeddings({}, FormatId::float32); }, "add_embeddings");
  expect_subject_error([&] { subject.concat_embeddings({}, FormatId::float32); }, "concat_embeddings");
  expect_subject_error([&] { subject.zero_pad(make_table(1, 1, FormatId::float32), 0, 1); }, "zero_pad");
}

TEST(FastSubject, offersTheEmbeddingOperationsWithTheCorrectlyRoundedScale) {
  const auto subject = make_fast_subject();
  EXPECT_TRUE(subject->capabilities().embedding_operations);
  EXPECT_EQ(subject->embedding_scale(3072, FormatId::bfloat16), 55.5);
  Table embeddings = make_table(2, 4, FormatId::float32);
  Table encoding = make_table(2, 4, FormatId::float32);
  for (std::size_t i = 0; i < 8; ++i) {
    flat_set(embeddings, static_cast<std::int64_t>(i), static_cast<double>(static_cast<float>(0.1 * static_cast<double>(i) - 0.3)));
    flat_set(encoding, static_cast<std::int64_t>(i), static_cast<double>(static_cast<float>(std::sin(static_cast<double>(i)))));
  }
  const std::vector<std::int64_t> ids = {1, 0, 1};
  const std::vector<std::int64_t> positions = {0, 1, 1};
  const double scale = subject->embedding_scale(4, FormatId::float32);
  const EmbeddingInput input{&embeddings, &encoding, ids, positions, scale};
  EXPECT_EQ(values_of(subject->add_embeddings(input, FormatId::float32)), values_of(add_embeddings(input, FormatId::float32)));
  EXPECT_EQ(values_of(subject->concat_embeddings(input, FormatId::float32)),
            values_of(concat_embeddings(input, FormatId::float32)));
}

}  // namespace
}  // namespace pecheck
