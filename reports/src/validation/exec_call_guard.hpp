// What `validate --exec` does around the command's calls: stops at the first
// call that shows the command broken (its very first call failing) or the
// run's limits wrong (a timeout or the memory limit at any call), and makes
// the first call a small one that also finds the convention when none was
// given.
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "pecheck/convention.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/subject.hpp"

namespace pecheck::reports {

// Forwards every call to the command and remembers a failure that ends the
// run: the very first call failing to run (a non-zero exit, a signal, no file
// written) means the command is broken, not inaccurate; a call that timed
// out or ran out of its memory limit, wherever it comes, means the model's
// limits do not fit the machine. After either, later calls rethrow it without
// running the command, and the caller stops with one message (exit 2).
class CallGuard final : public Subject {
 public:
  explicit CallGuard(const Subject& command) : command_(command) {}
  // For a command whose first call was made through another guard (the
  // small call that found its convention): no later failure is "first".
  struct FirstCallMade {};
  static constexpr FirstCallMade first_call_made{};
  CallGuard(const Subject& command, FirstCallMade) : command_(command), called_(true) {}

  std::string name() const override { return command_.name(); }
  SubjectCapabilities capabilities() const override { return command_.capabilities(); }
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override;
  RotaryCache rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) const override;

  // The message for stderr once the run must stop, else nullopt.
  std::optional<std::string> stop_message() const;

 private:
  template <class Call>
  auto guarded(const Call& call) const;

  const Subject& command_;
  mutable std::mutex mutex_;
  mutable bool called_ = false;
  mutable std::optional<std::string> broken_;   // the first call's failure
  mutable std::optional<std::string> stopped_;  // a timeout or the memory limit, at any call
};

// The first call: a small table (64 rows of width 64, or the model's limits
// when smaller) from position 0, in the first format. With `given`, that
// convention; without, the convention detected from the table as `validate
// FILE` detects it (a ConventionError asking for --convention when it cannot
// be). A failure of the call itself is left to `guard`.
Convention first_call(const CallGuard& guard, const std::optional<Convention>& given,
                      const CommandSubjectOptions& options);

}  // namespace pecheck::reports
