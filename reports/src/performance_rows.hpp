// The performance section as rows of plain text, the same for the HTML and
// Markdown writers (each escapes them): one row per criterion of each
// figure bench/targets.hpp judges, and one per in-run memory reference.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pecheck/bench/figures.hpp"

namespace pecheck::reports {

// A quick run's tiny sizes are a smoke test: its figures are not judged.
enum class TargetResult { met, missed, not_judged };
// "met", "missed", "quick".
std::string_view to_string(TargetResult result);

struct PerformanceRow {
  std::string figure;      // "pe_table_f32"
  std::string workload;    // "8192 x 1024 float32 table"
  std::string time;        // "1.560 ms"
  std::string throughput;  // "5377 Melem/s"
  std::string criterion;   // "fraction of write bandwidth"
  std::string measured;    // "0.8003"
  std::string target;      // ">= 0.5"
  TargetResult result = TargetResult::not_judged;
  std::string note;        // where the bound comes from; what else was counted
};

struct ReferenceRow {
  std::string name;  // "write bandwidth: streaming store"
  std::string size;  // "32.0 MiB"
  std::string time;
  std::string rate;  // "26.84 GB/s"
};

std::vector<PerformanceRow> performance_rows(const bench::Figures& figures);
std::vector<ReferenceRow> reference_rows(const bench::Figures& figures);

}  // namespace pecheck::reports
