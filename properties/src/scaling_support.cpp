#include "scaling_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "pecheck/properties/property_runner.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::properties::scaling_support {

std::vector<FormatId> formats_of(const Subject& subject, bool with_float64) {
  const std::vector<FormatId> offered = subject.capabilities().formats;
  std::vector<FormatId> order = {FormatId::float32, FormatId::float16, FormatId::bfloat16};
  if (with_float64) order.insert(order.begin(), FormatId::float64);
  std::vector<FormatId> chosen;
  for (FormatId id : order) {
    if (std::find(offered.begin(), offered.end(), id) != offered.end()) chosen.push_back(id);
  }
  return chosen;
}

std::optional<Outcome> require_embedding_operations(const Subject& subject) {
  if (subject.capabilities().embedding_operations) return std::nullopt;
  Outcome outcome;
  outcome.verdict = Verdict::not_applicable;
  outcome.message = "the subject '" + subject.name() +
                    "' offers no embedding operations (embedding_scale, add_embeddings, concat_embeddings, zero_pad)";
  return outcome;
}

std::optional<Outcome> require_formats(const Subject& subject, bool with_float64) {
  if (!formats_of(subject, with_float64).empty()) return std::nullopt;
  Outcome outcome;
  outcome.verdict = Verdict::not_applicable;
  outcome.message = "the subject '" + subject.name() + "' offers none of " +
                    (with_float64 ? "float64, " : "") + "float32, float16, bfloat16";
  return outcome;
}

std::uint64_t seed_of(const RunConfig& config) { return detail::params_for(config).seed; }

std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream) {
  // splitmix64's finaliser of seed + stream * golden ratio: distinct streams
  // give unrelated seeds, the same (seed, stream) the same table everywhere.
  std::uint64_t z = seed + (stream + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::int64_t sized(const RunConfig& config, std::int64_t quick, std::int64_t normal, std::int64_t full) {
  if (config.full) return full;
  if (config.quick) return quick;
  return normal;
}

double unit_roundoff(const Format& format) { return std::ldexp(1.0, -format.precision); }

double underflow_error(const Format& format) { return smallest_subnormal(format) / 2.0; }

const Convention& paper_convention() {
  static const Convention convention = [] {
    const std::optional<Convention> found = find_preset("vaswani");
    if (!found) throw std::logic_error("the vaswani preset is missing");
    return *found;
  }();
  return convention;
}

Table scaled_rows(const Subject& subject, const Table& embeddings, double scale, FormatId format) {
  Table identity = make_table(1, embeddings.cols, format);
  for (std::int64_t c = 0; c < identity.cols; ++c) identity.set(0, c, -0.0);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(embeddings.rows));
  std::iota(ids.begin(), ids.end(), std::int64_t{0});
  const std::vector<std::int64_t> positions(ids.size(), 0);
  return subject.add_embeddings({&embeddings, &identity, ids, positions, scale}, format);
}

Table sums(const Subject& subject, const Table& embeddings, const Table& encoding,
           const std::vector<std::int64_t>& positions, double scale, FormatId format) {
  std::vector<std::int64_t> ids(static_cast<std::size_t>(embeddings.rows));
  std::iota(ids.begin(), ids.end(), std::int64_t{0});
  return subject.add_embeddings({&embeddings, &encoding, ids, positions, scale}, format);
}

double mean_square(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) sum += v * v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

Statistic statistic(StatisticKey key, std::string name, double value, std::optional<double> lower,
                    std::optional<double> upper, std::string note) {
  Statistic s;
  s.name = std::move(name);
  s.value = value;
  s.lower_bound = lower;
  s.upper_bound = upper;
  s.note = std::move(note);
  s.key = key;
  return s;
}

Statistic drawn(StatisticKey key, std::string name, const std::vector<double>& draws, std::optional<double> closed_form,
                std::string note) {
  const auto n = static_cast<double>(draws.size());
  double mean = 0.0;
  for (double v : draws) mean += v / n;
  double squares = 0.0;
  for (double v : draws) squares += (v - mean) * (v - mean);
  Statistic s = statistic(key, std::move(name), mean, std::nullopt, std::nullopt, std::move(note));
  // The sample standard deviation (n - 1): the spread of one draw, not of the mean.
  s.spread = Spread{draws.size() > 1 ? std::sqrt(squares / (n - 1)) : 0.0, static_cast<std::int64_t>(draws.size())};
  s.closed_form = closed_form;
  return s;
}

void hold_within(Outcome& outcome, StatisticKey key, std::string name, double value, Interval bounds,
                 std::string note) {
  if (!bounds.contains(value)) {
    fail(outcome, name + " = " + format_number(value) + " lies outside [" + format_number(bounds.lower) + ", " +
                      format_number(bounds.upper) + "]");
  }
  outcome.statistics.push_back(statistic(key, std::move(name), value, bounds.lower, bounds.upper, std::move(note)));
}

void fail(Outcome& outcome, const std::string& reason) {
  if (outcome.verdict != Verdict::failed) {
    outcome.verdict = Verdict::failed;
    outcome.message.clear();
  }
  outcome.message += (outcome.message.empty() ? "" : "; ") + reason;
}

std::string format_number(double value) { return significant(value, 9); }

}  // namespace pecheck::properties::scaling_support
