#include "builtin_formats.hpp"

#include <stdexcept>

namespace pecheck::reference {

const Format& builtin_format(FormatId id) {
  // IEEE 754 binary64 / binary32 / binary16 and bfloat16 (binary32's exponent
  // range with 8 significand bits).
  static const Format float64{FormatId::float64, "float64", 53, -1022, 1023, 64};
  static const Format float32{FormatId::float32, "float32", 24, -126, 127, 32};
  static const Format float16{FormatId::float16, "float16", 11, -14, 15, 16};
  static const Format bfloat16{FormatId::bfloat16, "bfloat16", 8, -126, 127, 16};
  switch (id) {
    case FormatId::float64: return float64;
    case FormatId::float32: return float32;
    case FormatId::float16: return float16;
    case FormatId::bfloat16: return bfloat16;
  }
  throw std::invalid_argument("unknown FormatId " + std::to_string(static_cast<int>(id)));
}

}  // namespace pecheck::reference
