#include "pecheck/sweep/statistics.hpp"

namespace pecheck::sweep {

void merge_into(SweepStatistics& total, const SweepStatistics& part) {
  accuracy::merge_into(total.tally, part.tally);
  total.escalations += part.escalations;
}

}  // namespace pecheck::sweep
