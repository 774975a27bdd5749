// (d) What the scale and adding versus concatenating do to learning, from
// the training family (pecheck report --training): small transformers
// trained on reverse and sort over seeds. Every number is a statistic of
// those checks, read by its key (the run's task, norm and configuration);
// a comparison is called a difference only where its check asserts one.
#include <map>
#include <string>
#include <vector>

#include "finding_builder.hpp"
#include "finding_parts.hpp"
#include "text_format.hpp"

namespace pecheck::reports::detail {

namespace {

// "0.81 ± 0.06" for a mean over seeds (measured_text without the draw count,
// which the first paragraph gives once).
std::string mean_spread(const properties::Statistic& s) {
  return significant(s.value, 2) + (s.spread ? " \u00b1 " + significant(s.spread->standard_deviation, 2) : "");
}

std::string p_text(double p) { return p < 1e-4 ? "p < 1e-4" : "p = " + significant(p, 2); }

class TrainingReader {
 public:
  explicit TrainingReader(FindingBuilder& b) : b_(b) {}

  const properties::Statistic* get(std::string_view check, Quantity quantity, const std::string& run,
                                   const std::string& label) {
    return b_.use_matching(
        check, quantity, [&](const properties::StatisticKey& key) { return key.run == run; }, label + ", " + run);
  }

  // "gain +0.35 (p < 1e-4)" of configuration a over b on one task and norm.
  std::string gain(std::string_view check, const std::string& task_norm, const std::string& pair) {
    const std::string run = task_norm + "/" + pair;
    const properties::Statistic* g = get(check, Quantity::training_accuracy_gain, run, "accuracy gain");
    const properties::Statistic* p = get(check, Quantity::training_welch_p, run, "Welch p");
    if (g == nullptr || p == nullptr) return {};
    return (g->value >= 0 ? "+" : "") + significant(g->value, 2) + " (" + p_text(p->value) + ")";
  }

 private:
  FindingBuilder& b_;
};

struct Named {
  const char* id;
  const char* name;
};
constexpr Named shown[] = {
    {"paper", "the paper's N(0, 1/d) with s = sqrt(d)"},
    {"no-scale", "N(0, 1/d) without the scale"},
    {"unit-unscaled", "N(0, 1) without the scale"},
    {"unit-scaled", "N(0, 1) with the scale"},
    {"keras-scaled", "Keras's uniform with the scale"},
    {"concat", "concatenated"},
    {"learned", "a learned table"},
    {"rotary", "rotary"},
    {"nope", "no encoding"},
};

}  // namespace

std::optional<Finding> learning(const Report& report) {
  if (find_check_result(report, ids::learning_curves) == nullptr) return std::nullopt;
  FindingBuilder b(report, "learning", "(d) What do the scale and adding versus concatenating do to learning?");
  TrainingReader r(b);
  const CheckResult* curves = find_check_result(report, ids::learning_curves);
  b.paragraph(
      "Small transformers trained from scratch on two tasks that need both the token and its position "
      "(reverse the input; sort it), each answer token predicted under a causal mask, every input layer at "
      "the same width and the same layers: " +
      curves->outcome.message + " (" + b.status(ids::learning_curves) + ").");
  std::int64_t step = 0;
  for (const properties::StatisticKey& key : b.keys_of(ids::learning_curves, Quantity::training_accuracy_at_step)) {
    step = key.step;
  }
  const std::string at_step = "at step " + std::to_string(step);
  std::string short_answer;
  std::map<std::string, std::string> headline;  // reverse, post-LN: accuracy at the step by configuration
  for (const char* task : {"reverse", "sort"}) {
    for (const char* norm : {"post-ln", "pre-ln"}) {
      const std::string task_norm = std::string(task) + "/" + norm;
      std::string accuracies, reached;
      for (const Named& c : shown) {
        const std::string run = task_norm + "/" + c.id;
        const properties::Statistic* a =
            r.get(ids::learning_curves, Quantity::training_accuracy_at_step, run, "accuracy " + at_step);
        const properties::Statistic* s =
            r.get(ids::learning_curves, Quantity::training_steps_to_90, run, "steps to 90%");
        if (a == nullptr || s == nullptr) continue;
        accuracies += (accuracies.empty() ? "" : "; ") + std::string(c.name) + " " + mean_spread(*a);
        if (task_norm == "reverse/post-ln") headline[c.id] = mean_spread(*a);
        reached += (reached.empty() ? "" : ", ") + std::string(c.id) + " " + mean_spread(*s);
      }
      if (accuracies.empty()) continue;
      b.paragraph(std::string(task) + ", " + (std::string(norm) == "post-ln" ? "post-LN" : "pre-LN") +
                  ": held-out accuracy " + at_step + " (mean \u00b1 standard deviation over seeds): " + accuracies +
                  ". Steps to 90% (the last step where never reached): " + reached + ".");
    }
  }

  // The comparisons, each from its check, with Welch's test.
  std::string unit, scale, same_forward, concat;
  for (const char* task : {"reverse", "sort"}) {
    for (const char* norm : {"post-ln", "pre-ln"}) {
      const std::string task_norm = std::string(task) + "/" + norm;
      const auto add = [&](std::string& text, std::string_view check, const std::string& pair) {
        const std::string g = r.gain(check, task_norm, pair);
        if (!g.empty()) text += (text.empty() ? "" : ", ") + task_norm + " " + g;
      };
      add(unit, ids::unit_init_with_scale_lags, "paper-vs-unit-scaled");
      add(scale, ids::scale_at_small_sigma, "paper-vs-no-scale");
      add(same_forward, ids::scale_at_small_sigma, "paper-vs-unit-unscaled");
      add(concat, ids::concat_against_add, "concat-vs-paper");
    }
  }
  if (!unit.empty()) {
    b.paragraph(
        "PyTorch's N(0, 1) embedding with the sqrt(d) scale against the paper's N(0, 1/d), accuracy gained "
        "by the paper's " +
        at_step + ": " + unit + " (" + b.status(ids::unit_init_with_scale_lags) +
        "). With N(0, 1) the scaled token has d times the encoding's per-component energy, so the position "
        "is drowned; the claim is that this slows learning reverse, with Welch p < 0.01.");
    const CheckResult* claim = find_check_result(report, ids::unit_init_with_scale_lags);
    const bool held = claim != nullptr && !properties::spoils_a_pass(claim->outcome.verdict);
    short_answer += std::string(held ? "PyTorch's N(0, 1) init with the scale slows learning reverse"
                                     : "PyTorch's N(0, 1) init with the scale was not shown to slow learning reverse "
                                       "in this run") +
                    " (the paper's minus it " + at_step + ": " + unit + "). ";
  }
  if (!scale.empty()) {
    b.paragraph("The scale alone at sigma = d^-0.5 (the paper's against no scale): " + scale +
                ". sigma = d^-0.5 with the scale against sigma = 1 without it, the same forward pass at "
                "initialisation but not the same Adam updates: " +
                same_forward + " (" + b.status(ids::scale_at_small_sigma) + "; measured, no direction asserted).");
    short_answer += "The scale alone at sigma = d^-0.5: " + scale + ". ";
  }
  if (!concat.empty()) {
    b.paragraph(
        "Concatenating the sinusoid (d/2 token + d/2 position columns) against adding it (d), accuracy "
        "gained by concatenating " +
        at_step + ": " + concat + " (" + b.status(ids::concat_against_add) + "; measured, no direction asserted).");
    short_answer += "Concatenating minus adding: " + concat + ".";
  }
  std::string nope;
  double chance = 0.0;
  for (const char* norm : {"post-ln", "pre-ln"}) {
    const std::string run = std::string("reverse/") + norm + "/nope";
    if (const properties::Statistic* limit =
            r.get(ids::nope_learns, Quantity::training_accuracy_lower_limit, run, "99% lower limit, final accuracy")) {
      nope += (nope.empty() ? "" : ", ") + std::string(norm) + " " + significant(limit->value, 2);
      chance = limit->lower_bound.value_or(0.0);  // the check's bound: 1/V
    }
  }
  if (!nope.empty()) {
    b.paragraph(
        "Without any encoding (NoPE, Kazemnejad et al. 2023), the causal mask alone gives the model positions "
        "to count: the 99% lower confidence limit of its final accuracy on reverse is " +
        nope + " against chance " + significant(chance, 2) + " (" + b.status(ids::nope_learns) + ").");
  }
  if (const properties::Statistic* repeat = b.use_matching(
          ids::same_seed_same_run, Quantity::training_repeat_difference,
          [](const properties::StatisticKey&) { return true; }, "largest difference, the same seed run twice")) {
    b.paragraph("A run repeated alone with the same seed differs from the grid's by " + significant(repeat->value, 2) +
                " in accuracy and loss (" + b.status(ids::same_seed_same_run) + ").");
  }
  b.supported("Each difference printed above with its Welch p, for these sizes, tasks and steps.");
  b.unsupported(
      "Anything about large models, natural language or long training: two layers, d = 64, synthetic "
      "tasks, a few hundred steps.");
  b.unsupported(
      "A direction for the comparisons marked 'no direction asserted': they are measurements, and a "
      "p above 0.01 says the seeds did not separate them.");
  Finding finding = b.finish();
  if (!short_answer.empty()) {
    finding.short_answer =
        "In small transformers trained on reverse and sort (mean over seeds, Welch p): " + short_answer;
    finding.key_figure = "Reverse, post-LN, held-out accuracy " + at_step +
                         " (mean \u00b1 standard deviation over "
                         "seeds): the paper's " +
                         headline["paper"] + ", N(0, 1) with the scale " + headline["unit-scaled"] + ", no scale " +
                         headline["no-scale"] + ", concatenated " + headline["concat"] + ".";
    finding.caveat =
        "Two-layer models on synthetic tasks (sizes in the learning-curves check): what the input "
        "layer does to learning at this size, not in large models.";
  }
  finding.figures = {"training-learning-curves"};
  return finding;
}

}  // namespace pecheck::reports::detail
