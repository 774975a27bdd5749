// What a cheap tier of the oracle settles in one row, frequency by frequency:
// the rounding of sin(p w_i) and cos(p w_i) and their exact values, and
// whether both are settled; the table builder stores what is and sends the
// rest one tier down (table_builder.cpp).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace pecheck::reference {

struct RowDecisions {
  RowDecisions() = default;
  // Moved, not copied: cos_hi and sin_hi view the struct's own array (a
  // move keeps it where it is).
  RowDecisions(const RowDecisions&) = delete;
  RowDecisions& operator=(const RowDecisions&) = delete;
  RowDecisions(RowDecisions&&) = default;
  RowDecisions& operator=(RowDecisions&&) = default;

  std::vector<double> sin_rounded, cos_rounded;   // the rounding to the table's format, where settled
  std::span<double> sin_hi, cos_hi;               // the exact values as hi + lo, where settled
  std::vector<double> sin_lo, cos_lo;             // (the his in one array: exact_hi())
  std::vector<unsigned char> sin_done, cos_done;  // 1: the rounding and the exact value wanted are settled
  // Every exact value is a plain double (the double tier's): the lo arrays
  // are then not written, and sin_low and cos_low read 0. Not storing those
  // zeros, nor the rounded values a caller skips, took about 3% off the CPU
  // time of validating a 32768 x 1024 float32 table.
  bool plain = false;

  double sin_low(std::size_t i) const { return plain ? 0.0 : sin_lo[i]; }
  double cos_low(std::size_t i) const { return plain ? 0.0 : cos_lo[i]; }

  // cos_hi then sin_hi, one after the other: a row of plain doubles handed
  // on as it is, by frequency, cos's then sin's (rotary_row_streams.cpp).
  std::span<const double> exact_hi() const { return hi_; }

  void resize(std::size_t count) {
    for (std::vector<double>* v : {&sin_rounded, &cos_rounded, &sin_lo, &cos_lo}) v->resize(count);
    hi_.resize(2 * count);
    cos_hi = {hi_.data(), count};
    sin_hi = {hi_.data() + count, count};
    sin_done.resize(count);
    cos_done.resize(count);
  }

 private:
  std::vector<double> hi_;  // cos_hi's values, then sin_hi's
};

}  // namespace pecheck::reference
