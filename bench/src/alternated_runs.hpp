// A command and the baseline its ratio is taken against, timed in turns:
// command, baseline, command, baseline, ... Each side keeps its best run. On
// a machine whose cores other work takes for a second or more at a time
// (other machines' work on the host's cores, which the load average does not
// show), all of one side's runs and then all of the other's could fall one
// in such a stretch and one outside it, and the ratio would measure the
// machine; in turns, a stretch slows runs of both sides.
#pragma once

#include <algorithm>

namespace pecheck::bench {

// command(run) then baseline(run) for run = 0, 1, ..., runs - 1 (at least
// once); command returns false when it failed, which ends the turns there
// (its baseline is not run).
template <typename Command, typename Baseline>
void alternated_runs(int runs, Command&& command, Baseline&& baseline) {
  for (int run = 0; run < std::max(runs, 1); ++run) {
    if (!command(run)) return;
    baseline(run);
  }
}

}  // namespace pecheck::bench
