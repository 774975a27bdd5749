// A Measurement in one line of text, as checks put it in their messages.
#include <cstdio>
#include <string>

#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::accuracy {

namespace {

std::string number_text(double x) { return significant(x, 3); }

}  // namespace

std::string abs_bound_text(const AbsoluteBoundCheck& check) {
  std::string text = std::to_string(check.beyond_ulp) + (check.beyond_ulp == 1 ? " entry" : " entries") +
                     " beyond the ULP budget, ";
  text += check.beyond_bound == 0 ? "all within " + check.name
                                  : std::to_string(check.beyond_bound) + " of them beyond " + check.name + " too";
  const WorstInput& w = check.worst;
  text += " (largest |error| / bound " + number_text(check.worst_ratio) + " at row " + std::to_string(w.row) +
          " (position " + std::to_string(w.position) + "), column " + std::to_string(w.column) + ": " + w.value_hex +
          " against exact " + w.exact_text + ", " + number_text(check.worst_ulp) + " ULP, abs error " +
          number_text(w.abs_error) + ", bound " + number_text(check.worst_bound) + ")";
  return text;
}

std::string summary(const Measurement& m) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer,
                "%s: max %.4g ULP (budget %.6g), RMS %.3g ULP, max abs error %.3g, %lld entries, %lld typed mismatches",
                std::string(format_of(m.format).name).c_str(), m.max_ulp, m.budget_ulp, m.rms_ulp, m.max_abs_error,
                static_cast<long long>(m.entries), static_cast<long long>(m.mismatches));
  std::string text = buffer;
  if (m.entries > m.mismatches) {
    text += "; worst at row " + std::to_string(m.worst.row) + " (position " + std::to_string(m.worst.position) +
            "), column " + std::to_string(m.worst.column) + ": " + m.worst.value_hex + " against exact " +
            m.worst.exact_text + ", abs error " + number_text(m.worst.abs_error);
  }
  if (m.abs_bound && m.abs_bound->beyond_ulp > 0) text += "; " + abs_bound_text(*m.abs_bound);
  return text;
}

}  // namespace pecheck::accuracy
