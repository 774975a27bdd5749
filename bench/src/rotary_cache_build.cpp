#include "pecheck/bench/workloads.hpp"

namespace pecheck::bench {

RotaryCacheBuild::RotaryCacheBuild(const RotaryConvention& convention, const RotaryCacheRequest& request)
    : convention_(convention), request_(request) {
  check_rotary_request(convention, request);
}

void RotaryCacheBuild::run() { cache_ = fast_rotary_cache(convention_, request_); }

std::int64_t RotaryCacheBuild::entries() const { return request_.rows * rotary_columns(convention_); }

}  // namespace pecheck::bench
