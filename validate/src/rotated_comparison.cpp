#include "rotated_comparison.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <memory>

#include "pecheck/number_text.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/reference/rotated_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::validate {

namespace {

// Beyond the budget: counted, and for a model held against the allowance.
struct BeyondCount {
  std::int64_t typed = 0;  // NaN or infinity where a finite value belongs, or the other way
  std::int64_t beyond_ulp = 0;
  std::int64_t beyond_bound = 0;
  double worst_ratio = 0.0;
  accuracy::WorstInput worst;
  double worst_ulp = 0.0;
  double worst_bound = 0.0;

  void merge(const BeyondCount& other) {
    typed += other.typed;
    beyond_ulp += other.beyond_ulp;
    beyond_bound += other.beyond_bound;
    if (other.worst_ratio > worst_ratio) {
      worst_ratio = other.worst_ratio;
      worst = other.worst;
      worst_ulp = other.worst_ulp;
      worst_bound = other.worst_bound;
    }
  }
};

// The format's spacing in the binade of |x| (the smallest subnormal's below
// the normal range), by the bits of x; 0 for zero and non-finite x, which
// then never pass the filter.
double quantum_of(double x, const Format& format) {
  const int e = static_cast<int>((std::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff) - 1023;
  if (x == 0.0 || e > 1023 || e < -1022) return 0.0;
  // 2^k built from its bits: k >= -1074 + 53 for every format here, a normal double.
  const int k = std::max(e, format.min_exponent) - (format.precision - 1);
  return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}

}  // namespace

Comparison compare_rotated(const RotatedComparisonRequest& request, const std::optional<reference::RotatedModel>& model,
                           const ComputationModel& angle_model) {
  const RotatedValues& values = *request.values;
  const std::int64_t n = request.width / 2;
  const Format& format = format_of(request.format);
  const int workers = worker_count(request.threads, values.rows);
  std::vector<accuracy::Accumulator> accumulators(
      static_cast<std::size_t>(workers), accuracy::Accumulator(request.format, request.budget_ulp, nullptr));
  std::vector<BeyondCount> beyond(static_cast<std::size_t>(workers));
  std::vector<std::int64_t> escalations(static_cast<std::size_t>(workers));
  const TableView view(FormatId::float64, values.rows, request.width, values.head_dim, values.output.data());
  parallel_for(workers, [&](int worker) {
    reference::RotatedOracle oracle(request.convention, request.format);
    std::unique_ptr<reference::RotatedModelEvaluator> evaluator;
    std::optional<reference::RotatedLibmAllowance> allowance;
    if (model) {
      evaluator =
          std::make_unique<reference::RotatedModelEvaluator>(request.convention, request.format, *model, angle_model);
      allowance = reference::rotated_libm_allowance(*model, angle_model, request.format,
                                                    rotary_derived(request.convention).attention_factor);
    }
    accuracy::Accumulator& accumulate = accumulators[static_cast<std::size_t>(worker)];
    BeyondCount& count = beyond[static_cast<std::size_t>(worker)];
    std::vector<DoubleDouble> exact(static_cast<std::size_t>(request.width));
    for (std::int64_t r = worker; r < values.rows; r += workers) {
      const std::int64_t p = (*request.row_position)[static_cast<std::size_t>(r)];
      for (std::int64_t i = 0; i < n; ++i) {
        const auto [a, b] = pair_columns(request.layout, request.width, i);
        const double xa = values.in(r, a), xb = values.in(r, b);
        if (evaluator) {
          reference::RotatedExact e;
          evaluator->rotate(p, i, xa, xb, &e);
          exact[static_cast<std::size_t>(a)] = e.first;
          exact[static_cast<std::size_t>(b)] = e.second;
        } else {
          reference::RotatedExact e;
          oracle.rotate(p, i, xa, xb, &e);
          exact[static_cast<std::size_t>(a)] = e.first;
          exact[static_cast<std::size_t>(b)] = e.second;
        }
        for (const std::int64_t c : {a, b}) {
          const double value = values.out(r, c);
          const DoubleDouble x = exact[static_cast<std::size_t>(c)];
          // ulps = |value - exact| / q(exact), q the format's spacing in the
          // exact value's binade: at least half that of x.hi's (x.lo may
          // take it one binade down), so an error within budget * q(x.hi) / 2
          // is within the budget without computing it.
          if (std::isfinite(value) &&
              std::fabs(value - x.hi) - std::fabs(x.lo) <= request.budget_ulp * 0.5 * quantum_of(x.hi, format)) {
            continue;
          }
          const UlpError error = ulp_error(value, x, format);
          // A signed zero is no error of a rotation (the sign of an exact zero is a convention).
          if (error.mismatch != Mismatch::none && error.mismatch != Mismatch::signed_zero) {
            ++count.typed;
            continue;
          }
          if (!(error.ulps > request.budget_ulp)) continue;
          ++count.beyond_ulp;
          const double abs_error = absolute_error(value, x);
          const double bound = allowance ? allowance->bound(evaluator->angle(p, i), xa, xb, value) : 0.0;
          if (!(abs_error <= bound)) ++count.beyond_bound;
          const double ratio = bound > 0.0 ? abs_error / bound : std::numeric_limits<double>::infinity();
          if (count.beyond_ulp == 1 || ratio > count.worst_ratio) {
            count.worst_ratio = ratio;
            count.worst = {r, p, c, value, hex_bits(value, format), x, exact_decimal(x), abs_error, error.ulps, {}};
            count.worst_ulp = error.ulps;
            count.worst_bound = bound;
          }
        }
      }
      accumulate.add_row(view, r, r, std::span<const DoubleDouble>(exact));
    }
    escalations[static_cast<std::size_t>(worker)] = oracle.pairs_escalated();
  });
  for (std::size_t w = 1; w < accumulators.size(); ++w) {
    accumulators.front().merge(accumulators[w]);
    beyond.front().merge(beyond[w]);
  }
  std::int64_t escalated = 0;
  for (std::int64_t e : escalations) escalated += e;

  Comparison comparison;
  comparison.target = model ? "the computation model " + model->name : "the exact rotation";
  accuracy::Measurement& m = comparison.measurement;
  m = accumulators.front().measurement(Convention{}, request.budget_source, escalated);
  // The accumulator's rows are the subject's rows; their positions are POS's.
  if (m.entries > 0) m.worst.position = (*request.row_position)[static_cast<std::size_t>(m.worst.row)];
  const BeyondCount& count = beyond.front();
  if (model) {
    accuracy::AbsoluteBoundCheck check;
    check.name = "the libm allowance";
    check.source =
        "inv_freq within relative 2^(2-q) of the model's, one ULP of the angle, float32 sin and cos within 1 ULP, "
        "and for a cast cache one ULP of the dtype in cos and sin (rotated_models.hpp)";
    check.beyond_ulp = count.beyond_ulp;
    check.beyond_bound = count.beyond_bound;
    check.worst_ratio = count.worst_ratio;
    check.worst = count.worst;
    check.worst_ulp = count.worst_ulp;
    check.worst_bound = count.worst_bound;
    m.abs_bound = check;
  }
  comparison.beyond_budget = count.beyond_bound + count.typed;
  comparison.conforms = m.entries > 0 && comparison.beyond_budget == 0;
  return comparison;
}

}  // namespace pecheck::validate
