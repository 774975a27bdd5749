#include "rotated_comparison.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>

#include "pecheck/number_text.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/exact_text.hpp"
#include "pecheck/reference/rotated_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::validate {

namespace {

// A computation model's libm allowance as the accumulator asks for it: the
// bound of rotated_models.hpp at the entry's angle, its input pair and its
// output value. One per worker: the evaluator keeps the angles it computed.
class RotatedModelAllowance final : public accuracy::Allowance {
 public:
  RotatedModelAllowance(const RotatedComparisonRequest& request, reference::RotatedModelEvaluator& evaluator,
                        const reference::RotatedLibmAllowance& bound)
      : request_(request), evaluator_(&evaluator), bound_(bound) {}

  double bound(std::int64_t row, std::int64_t column, DoubleDouble /*exact*/) const override {
    const RotatedValues& values = *request_.values;
    const std::int64_t n = request_.width / 2;
    const std::int64_t i = request_.layout == RotaryLayout::rotate_half ? column % n : column / 2;
    const auto [a, b] = pair_columns(request_.layout, request_.width, i);
    const std::int64_t p = pair_position(request_, row, i);
    return bound_.bound(evaluator_->angle(p, i), values.in(row, a), values.in(row, b), values.out(row, column));
  }
  std::string_view name() const override { return "the libm allowance"; }
  std::string_view source() const override {
    return "inv_freq within relative 2^(2-q) of the model's, one ULP of the angle, float32 sin and cos within 1 "
           "ULP, and for a cast cache one ULP of the dtype in cos and sin (rotated_models.hpp)";
  }

 private:
  const RotatedComparisonRequest& request_;
  reference::RotatedModelEvaluator* evaluator_;  // not const: it caches angles
  reference::RotatedLibmAllowance bound_;
};

// A worst input the text and the JSON print, with its exact value to the
// oracle's full accuracy (about 106 bits, as WorstInput promises): the
// double tier of rotate_row gives it within 2^-(precision + 20) only, enough
// for every figure over all entries but not for the 21 digits printed.
void refine_exact(accuracy::WorstInput& input, const RotatedComparisonRequest& request) {
  const RotatedValues& values = *request.values;
  const std::int64_t n = request.width / 2;
  const std::int64_t i = request.layout == RotaryLayout::rotate_half ? input.column % n : input.column / 2;
  const auto [a, b] = pair_columns(request.layout, request.width, i);
  reference::RotatedOracle oracle(request.convention, request.format);
  reference::RotatedExact e;
  const std::int64_t p = pair_position(request, input.row, i);
  oracle.rotate(p, i, values.in(input.row, a), values.in(input.row, b), &e);
  const DoubleDouble exact = input.column == a ? e.first : e.second;
  const Format& format = format_of(request.format);
  input.exact = exact;
  input.exact_text = accuracy::decimal_text(exact, 21);
  input.abs_error = absolute_error(input.value, exact);
  input.ulps = ulp_error(input.value, exact, format).ulps;
}

bool sectioned(const RotatedComparisonRequest& request) {
  return request.mrope_position != nullptr && !request.mrope_position->empty();
}

}  // namespace

std::int64_t pair_position(const RotatedComparisonRequest& request, std::int64_t row, std::int64_t pair) {
  if (!sectioned(request)) return (*request.row_position)[static_cast<std::size_t>(row)];
  const auto section = static_cast<std::size_t>(mrope_position_row(request.convention, pair));
  return (*request.mrope_position)[section][static_cast<std::size_t>(row)];
}

Comparison compare_rotated(const RotatedComparisonRequest& request, const std::optional<reference::RotatedModel>& model,
                           const ComputationModel& angle_model) {
  const RotatedValues& values = *request.values;
  const std::int64_t n = request.width / 2;
  const int workers = worker_count(request.threads, values.rows);
  // Per worker: the oracle, and for a model its evaluator and allowance; one
  // accumulator each, merged (the figures do not depend on the split).
  std::vector<std::unique_ptr<reference::RotatedModelEvaluator>> evaluators(static_cast<std::size_t>(workers));
  std::vector<std::unique_ptr<RotatedModelAllowance>> allowances(static_cast<std::size_t>(workers));
  std::vector<accuracy::Accumulator> accumulators;
  accumulators.reserve(static_cast<std::size_t>(workers));
  for (std::size_t w = 0; w < static_cast<std::size_t>(workers); ++w) {
    if (model) {
      evaluators[w] =
          std::make_unique<reference::RotatedModelEvaluator>(request.convention, request.format, *model, angle_model);
      allowances[w] = std::make_unique<RotatedModelAllowance>(
          request, *evaluators[w],
          reference::rotated_libm_allowance(*model, angle_model, request.format,
                                            rotary_derived(request.convention).attention_factor));
    }
    // A signed zero is no error of a rotation (the sign of an exact zero is a convention).
    accumulators.emplace_back(request.format, request.budget_ulp, allowances[w].get(), accuracy::SignedZero::equal);
  }
  std::vector<std::int64_t> escalations(static_cast<std::size_t>(workers));
  // The error against position (the report's figure): the rows fall into up
  // to 64 blocks of equal position span, each folded into its own accumulator
  // and all merged into the worker's (exactly, as merging any split is).
  const auto [low, high] = std::minmax_element(request.row_position->begin(), request.row_position->end());
  const std::int64_t first = values.rows > 0 ? *low : 0;
  const std::int64_t span = values.rows > 0 ? *high - first + 1 : 1;
  const std::int64_t blocks = std::min<std::int64_t>(64, span);
  const auto block_of = [&](std::int64_t p) { return static_cast<std::size_t>((p - first) * blocks / span); };
  std::vector<std::vector<accuracy::Accumulator>> block_tallies(static_cast<std::size_t>(workers));
  // The output's rotated columns, in its own format, for the accumulator.
  const TableView view(values.output.format(), values.rows, request.width, values.output.stride(),
                       values.output.data());
  parallel_for(workers, [&](int worker) {
    const auto w = static_cast<std::size_t>(worker);
    reference::RotatedOracle oracle(request.convention, request.format);
    reference::RotatedModelEvaluator* evaluator = evaluators[w].get();
    std::vector<DoubleDouble> exact(static_cast<std::size_t>(request.width));
    std::vector<double> plain(static_cast<std::size_t>(request.width));
    // A row's pairs for the oracle's rotate_row, pair i frequency i.
    const auto pairs = static_cast<std::size_t>(n);
    std::vector<double> x_first(pairs), x_second(pairs);
    std::vector<double> input_row(static_cast<std::size_t>(values.input.cols()));  // IN's row, decoded once
    std::vector<reference::RotatedPair> rounded(pairs);
    std::vector<reference::RotatedExact> pair_exact(pairs);
    std::vector<reference::RotatedPair> at_id(sectioned(request) ? pairs : 0);  // M-RoPE: one id's rotation
    std::vector<reference::RotatedExact> exact_at_id(sectioned(request) ? pairs : 0);
    std::vector<accuracy::Accumulator>& mine = block_tallies[w];
    for (std::int64_t k = 0; k < blocks; ++k) {
      mine.emplace_back(request.format, request.budget_ulp, allowances[w].get(), accuracy::SignedZero::equal);
    }
    // A block of adjacent rows per worker: the rows of one position (its heads,
    // adjacent in (L, H, d) and (B, L, H, d)) share the oracle's sin and cos
    // of each frequency, computed once when they come one after another.
    const std::int64_t begin = values.rows * worker / workers, end = values.rows * (worker + 1) / workers;
    for (std::int64_t r = begin; r < end; ++r) {
      const std::int64_t p = (*request.row_position)[static_cast<std::size_t>(r)];
      if (evaluator != nullptr) {
        for (std::int64_t i = 0; i < n; ++i) {
          const auto [a, b] = pair_columns(request.layout, request.width, i);
          reference::RotatedExact e;
          evaluator->rotate(pair_position(request, r, i), i, values.in(r, a), values.in(r, b), &e);
          exact[static_cast<std::size_t>(a)] = e.first;
          exact[static_cast<std::size_t>(b)] = e.second;
        }
      } else {
        decode_row(values.input, r, input_row);
        for (std::int64_t i = 0; i < n; ++i) {
          const auto [a, b] = pair_columns(request.layout, request.width, i);
          x_first[static_cast<std::size_t>(i)] = input_row[static_cast<std::size_t>(a)];
          x_second[static_cast<std::size_t>(i)] = input_row[static_cast<std::size_t>(b)];
        }
        if (!sectioned(request)) {
          oracle.rotate_row(p, x_first, x_second, rounded, pair_exact);
        } else {
          // M-RoPE: a row turns by up to three ids; each distinct one rotates
          // the row, and each pair keeps the result at its own section's id.
          std::int64_t done[3] = {-1, -1, -1};
          for (std::int64_t section = 0; section < 3; ++section) {
            const std::int64_t id = (*request.mrope_position)[static_cast<std::size_t>(section)][static_cast<std::size_t>(r)];
            if (std::find(std::begin(done), std::end(done), id) != std::end(done)) continue;
            done[section] = id;
            oracle.rotate_row(id, x_first, x_second, at_id, exact_at_id);
            for (std::int64_t i = 0; i < n; ++i) {
              if (pair_position(request, r, i) != id) continue;
              rounded[static_cast<std::size_t>(i)] = at_id[static_cast<std::size_t>(i)];
              pair_exact[static_cast<std::size_t>(i)] = exact_at_id[static_cast<std::size_t>(i)];
            }
          }
        }
        // Every low word zero (+0 or -0: no bit but the sign), ORed on the
        // bits: a loop with no branch nor floating-point comparison, run on every row.
        std::uint64_t low_bits = 0;
        for (std::int64_t i = 0; i < n; ++i) {
          const auto [a, b] = pair_columns(request.layout, request.width, i);
          const reference::RotatedExact& e = pair_exact[static_cast<std::size_t>(i)];
          plain[static_cast<std::size_t>(a)] = e.first.hi;
          plain[static_cast<std::size_t>(b)] = e.second.hi;
          low_bits |= std::bit_cast<std::uint64_t>(e.first.lo) | std::bit_cast<std::uint64_t>(e.second.lo);
        }
        const bool all_plain = (low_bits << 1) == 0;
        // Exact values that are plain doubles (the double tier's) go as such,
        // as the rotary comparison's: half the bytes to read, the same figures.
        if (all_plain) {
          mine[block_of(p)].add_row(view, r, r, std::span<const double>(plain));
          continue;
        }
        for (std::int64_t i = 0; i < n; ++i) {
          const auto [a, b] = pair_columns(request.layout, request.width, i);
          exact[static_cast<std::size_t>(a)] = pair_exact[static_cast<std::size_t>(i)].first;
          exact[static_cast<std::size_t>(b)] = pair_exact[static_cast<std::size_t>(i)].second;
        }
      }
      mine[block_of(p)].add_row(view, r, r, std::span<const DoubleDouble>(exact));
    }
    for (const accuracy::Accumulator& block : mine) accumulators[w].merge(block);
    escalations[w] = oracle.pairs_escalated();
  });
  for (std::size_t w = 1; w < accumulators.size(); ++w) accumulators.front().merge(accumulators[w]);
  accuracy::PositionProfile profile;
  for (std::size_t k = 0; k < static_cast<std::size_t>(blocks); ++k) {
    for (std::size_t w = 1; w < block_tallies.size(); ++w) block_tallies.front()[k].merge(block_tallies[w][k]);
    const accuracy::Tally& tally = block_tallies.front()[k].tally();
    if (tally.entries == 0) continue;
    // The block's first position; NaN where it had only typed mismatches (no ULP figure to plot).
    profile.positions.push_back(static_cast<double>(first + (static_cast<std::int64_t>(k) * span + blocks - 1) / blocks));
    profile.max_ulp.push_back(tally.measured() > 0 ? tally.max_ulp() : std::numeric_limits<double>::quiet_NaN());
    profile.max_abs_error.push_back(tally.max_abs_error());
  }
  std::int64_t escalated = 0;
  for (std::int64_t e : escalations) escalated += e;

  Comparison comparison;
  comparison.target = model ? "the computation model " + model->name : "the exact rotation";
  accuracy::Measurement& m = comparison.measurement;
  // The accumulator's rows are the subject's rows; their positions are POS's.
  m = accumulators.front().measurement(
      [&](std::int64_t row) { return (*request.row_position)[static_cast<std::size_t>(row)]; },
      request.budget_source, escalated);
  if (!model) {
    if (m.entries > m.mismatches) refine_exact(m.worst, request);
    if (m.nearest_zero) refine_exact(*m.nearest_zero, request);
  }
  m.profile = std::move(profile);
  comparison.beyond_budget = accuracy::failing_entries(m);
  comparison.conforms = m.entries > 0 && comparison.beyond_budget == 0;
  return comparison;
}

}  // namespace pecheck::validate
