// Whether a given convention can produce a table as wide as the file's, said
// in the table's terms: the user of `pecheck validate` gave a file, not --dim.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pecheck/convention.hpp"

namespace pecheck::validate {

// Empty when the convention produces `cols` columns; else one sentence such
// as "the table has 5 columns; tf-tutorial needs an even width". The widths
// themselves (1 to max_dim) are checked with the table's shape, before any
// convention.
std::optional<std::string> width_problem(const Convention& convention, std::int64_t cols);

}  // namespace pecheck::validate
