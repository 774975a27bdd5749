#include "summary.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace pecheck::training {

Summary summarise(const std::vector<double>& values) {
  Summary s;
  s.count = static_cast<std::int64_t>(values.size());
  if (values.empty()) return s;
  for (double v : values) s.mean += v;
  s.mean /= static_cast<double>(values.size());
  if (values.size() > 1) {
    double squares = 0.0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.standard_deviation = std::sqrt(squares / static_cast<double>(values.size() - 1));
  }
  return s;
}

Welch welch_test(const std::vector<double>& a, const std::vector<double>& b) {
  const Summary sa = summarise(a), sb = summarise(b);
  Welch w;
  w.difference = sa.mean - sb.mean;
  if (sa.count < 2 || sb.count < 2) return w;
  const double va = sa.standard_deviation * sa.standard_deviation / static_cast<double>(sa.count);
  const double vb = sb.standard_deviation * sb.standard_deviation / static_cast<double>(sb.count);
  if (va + vb == 0.0) {
    w.p = w.difference == 0.0 ? 1.0 : 0.0;
    w.t = w.difference == 0.0 ? 0.0 : std::copysign(INFINITY, w.difference);
    return w;
  }
  w.t = w.difference / std::sqrt(va + vb);
  // Welch-Satterthwaite degrees of freedom.
  w.degrees_of_freedom = (va + vb) * (va + vb) /
                         (va * va / static_cast<double>(sa.count - 1) + vb * vb / static_cast<double>(sb.count - 1));
  const boost::math::students_t distribution(w.degrees_of_freedom);
  w.p = 2.0 * boost::math::cdf(boost::math::complement(distribution, std::fabs(w.t)));
  return w;
}

std::vector<double> accuracies_at(const Cell& cell, int step) {
  std::vector<double> values;
  for (const RunResult& run : cell.runs) {
    std::size_t i = 0;
    while (i + 1 < run.steps.size() && run.steps[i] < step) ++i;
    values.push_back(run.accuracy.at(i));
  }
  return values;
}

std::vector<double> final_accuracies(const Cell& cell) {
  std::vector<double> values;
  for (const RunResult& run : cell.runs) values.push_back(run.accuracy.back());
  return values;
}

std::vector<double> steps_to(const Cell& cell, double level) {
  std::vector<double> values;
  for (const RunResult& run : cell.runs) {
    double reached = run.steps.back();
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
      if (run.accuracy[i] >= level) {
        reached = run.steps[i];
        break;
      }
    }
    values.push_back(reached);
  }
  return values;
}

int never_reached(const Cell& cell, double level) {
  int count = 0;
  for (const RunResult& run : cell.runs) {
    bool reached = false;
    for (double a : run.accuracy) reached = reached || a >= level;
    count += !reached;
  }
  return count;
}

std::vector<double> final_losses(const Cell& cell) {
  std::vector<double> values;
  for (const RunResult& run : cell.runs) values.push_back(run.loss.back());
  return values;
}

}  // namespace pecheck::training
