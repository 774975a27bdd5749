#include "pecheck/bench/workloads.hpp"

namespace pecheck::bench {

RotaryCacheBuild::RotaryCacheBuild(const RotaryConvention& convention, const RotaryCacheRequest& request)
    : convention_(convention), request_(request) {
  check_rotary_request(convention, request);
}

void RotaryCacheBuild::run() {
  // The last run's cache is released first, as a process that builds one
  // cache after another would: its pages can then serve this one's. Built
  // beside it, every run drew 64 MiB of pages the machine had not touched
  // lately, which on a fresh virtual machine cost more than the kernel itself
  // (78 ms against about 10 ms once its memory had been used).
  cache_ = RotaryCache{};
  cache_ = fast_rotary_cache(convention_, request_);
}

std::int64_t RotaryCacheBuild::entries() const { return request_.rows * rotary_columns(convention_); }

}  // namespace pecheck::bench
