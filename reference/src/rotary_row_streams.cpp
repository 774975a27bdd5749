#include "rotary_row_streams.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "pecheck/parallel_for.hpp"
#include "rotary_reference_kernels.hpp"
#include "rotary_row_evaluator.hpp"

namespace pecheck::reference {

namespace {

// Row r's exact values as given by value: by frequency, cos's then sin's.
void set_by_frequency(RotaryReferenceRow& out, std::int64_t r, std::span<const double> by_frequency) {
  out.row = r;
  out.cos = {};
  out.sin = {};
  out.by_frequency = by_frequency;
}

// A row of per-frequency results as the streams hand it: each column's exact
// cos and sin (double-double), gathered by the column's frequency.
void by_column(const RotaryRowPlan& plan, std::int64_t r, const RotaryRowResults& results,
               std::vector<DoubleDouble>& cos_exact, std::vector<DoubleDouble>& sin_exact, RotaryReferenceRow& out) {
  const std::vector<std::size_t>& frequency_of = plan.frequency_of();
  for (std::size_t c = 0; c < frequency_of.size(); ++c) {
    cos_exact[c] = results.cos[frequency_of[c]].exact;
    sin_exact[c] = results.sin[frequency_of[c]].exact;
  }
  out.row = r;
  out.cos = cos_exact;
  out.sin = sin_exact;
  out.by_frequency = {};
}

// The exact encoding's rows (and a model's where the float-angle tier does
// not apply): the rotary tiers with nothing rounded; a row the double tier
// settles whole goes as its plain doubles by frequency, from the tier's arrays.
class EvaluatedRows final : public RotaryRowStream {
 public:
  explicit EvaluatedRows(const RotaryRowPlan& plan)
      : plan_(plan),
        evaluator_(plan.convention(), plan.model(), plan.tier_frequencies(), format_of(plan.request().format),
                   plan.exact(), RoundedValues::skipped),
        cos_exact_(plan.frequency_of().size()),
        sin_exact_(cos_exact_.size()) {}

  void row(std::int64_t r, RotaryReferenceRow& out) override {
    const std::int64_t position = plan_.request().first_position + r;
    if (evaluator_.settle_plain(position)) {
      // The tier's his in place (cos's then sin's), valid until the next row.
      set_by_frequency(out, r, evaluator_.decisions().exact_hi());
      return;
    }
    evaluator_.finish(position, results_);
    by_column(plan_, r, results_, cos_exact_, sin_exact_, out);
  }
  std::int64_t escalations() const override { return evaluator_.escalations(); }
  std::int64_t mpfr_entries() const override { return evaluator_.mpfr_entries(); }

 private:
  const RotaryRowPlan& plan_;
  RotaryRowEvaluator evaluator_;
  RotaryRowResults results_;
  std::vector<DoubleDouble> cos_exact_, sin_exact_;
};

// A model with float32 angles (rotary_model_rows.hpp): each row by the
// float-angle tier; a row it leaves an entry of by the rotary tiers and
// MPFR (RotaryRowEvaluator, built for the first such row; a model's tiers
// take no frequencies), as rotary_reference_cache takes it.
class ModelRows final : public RotaryRowStream {
 public:
  explicit ModelRows(const RotaryRowPlan& plan)
      : plan_(plan),
        tier_(*plan.float_angle_rows()),
        by_frequency_(2 * tier_.frequencies()),
        cos_exact_(plan.frequency_of().size()),
        sin_exact_(cos_exact_.size()) {}

  void row(std::int64_t r, RotaryReferenceRow& out) override {
    const std::int64_t position = plan_.request().first_position + r;
    // The tier writes cos's values and sin's into the row's halves.
    if (tier_.row(position, by_frequency_.data(), by_frequency_.data() + tier_.frequencies())) {
      set_by_frequency(out, r, by_frequency_);
      return;
    }
    if (!evaluator_) {
      evaluator_ = std::make_unique<RotaryRowEvaluator>(plan_.convention(), plan_.model(), no_frequencies_,
                                                        format_of(plan_.request().format), plan_.exact());
    }
    evaluator_->evaluate(position, results_);
    by_column(plan_, r, results_, cos_exact_, sin_exact_, out);
  }
  std::int64_t escalations() const override { return evaluator_ ? evaluator_->escalations() : 0; }
  std::int64_t mpfr_entries() const override { return evaluator_ ? evaluator_->mpfr_entries() : 0; }

 private:
  const RotaryRowPlan& plan_;
  FloatAngleRows tier_;  // its own row buffers
  const std::vector<StepsFrequency> no_frequencies_;
  std::unique_ptr<RotaryRowEvaluator> evaluator_;
  RotaryRowResults results_;
  std::vector<double> by_frequency_;  // cos's values, then sin's
  std::vector<DoubleDouble> cos_exact_, sin_exact_;
};

}  // namespace

RotaryRowPlan::RotaryRowPlan(const RotaryConvention& convention, const RotaryCacheRequest& request,
                             const std::optional<ComputationModel>& model, ExactValues exact)
    : convention_(convention), request_(request), model_(model), exact_(exact) {
  check_rotary_request(convention, request);
  if (exact == ExactValues::none) throw std::logic_error("rotary_reference_rows: the rows are their exact values");
  const std::int64_t cols = rotary_columns(convention);
  frequency_of_.resize(static_cast<std::size_t>(cols));
  for (std::int64_t c = 0; c < cols; ++c) {
    frequency_of_[static_cast<std::size_t>(c)] = static_cast<std::size_t>(rotary_column_frequency(convention, c));
  }
  if (float_angle_rows_apply(model, request.format, exact)) {
    float_angle_rows_.emplace(convention, *model, request.format, exact);
  } else {
    tier_frequencies_ = rotary_tier_frequencies(convention, model);
  }
}

std::unique_ptr<RotaryRowStream> RotaryRowPlan::stream() const {
  if (float_angle_rows_) return std::make_unique<ModelRows>(*this);
  return std::make_unique<EvaluatedRows>(*this);
}

std::vector<RotaryReferenceCounts> visit_rotary_reference_rows(const RotaryConvention& convention,
                                                               const RotaryCacheRequest& request,
                                                               std::span<const std::optional<ComputationModel>> targets,
                                                               int threads, ExactValues exact,
                                                               const RotaryRowsVisitor& visit) {
  std::vector<RotaryRowPlan> plans;
  plans.reserve(targets.size());
  for (const std::optional<ComputationModel>& model : targets) plans.emplace_back(convention, request, model, exact);
  const int workers = worker_count(threads, request.rows);
  std::vector<std::atomic<std::int64_t>> escalations(targets.size());
  std::vector<std::atomic<std::int64_t>> mpfr_entries(targets.size());
  // Blocks of consecutive rows taken by the workers as they come free: the
  // cost of a row varies along the cache (against a computation model the
  // rows past the budget, which need the allowance, gather at long
  // positions), so halves given out in advance finish apart. At most a
  // sixteenth of a worker's share, of whole 64-row stretches (the angle-sum
  // tier's anchor rows), and smaller as the rows run out (a quarter of what
  // is left over the workers), so the workers finish within a stretch of
  // each other, not a block (the bench's cache: 0.2 to 2.2 ms apart in six
  // runs with blocks of one size, within 0.03 ms with these).
  const std::int64_t largest = std::max<std::int64_t>(64, (request.rows / (16 * workers) + 63) / 64 * 64);
  std::atomic<std::int64_t> next_row{0};
  const auto claim = [&](std::int64_t& first) {
    first = next_row.load();
    std::int64_t size = 0;
    do {
      if (first >= request.rows) return std::int64_t{0};
      const std::int64_t left = request.rows - first;
      size = std::clamp<std::int64_t>((left / (4 * workers) + 63) / 64 * 64, 64, largest);
    } while (!next_row.compare_exchange_weak(first, first + size));
    return size;
  };
  parallel_for(workers, [&](int worker) {
    std::vector<std::unique_ptr<RotaryRowStream>> streams;
    for (const RotaryRowPlan& plan : plans) streams.push_back(plan.stream());
    std::vector<RotaryReferenceRow> rows(streams.size());
    std::int64_t first = 0;
    for (std::int64_t size = claim(first); size > 0; size = claim(first)) {
      const std::int64_t last = std::min(request.rows, first + size);
      for (std::int64_t r = first; r < last; ++r) {
        for (std::size_t t = 0; t < streams.size(); ++t) streams[t]->row(r, rows[t]);
        visit(worker, rows);
      }
    }
    for (std::size_t t = 0; t < streams.size(); ++t) {
      escalations[t] += streams[t]->escalations();
      mpfr_entries[t] += streams[t]->mpfr_entries();
    }
  });
  std::vector<RotaryReferenceCounts> counts;
  for (std::size_t t = 0; t < targets.size(); ++t)
    counts.push_back({escalations[t].load(), mpfr_entries[t].load(), workers});
  return counts;
}

}  // namespace pecheck::reference
