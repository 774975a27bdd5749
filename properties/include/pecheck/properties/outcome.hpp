// What running one check on one subject yields. reports/ renders it; the
// GoogleTest wrappers turn it into a pass or a failure with the same text.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/format.hpp"
#include "pecheck/properties/statistic_key.hpp"

namespace pecheck::properties {

enum class Verdict {
  held,            // the claim held on every case / the statistics are within budget
  failed,          // a counterexample, or a statistic outside its budget
  not_applicable,  // the subject does not offer what the check needs (said in `message`)
  // The claim was exercised on fewer cases than its minimum (RC_PARAMS
  // max_success=0, an empty sweep): nothing was shown, so it is no pass.
  not_run,
  // An observation: figures a check measured that no bound asserts (it can
  // catch no fault), shown for what they say and never as "held".
  info,
};

// Whether a run with this verdict among its checks cannot be called a pass:
// a failure, or a claim that was never exercised.
constexpr bool spoils_a_pass(Verdict verdict) { return verdict == Verdict::failed || verdict == Verdict::not_run; }

// How a random statistic varies: `value` is the mean over `draws`
// independent draws, and this their sample standard deviation.
struct Spread {
  double standard_deviation = 0.0;
  std::int64_t draws = 0;
};

// A statistic a check computed (an energy ratio, a variance, a bound),
// printed beside its budget in reports. `name` is for people; readers find
// it by `key` (statistic_key.hpp), never by its name.
struct Statistic {
  std::string name;
  double value = 0.0;
  std::optional<double> lower_bound;
  std::optional<double> upper_bound;
  std::string note;
  StatisticKey key{};
  std::optional<Spread> spread{};       // set for a mean over independent draws
  std::optional<double> closed_form{};  // the value the mathematics predicts, printed beside it
};

// A curve a measurement traced (one per format or setting), which reports
// plot: the token-recoverability rate against the embedding scale, the
// encoding's variance per column.
struct Series {
  std::string name;     // what distinguishes this curve: "bfloat16", "with the sqrt(d) scale"
  std::string x_label;
  std::string y_label;
  std::vector<double> x;
  std::vector<double> y;  // same length as x
  // What the curve measures, where a reader looks it up (the report's
  // float32-angle figure): typed like a statistic's key, never the name.
  std::optional<StatisticKey> key{};
  // A vertical line at one x (x = {v, v}, y the panel's range) marking a
  // value the reader looks for, s = sqrt(d) say: not a measurement.
  bool marks_x = false;
};

struct Outcome {
  std::string check_id;
  std::string subject;
  Verdict verdict = Verdict::held;
  std::int64_t cases = 0;              // generated cases or swept entries
  std::string message;                 // one paragraph: why it failed, or what was measured
  // A failed property: the shrunk counterexample as (name, value) lines,
  // RapidCheck's seed and reproduce string, and a command line that replays it.
  std::vector<std::pair<std::string, std::string>> counterexample;
  std::optional<std::uint64_t> seed;
  std::string reproduce;
  std::string reproduce_command;
  std::vector<accuracy::Measurement> measurements;  // one per format swept
  std::vector<Statistic> statistics;
  std::vector<Series> series;
  std::vector<std::pair<std::string, int>> distribution;  // RC_CLASSIFY / RC_TAG counts
};

std::string_view to_string(Verdict verdict);

// The statistic filed under `key`, or null when the outcome has none.
const Statistic* find_statistic(const Outcome& outcome, const StatisticKey& key);

// A reader asked for a statistic its check does not yield: a renamed or
// dropped quantity, which must fail loudly rather than vanish from a report.
class MissingStatistic : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};
// The statistic filed under `key`; throws MissingStatistic naming the check and the key.
const Statistic& require_statistic(const Outcome& outcome, const StatisticKey& key);

}  // namespace pecheck::properties
