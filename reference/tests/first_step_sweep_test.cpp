// The large cross-check of the cheap tiers (the double-word first step and
// the double tier of the narrow formats) against the MPFR path: 10^8
// entries (sin and cos of 5 * 10^7 positions and frequencies) over every
// preset at widths up to 8192 and positions up to 2^24, on two threads.
// Each block fixes a preset and width (so the MPFR set-up of its frequencies
// is paid once) and draws positions and frequencies at random.
// PECHECK_FIRST_STEP_SWEEP_ENTRIES overrides the count (CI runs the default).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

#include "first_step_agreement.hpp"

namespace pecheck::reference {
namespace {

std::int64_t sweep_entries() {
  const char* text = std::getenv("PECHECK_FIRST_STEP_SWEEP_ENTRIES");
  return text != nullptr ? std::atoll(text) : 100'000'000;
}

TEST(FirstStepSweep, hundredMillionEntriesAgreeWithMpfr) {
  const std::int64_t entries = sweep_entries();
  constexpr int threads = 2;
  constexpr std::int64_t pairs_per_block = 250'000;
  const std::int64_t blocks = std::max<std::int64_t>(1, entries / 2 / pairs_per_block);
  const std::vector<Convention> conventions = presets();
  const std::int64_t widths[] = {2, 64, 512, 1024, 4096, 8192};
  AgreementCounts total;
  std::mutex total_mutex;
  auto worker = [&](int thread) {
    AgreementCounts counts;
    for (std::int64_t block = thread; block < blocks; block += threads) {
      std::mt19937_64 random(0x5eed0000 + static_cast<std::uint64_t>(block));
      const Convention& convention = conventions[static_cast<std::size_t>(block) % conventions.size()];
      const std::int64_t dim = std::max(widths[(block / 6) % 6], std::max<std::int64_t>(convention.min_dim, 2));
      FirstStepChecker checker(convention, dim);
      std::uniform_int_distribution<std::int64_t> frequency(0, checker.frequencies() - 1);
      std::uniform_int_distribution<std::int64_t> position(1, max_exact_position);
      for (std::int64_t k = 0; k < pairs_per_block; ++k) checker.check(position(random), frequency(random), counts);
    }
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    std::lock_guard<std::mutex> lock(total_mutex);
    total.add(counts);
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker, t);
  for (std::thread& thread : pool) thread.join();

  std::cout << "sweep: " << total.entries << " entries, " << total.not_applicable
            << " left to MPFR outright, undecided roundings float64/float32/float16/bfloat16 " << total.undecided[0]
            << '/' << total.undecided[1] << '/' << total.undecided[2] << '/' << total.undecided[3]
            << "; the double tier's float32/float16/bfloat16 " << total.double_tier_undecided[1] << '/'
            << total.double_tier_undecided[2] << '/' << total.double_tier_undecided[3] << "; "
            << total.exact_accepted << " exact values accepted\n";
  EXPECT_EQ(total.failures, 0) << total.first_failure;
  EXPECT_GE(total.entries, entries);
}

}  // namespace
}  // namespace pecheck::reference
