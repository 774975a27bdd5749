// A table that cannot exist: its shape is negative, too large to address, or
// needs more memory than this machine can give. The fields say what was asked;
// the command line maps the error to the flag or file it came from.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "pecheck/format.hpp"

namespace pecheck {

class TableShapeError : public std::invalid_argument {
 public:
  TableShapeError(std::int64_t rows, std::int64_t cols, FormatId format, const std::string& problem)
      : std::invalid_argument("table shape " + std::to_string(rows) + " x " + std::to_string(cols) + " of " +
                              std::string(format_of(format).name) + " " + problem),
        rows_(rows),
        cols_(cols),
        format_(format) {}

  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  FormatId format() const { return format_; }

 private:
  std::int64_t rows_;
  std::int64_t cols_;
  FormatId format_;
};

}  // namespace pecheck
