// What a cheap tier of the oracle settles in one row, frequency by frequency:
// the rounding of sin(p w_i) and cos(p w_i) and their exact values, and
// whether both are settled; the table builder stores what is and sends the
// rest one tier down (table_builder.cpp).
#pragma once

#include <cstddef>
#include <vector>

namespace pecheck::reference {

struct RowDecisions {
  std::vector<double> sin_rounded, cos_rounded;        // the rounding to the table's format, where settled
  std::vector<double> sin_hi, sin_lo, cos_hi, cos_lo;  // the exact values as hi + lo, where settled
  std::vector<unsigned char> sin_done, cos_done;       // 1: the rounding and the exact value wanted are settled
  // Every exact value is a plain double (the double tier's): the lo arrays
  // are then not written, and sin_low and cos_low read 0. Not storing those
  // zeros, nor the rounded values a caller skips, took about 3% off the CPU
  // time of validating a 32768 x 1024 float32 table.
  bool plain = false;

  double sin_low(std::size_t i) const { return plain ? 0.0 : sin_lo[i]; }
  double cos_low(std::size_t i) const { return plain ? 0.0 : cos_lo[i]; }

  void resize(std::size_t count) {
    for (std::vector<double>* v : {&sin_rounded, &cos_rounded, &sin_hi, &sin_lo, &cos_hi, &cos_lo}) v->resize(count);
    sin_done.resize(count);
    cos_done.resize(count);
  }
};

}  // namespace pecheck::reference
