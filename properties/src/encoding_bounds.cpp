// The encoding-bounds family: what the mathematics of the sinusoidal encoding
// promises about any table, checked on a subject. Each claim below is the
// sentence reports print; each source says where the claim comes from.
#include "encoding_checks.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {

void register_encoding_bounds(Registry& registry) {
  using namespace encoding;
  const auto add = [&registry](std::string_view id, std::string claim, std::string source, CheckKind kind,
                               Outcome (*run)(const Subject&, const RunConfig&)) {
    registry.push_back(Check{std::string(id), Family::encoding_bounds, std::move(claim), std::move(source), kind, run});
  };
  add(unit_interval_id, "Every value of the encoding table lies in [-1, 1]: no NaN, no infinity.",
      "Vaswani et al. 2017, section 3.5 (every entry is a sine or a cosine); CONVENTIONS.md fault 8",
      CheckKind::property, unit_interval);
  add(pythagorean_id,
      "For every frequency, the stored sin^2 + cos^2 equals 1 within the bound the format's ULP budget (a "
      "third-party subject: or the float64-angle bound) implies.",
      "Vaswani et al. 2017, section 3.5 (each frequency is a sin and cos pair of one angle)", CheckKind::property,
      pythagorean_identity);
  add(squared_norm_id,
      "||PE(p)||^2 equals the number of sin/cos pairs plus the odd sin column's share, within the bound the ULP "
      "budget (a third-party subject: or the float64-angle bound) implies, and zero rows have norm 0.",
      "Vaswani et al. 2017, section 3.5; the report's question (c), why the encoding is added (its magnitude is fixed)",
      CheckKind::property, squared_norm);
  add(origin_id, "PE(0) is exactly +0 in every sin and zero column and exactly 1 in every cos column.",
      "Vaswani et al. 2017, section 3.5 (sin 0 = 0, cos 0 = 1); CONVENTIONS.md fault 3 (wrong layout)",
      CheckKind::property, origin);
  add(zero_rows_id,
      "Rows the convention zeroes (fairseq's padding row) hold +0 in every column, and no other row is all zeros.",
      "CONVENTIONS.md fault 4 (fairseq's padding_idx row and padding_idx + 1 start)", CheckKind::property,
      zero_rows);
  add(relative_position_id,
      "PE(p+k) = R(k) PE(p) for a rotation R(k) of each frequency pair that does not depend on p, and "
      "PE(p).PE(p+k) depends on k alone, within bounds derived from the ULP budget (a third-party subject: or the "
      "float64-angle bound).",
      "Vaswani et al. 2017, section 3.5 (PE(pos+k) is a linear function of PE(pos)); CONVENTIONS.md fault 2 "
      "(angles in low precision: gpt-neox issue 1003, Megatron-LM issue 535)",
      CheckKind::property, relative_position);
  add(frequency_ladder_id,
      "The frequencies recovered from the table form a strictly decreasing geometric ladder that matches the "
      "convention's rule from the first frequency to the last.",
      "Vaswani et al. 2017, section 3.5 (wavelengths in a geometric progression from 2 pi to 10000 2 pi); "
      "CONVENTIONS.md fault 3 (tensor2tensor PR 177, fairseq issue 4648)",
      CheckKind::property, frequency_ladder);
  add(distinct_positions_id,
      "Distinct positions keep distinct rows after rounding to the format unless their exact rows are within the "
      "ULP budget of each other in every column; the first collision is reported.",
      "CONVENTIONS.md fault 1 (positions in bf16: pytorch issues 137774 and 114544, transformers issue 28685)",
      CheckKind::measurement, distinct_positions);
  add(slow_columns_id,
      "Over the first 2^k positions, a column the table holds constant is one whose exact values stay within the "
      "ULP budget of one value; how many such slow columns each format has is reported.",
      "the seed observation that the last dimensions are hardly affected by the position", CheckKind::measurement,
      slow_columns);
  // An observation of the encoding itself: no subject can fail it.
  registry.push_back(Check{std::string(constant_columns_exact_id), Family::encoding_bounds,
                           "Over the first P = 2, 4, ..., 2^24 positions, this many columns of the correctly rounded "
                           "encoding keep one value in float32, float16 and bfloat16.",
                           "the seed observation that the last dimensions are hardly affected by the position",
                           CheckKind::measurement, constant_columns_exact, CheckRole::observation});
}

}  // namespace pecheck::properties
