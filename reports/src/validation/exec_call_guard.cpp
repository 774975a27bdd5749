#include "exec_call_guard.hpp"

#include <algorithm>

#include "pecheck/reports/exec_validation.hpp"
#include "pecheck/validate/detection.hpp"

namespace pecheck::reports {

template <class Call>
auto CallGuard::guarded(const Call& call) const {
  bool first = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (broken_) throw CommandFailedError(*broken_);
    if (stopped_) throw CommandFailedError(*stopped_);
    first = !called_;
    called_ = true;
  }
  try {
    return call();
  } catch (const CommandFailedError& e) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const std::string stopping = stopping_failure(e);
    if (first && !broken_) {
      broken_ = e.what();
    } else if (!stopping.empty() && !stopped_) {
      stopped_ = e.what();
    }
    throw;
  }
}

Table CallGuard::encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const {
  return guarded([&] { return command_.encoding_table(convention, request, format); });
}

RotaryCache CallGuard::rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) const {
  return guarded([&] { return command_.rotary_cache(convention, request); });
}

std::optional<std::string> CallGuard::stop_message() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (broken_) return broken_subject_message(*broken_);
  if (stopped_) {
    return "--exec: stopped, since a call that times out or runs out of memory would do so again for every "
           "check (give the model's --max-position and --dim, or a larger --timeout or --memory-limit): " +
           *stopped_ + "\n";
  }
  return std::nullopt;
}

Convention first_call(const CallGuard& guard, const std::optional<Convention>& given,
                      const CommandSubjectOptions& options) {
  // Small, so a command that allocates by the positions it is asked for
  // shows early whether it runs at all; 64 rows of width 64 are enough to
  // tell the presets apart (detection.hpp).
  const Convention& asked = given ? *given : options.convention;
  const std::int64_t rows = std::min<std::int64_t>(64, options.limits.max_position.value_or(64) -
                                                           std::max<std::int64_t>(asked.position_offset, 0));
  const std::int64_t dim = std::min<std::int64_t>(64, options.limits.max_dim.value_or(64));
  if (rows < 1) {
    throw ConventionError("--max-position " + std::to_string(options.limits.max_position.value_or(0)) +
                          ": the convention's first row holds position " + std::to_string(asked.position_offset) +
                          ", so no row is left below it");
  }
  const Table table = guard.encoding_table(asked, TableRequest{rows, dim, 0}, options.formats.front());
  if (given) return *given;
  const validate::Detection found = validate::detect_convention(table);
  const std::string asked_text = "its first call (" + std::to_string(rows) + " rows of width " + std::to_string(dim) +
                                 " from row 0)";
  if (!found.sinusoidal || !found.convention) {
    throw ConventionError("--exec: the convention could not be detected from " + asked_text +
                          ": it is not a sinusoidal table there; give --convention NAME (pecheck conventions)");
  }
  if (found.row_offset != 0) {
    throw ConventionError("--exec: " + asked_text + " holds row " + std::to_string(found.row_offset) + " of " +
                          found.convention->name + " at row 0, so {offset} is not applied as pecheck applies it; "
                          "give --convention NAME to check it as that convention");
  }
  if (found.preset) {
    if (const std::optional<Convention> preset = find_preset(*found.preset)) return *preset;
  }
  return *found.convention;
}

}  // namespace pecheck::reports
