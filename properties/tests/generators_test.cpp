// The generators themselves: they yield what they promise (signed zeros,
// subnormals, infinities, NaN when asked; never when not), and every shape
// they produce is valid for its convention.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>

#include "pecheck/properties/generators.hpp"
#include "pecheck/testing/table_values.hpp"

using pecheck::testing::values_of;

namespace pecheck::properties {
namespace {

bool is_subnormal_value(double x, const Format& format) {
  return x != 0.0 && std::isfinite(x) && std::fabs(x) < smallest_normal(format);
}

// 2000 draws: a class of weight w out of 15 is missed with probability
// (1 - w/15)^2000 < 10^-50 for w >= 1/2 (a signed zero has 1 in 15).
std::vector<double> draw(const rc::Gen<double>& generator) {
  return *rc::gen::container<std::vector<double>>(2000, generator);
}

RC_GTEST_PROP(Generators, formatValueYieldsSignedZerosSubnormalsInfinitiesAndNan, (FormatId id)) {
  const Format& format = format_of(id);
  const std::vector<double> values = draw(gen::format_value(id));
  const auto any = [&](auto predicate) { return std::any_of(values.begin(), values.end(), predicate); };
  RC_ASSERT(any([](double x) { return x == 0.0 && !std::signbit(x); }));
  RC_ASSERT(any([](double x) { return x == 0.0 && std::signbit(x); }));
  RC_ASSERT(any([&](double x) { return is_subnormal_value(x, format); }));
  RC_ASSERT(any([](double x) { return std::isinf(x) && x > 0; }));
  RC_ASSERT(any([](double x) { return std::isinf(x) && x < 0; }));
  RC_ASSERT(any([](double x) { return std::isnan(x); }));
}

RC_GTEST_PROP(Generators, finiteValueNeverYieldsInfinityOrNan, (FormatId id)) {
  const double x = *gen::finite_value(id);
  RC_ASSERT(std::isfinite(x));
}

RC_GTEST_PROP(Generators, everyGeneratedValueIsRepresentableInItsFormat, (FormatId id)) {
  const Format& format = format_of(id);
  const double x = *gen::format_value(id).as("value");
  RC_CLASSIFY(std::isnan(x), "NaN");
  RC_CLASSIFY(std::isinf(x), "infinity");
  RC_CLASSIFY(x == 0.0, "zero");
  RC_CLASSIFY(is_subnormal_value(x, format), "subnormal");
  RC_ASSERT(std::isnan(x) || is_representable(x, format));
}

RC_GTEST_PROP(Generators, subnormalYieldsOnlySubnormals, (FormatId id)) {
  RC_ASSERT(is_subnormal_value(*gen::subnormal(id), format_of(id)));
}

RC_GTEST_PROP(Generators, nanYieldsOnlyNan, (FormatId id)) { RC_ASSERT(std::isnan(*gen::nan(id))); }

RC_GTEST_PROP(Generators, nearQuarterPiStaysWithinFourUlpsOfAMultipleOfQuarterPi, (FormatId id)) {
  const Format& format = format_of(id);
  const double x = *gen::near_quarter_pi(id);
  RC_ASSERT(is_representable(x, format));
  // k = round(x / (pi/4)); the distance to k pi/4 is at most the rounding of
  // k pi/4 to the format (half an ulp) plus 4 ulps, where the ulp is that of
  // the larger of the two; the double evaluation of k pi/4 adds < 1e-12 relative.
  const double quarter_pi = std::numbers::pi / 4.0;
  const double k = std::nearbyint(x / quarter_pi);
  const double target = k * quarter_pi;
  const double magnitude = std::max(std::fabs(x), std::fabs(target));
  const double ulp = std::max(std::ldexp(1.0, std::ilogb(std::max(magnitude, smallest_normal(format))) -
                                                   (format.precision - 1)),
                              smallest_subnormal(format));
  RC_ASSERT(std::fabs(x - target) <= 4.5 * ulp + 1e-12 * magnitude);
}

RC_GTEST_PROP(Generators, generatedShapesAreValidForTheirConvention, (const EncodingCase& c)) {
  RC_CLASSIFY(c.request.dim % 2 == 1, "odd d");
  RC_CLASSIFY((c.request.dim & (c.request.dim - 1)) == 0, "power of two");
  RC_CLASSIFY(c.request.row_offset + c.request.rows + c.convention.position_offset > (std::int64_t{1} << 23),
              "positions past 2^23");
  check_dim(c.convention, c.request.dim);  // throws for an invalid width
  RC_ASSERT(c.request.dim >= c.convention.min_dim);
  RC_ASSERT(c.request.dim <= 4096);
  RC_ASSERT(!(c.request.dim % 2 == 1 && c.convention.odd_dim == OddDimPolicy::reject));
  RC_ASSERT(c.request.rows >= 1);
  RC_ASSERT(c.request.row_offset >= 0);
  RC_ASSERT(c.request.rows * c.request.dim <= CaseLimits{}.max_entries || c.request.rows == 1);
  const std::int64_t last_position = position_of_row(c.convention, c.request.row_offset + c.request.rows - 1);
  RC_ASSERT(last_position < max_exact_position);
}

RC_GTEST_PROP(Generators, dimsReachOddWidthsPowersOfTwoAndTheLargestWidth, ()) {
  const Convention convention = *gen::preset();
  const auto dims = *rc::gen::container<std::vector<std::int64_t>>(2000, gen::dim_for(convention));
  const auto any = [&](auto predicate) { return std::any_of(dims.begin(), dims.end(), predicate); };
  if (convention.odd_dim != OddDimPolicy::reject) RC_ASSERT(any([](std::int64_t d) { return d % 2 == 1; }));
  RC_ASSERT(any([](std::int64_t d) { return d == 4096; }));
  RC_ASSERT(any([&](std::int64_t d) { return d == std::max<std::int64_t>(convention.min_dim, 2); }));
}

RC_GTEST_PROP(Generators, offsetsReachTheLastRowsBelowTwoToThe24, ()) {
  const Convention convention = *gen::convention();
  const std::int64_t rows = *rc::gen::inRange<std::int64_t>(1, 64);
  const auto offsets = *rc::gen::container<std::vector<std::int64_t>>(500, gen::row_offset_for(convention, rows));
  const std::int64_t limit = gen::max_row_offset(convention, rows);
  RC_ASSERT(std::all_of(offsets.begin(), offsets.end(), [&](std::int64_t k) { return k >= 0 && k <= limit; }));
  RC_ASSERT(std::any_of(offsets.begin(), offsets.end(), [&](std::int64_t k) { return k == limit; }));
  RC_ASSERT(std::any_of(offsets.begin(), offsets.end(), [](std::int64_t k) { return k == 0; }));
}

// validate --exec --max-position N --dim D: no case asks a model for a
// position at or past its length or a width past its own.
RC_GTEST_PROP(Generators, casesForAModelStayWithinItsLengthAndWidth, ()) {
  SubjectCapabilities model;
  model.any_convention = false;
  model.fixed_convention = *gen::preset().as("convention");
  model.max_position = *rc::gen::inRange<std::int64_t>(model.fixed_convention->position_offset + 1, 5000).as("N");
  model.max_dim = *rc::gen::inRange<std::int64_t>(std::max<std::int64_t>(model.fixed_convention->min_dim, 2), 600)
                       .as("D");
  for (const CaseLimits limits : {CaseLimits{}, CaseLimits{4096, 1, 4096, false}, CaseLimits{1024, 16, 4096, true}}) {
    const EncodingCase c = *gen::case_for(model, limits);
    const std::int64_t last_position = position_of_row(c.convention, c.request.row_offset + c.request.rows - 1);
    RC_ASSERT(last_position < *model.max_position);
    RC_ASSERT(c.request.dim <= *model.max_dim);
    check_dim(c.convention, c.request.dim);
  }
}

RC_GTEST_PROP(Generators, casesForAFileStayWithinItsRows, ()) {
  SubjectCapabilities file;
  file.any_convention = false;
  file.fixed_convention = *find_preset("fairseq");
  file.fixed_request = TableRequest{*rc::gen::inRange<std::int64_t>(1, 300), 8, *rc::gen::inRange<std::int64_t>(0, 1000)};
  file.formats = {FormatId::bfloat16};
  const EncodingCase c = *gen::case_for(file);
  RC_ASSERT(c.convention.name == "fairseq");
  RC_ASSERT(c.format == FormatId::bfloat16);
  RC_ASSERT(c.request.dim == 8);
  RC_ASSERT(c.request.row_offset >= file.fixed_request->row_offset);
  RC_ASSERT(c.request.row_offset + c.request.rows <= file.fixed_request->row_offset + file.fixed_request->rows);
}

RC_GTEST_PROP(Generators, tokenAndPositionIdsStayInRange, ()) {
  const std::int64_t vocab = *rc::gen::inRange<std::int64_t>(1, 50000);
  const std::int64_t rows = *rc::gen::inRange<std::int64_t>(1, 5000);
  for (std::int64_t id : *gen::token_ids(vocab, 64)) RC_ASSERT(id >= 0 && id < vocab);
  for (std::int64_t row : *gen::position_ids(rows, 64)) RC_ASSERT(row >= 0 && row < rows);
}

TEST(Generators, gaussianTableIsReproducibleAndHasTheRequestedSpread) {
  const Table a = gen::gaussian_table(42, 64, 256, 0.0625, FormatId::float32);
  const Table b = gen::gaussian_table(42, 64, 256, 0.0625, FormatId::float32);
  EXPECT_EQ(values_of(a), values_of(b));
  double sum_squares = 0.0;
  for (double v : values_of(a)) {
    EXPECT_TRUE(is_representable(v, format_of(FormatId::float32)));
    sum_squares += v * v;
  }
  // The sample variance of N = 16384 normal draws has relative standard
  // deviation sqrt(2/N) = 1.1%; 10% is 9 standard deviations.
  const double variance = sum_squares / static_cast<double>(static_cast<std::size_t>(a.rows * a.cols));
  EXPECT_NEAR(variance, 0.0625 * 0.0625, 0.1 * 0.0625 * 0.0625);
}

}  // namespace
}  // namespace pecheck::properties
