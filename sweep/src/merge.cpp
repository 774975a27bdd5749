#include "pecheck/sweep/merge.hpp"

#include <algorithm>
#include <cstdio>

namespace pecheck::sweep {

namespace {

std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

// The first field of the work description where b differs from a, with both
// values, or empty when they are equal.
std::string first_difference(const SweepWork& a, const SweepWork& b) {
  const auto differ = [](const std::string& field, const std::string& x, const std::string& y) {
    return field + " is " + y + " where the first part has " + x;
  };
  if (a.convention != b.convention) return differ("work.convention", a.convention, b.convention);
  if (a.dims != b.dims) return differ("work.dims", widths_text(a.dims), widths_text(b.dims));
  if (a.format != b.format) {
    return differ("work.dtype", std::string(format_of(a.format).name), std::string(format_of(b.format).name));
  }
  if (a.positions != b.positions) return differ("work.positions", range_text(a.positions), range_text(b.positions));
  if (a.subject != b.subject) return differ("work.subject", a.subject, b.subject);
  if (a.budget_ulp != b.budget_ulp) return differ("work.budget_ulp", number_text(a.budget_ulp), number_text(b.budget_ulp));
  if (a.version != b.version) return differ("work.pecheck_version", a.version, b.version);
  return {};
}

}  // namespace

SweepResult merge_results(const std::vector<NamedResult>& parts) {
  if (parts.empty()) throw SweepMergeError("no parts to merge");
  const NamedResult& first = parts.front();
  for (const NamedResult& part : parts) {
    const std::string difference = first_difference(first.result.work, part.result.work);
    if (!difference.empty()) {
      throw SweepMergeError(part.source + ": " + difference + " (" + first.source + "): parts of different work");
    }
  }

  // Cover the work's rows in order: each part must start right after the
  // previous one ends.
  std::vector<const NamedResult*> by_rows;
  for (const NamedResult& part : parts) by_rows.push_back(&part);
  std::stable_sort(by_rows.begin(), by_rows.end(), [](const NamedResult* a, const NamedResult* b) {
    return a->result.rows.first < b->result.rows.first;
  });
  const InclusiveRange& all = first.result.work.positions;
  std::int64_t next = all.first;  // the first row no part has covered yet
  const NamedResult* previous = nullptr;
  for (const NamedResult* part : by_rows) {
    const InclusiveRange& rows = part->result.rows;
    if (rows.first > next) {
      throw SweepMergeError(part->source + ": field 'shard.positions' starts at row " + std::to_string(rows.first) +
                            ": rows " + range_text({next, rows.first - 1}) + " are in no part (missing shards)");
    }
    if (rows.first < next) {
      throw SweepMergeError(part->source + ": field 'shard.positions' " + range_text(rows) + " overlaps " +
                            previous->source + " (" + range_text(previous->result.rows) + ") at rows " +
                            range_text({rows.first, std::min(next - 1, rows.last)}) + " (overlapping shards)");
    }
    next = rows.last + 1;
    previous = part;
  }
  if (next <= all.last) {
    throw SweepMergeError(previous->source + ": field 'shard.positions' ends at row " + std::to_string(next - 1) +
                          ": rows " + range_text({next, all.last}) + " are in no part (missing shards)");
  }

  SweepResult merged{first.result.work, Shard{0, 1}, all, {}};
  for (const NamedResult* part : by_rows) merge_into(merged.statistics, part->result.statistics);
  return merged;
}

}  // namespace pecheck::sweep
