#include "pecheck/bench/workloads.hpp"

namespace pecheck::bench {

RotaryCacheBuild::RotaryCacheBuild(const RotaryConvention& convention, const RotaryCacheRequest& request)
    : convention_(convention), request_(request) {
  check_rotary_request(convention, request);
}

void RotaryCacheBuild::run() {
  // The tables of the last run are written again, as pe_table_f32 writes
  // the buffer it reuses (a process building one cache after another can
  // keep them: fast_rotary_cache_into). Fresh tables are pages the operating
  // system zeroes first: on this 2-core machine that was half of the time
  // and swung with the machine's page state (78 ms, then 50, 38, 6.9 ms over
  // one round's runs), so the first run, which allocates them, is timed apart
  // (first_run_seconds).
  fast_rotary_cache_into(convention_, request_, cache_);
}

std::int64_t RotaryCacheBuild::entries() const { return request_.rows * rotary_columns(convention_); }

}  // namespace pecheck::bench
