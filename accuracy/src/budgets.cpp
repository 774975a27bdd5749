#include "pecheck/accuracy/budgets.hpp"

#include <stdexcept>
#include <string>

namespace pecheck::accuracy {

namespace {

// The fast path's float64 error, measured against the bound derived in
// lib/src/fast/sincos_turns.cpp (2 ULP from the kernel, plus a term that grows
// only within 2^-25 turns of a zero of sin or cos): see its budget entry.
constexpr double fast_float64_ulp = 2.0;

// A value rounded once to a format of precision q from a double v within
// u64 float64 ulps of the exact x: with r the nearest value to v and r_x the
// nearest to x, |r - v| <= |r_x - v| <= ulp_q(x)/2 + |v - x|, so
// |r - x| <= ulp_q(x)/2 + 2|v - x| <= (1/2 + 2 u64 2^(q-53)) ulp_q(x), since
// ulp_53(x) = 2^(q-53) ulp_q(x) in every binade where x is normal in the
// narrow format (and smaller still where it is subnormal there).
// With u64 = 2: 0.5 + 2^-40 in float16 (q = 11), 0.5 + 2^-43 in bfloat16 (q = 8).
// That bounds the rows the kernel computes. The rows the fast table rotates
// from an anchor (lib/src/fast/rotated_rows.cpp, step 4) carry an absolute
// error up to 2^-50.2 on values kept only when |v| >= 2^-14, so their one
// rounding errs by at most 0.5 + 2^(q - 50.2 + 14) (1 + 2^-35) ulp: 0.5 +
// 2^-25.2 in float16, 0.5 + 2^-28.2 in bfloat16, the larger bound and so the
// budget. 2^-0.2 * (1 + 2^-35) < 0.871 < 0.875, so 0.875 * 2^(q - 36) covers it.
constexpr double narrow_fast_budget(int precision) { return 0.5 + 0.875 * (precision == 11 ? 0x1p-25 : 0x1p-28); }

const std::vector<UlpBudget> budgets = {
    // Measured with conformance/float64 on the fast subject in full mode
    // (the six presets at d = 64, 512, 1023 and 4096, 8-row blocks at and
    // between every power of two up to 2^24: 12.8 million entries): at most
    // 0.76 ULP, RMS 0.29. The fast path's own tests, searching whole columns
    // for the position closest to a zero of sin or cos, found 1.79 ULP there
    // (sincos_turns.cpp). The budget is the kernel's derived 2 ULP.
    {BudgetKind::fast, FormatId::float64, fast_float64_ulp,
     "derived in sincos_turns.cpp as 2 ULP away from the zeros of sin and cos; measured at most 0.76 ULP over 12.8 "
     "million "
     "sampled entries and 1.79 ULP at the closest zero found"},
    // sincos_turns.cpp derives 0.5 + 2^-20 ULP for float32 (one rounding of a
    // double within 2^-20 float32 ulp of the exact value) except within
    // 2^-33.9 turns of a zero, and 1 ULP down to 2^-52.9 turns; the budget is
    // the whole ULP that fast_encoding.hpp promises. Measured: at most 0.5 ULP
    // over the same 12.8 million entries.
    {BudgetKind::fast, FormatId::float32, 1.0,
     "derived in sincos_turns.cpp: one rounding of an accurate double, 0.5 + 2^-20 ULP away from zeros, within 1 ULP"},
    {BudgetKind::fast, FormatId::float16, narrow_fast_budget(11),
     "derived: one rounding of a double, within 2 float64 ULP (kernel rows) or 2^-50.2 absolute on values above "
     "2^-14 (rotated rows, rotated_rows.cpp), gives at most 0.5 + 2^-25.2 ULP in float16"},
    {BudgetKind::fast, FormatId::bfloat16, narrow_fast_budget(8),
     "derived: one rounding of a double, within 2 float64 ULP (kernel rows) or 2^-50.2 absolute on values above "
     "2^-14 (rotated rows, rotated_rows.cpp), gives at most 0.5 + 2^-28.2 ULP in bfloat16"},
    // The reference rounds the exact value once (Ziv's strategy).
    {BudgetKind::reference, FormatId::float64, 0.5, "correctly rounded: Ziv's strategy rounds the exact value once"},
    {BudgetKind::reference, FormatId::float32, 0.5, "correctly rounded: Ziv's strategy rounds the exact value once"},
    {BudgetKind::reference, FormatId::float16, 0.5, "correctly rounded: Ziv's strategy rounds the exact value once"},
    {BudgetKind::reference, FormatId::bfloat16, 0.5, "correctly rounded: Ziv's strategy rounds the exact value once"},
    // Anyone else: what a careful implementation reaches with a good libm
    // (CONVENTIONS.md: glibc sinf 0.56 ULP, CUDA sinf 2 ULP documented).
    // An entry beyond these still passes when it is within the float64-angle
    // bound (angle_allowance.hpp): the error of an ordinary float64
    // computation, which rounds the angle p * w before sin or cos.
    {BudgetKind::third_party, FormatId::float64, 2.0,
     "an exactly reduced angle and a libm sin/cos within 2 ULP (glibc's are within 1)"},
    {BudgetKind::third_party, FormatId::float32, 2.0,
     "CUDA's documented 2 ULP for sinf/cosf, the loosest common libm in CONVENTIONS.md"},
    // A float32 value within 2 float32 ulps rounded to float16 is within
    // 0.5 + 2 x 2 x 2^-13 ULP (the argument above with q = 11, 24): 1 ULP
    // leaves room for one more rounding.
    {BudgetKind::third_party, FormatId::float16, 1.0,
     "a float32 value within 2 ULP rounded once to float16 is within 0.5 + 2^-11 ULP; 1 ULP allows one more rounding"},
    {BudgetKind::third_party, FormatId::bfloat16, 1.0,
     "a float32 value within 2 ULP rounded once to bfloat16 is within 0.5 + 2^-14 ULP; 1 ULP allows one more rounding"},
};

}  // namespace

const std::vector<UlpBudget>& ulp_budgets() { return budgets; }

BudgetKind budget_kind_of(std::string_view subject_name) {
  if (subject_name == "fast") return BudgetKind::fast;
  if (subject_name == "reference") return BudgetKind::reference;
  return BudgetKind::third_party;
}

std::string_view to_string(BudgetKind kind) {
  switch (kind) {
    case BudgetKind::fast:
      return "fast";
    case BudgetKind::reference:
      return "reference";
    case BudgetKind::third_party:
      return "third-party";
  }
  return "?";
}

const UlpBudget& ulp_budget(BudgetKind kind, FormatId format) {
  for (const UlpBudget& budget : budgets) {
    if (budget.kind == kind && budget.format == format) return budget;
  }
  // Unreachable: the table has every kind in every format (accuracy/tests/budgets_test.cpp holds it).
  throw std::logic_error("no ULP budget for " + std::string(to_string(kind)) + " " +
                         std::string(format_of(format).name));
}

}  // namespace pecheck::accuracy
