#include "performance_rows.hpp"

#include <cstdio>

#include "pecheck/bench/targets.hpp"
#include "text_format.hpp"

namespace pecheck::reports {

namespace {

std::string fixed(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string duration(double seconds) {
  return seconds >= 1.0 ? fixed(seconds, "%.3f s") : fixed(seconds * 1e3, "%.3f ms");
}

std::string mib(double bytes) { return fixed(bytes / (1024.0 * 1024.0), "%.1f MiB"); }

}  // namespace

std::string_view to_string(TargetResult result) {
  switch (result) {
    case TargetResult::met: return "met";
    case TargetResult::missed: return "missed";
    case TargetResult::not_judged: return "quick";
  }
  return "?";
}

std::vector<PerformanceRow> performance_rows(const bench::Figures& figures) {
  std::vector<PerformanceRow> rows;
  for (const bench::JudgedFigure& figure : bench::judged_figures(figures)) {
    for (const bench::Criterion& criterion : figure.criteria) {
      PerformanceRow row;
      row.figure = figure.id;
      row.workload = figure.workload;
      row.time = duration(figure.seconds);
      row.throughput = fixed(figure.melem_per_s, "%.1f Melem/s");
      row.criterion = criterion.quantity;
      row.measured = significant(criterion.value, 4);
      row.target = std::string(bench::symbol(criterion.comparison)) + " " + significant(criterion.bound, 4);
      row.result = figures.quick     ? TargetResult::not_judged
                   : criterion.met() ? TargetResult::met
                                     : TargetResult::missed;
      row.note = criterion.why;
      if (!figure.detail.empty()) row.note += "; " + figure.detail;
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::vector<ReferenceRow> reference_rows(const bench::Figures& figures) {
  const bench::Bandwidth& write = figures.write_bandwidth;
  const bench::Bandwidth& triad = figures.triad_bandwidth;
  return {{"write bandwidth: streaming store", mib(write.bytes), duration(write.best_seconds),
           fixed(write.gb_per_s(), "%.2f GB/s")},
          {"triad bandwidth: c = a + s b (bytes of a, b and c)", mib(triad.bytes), duration(triad.best_seconds),
           fixed(triad.gb_per_s(), "%.2f GB/s")}};
}

}  // namespace pecheck::reports
