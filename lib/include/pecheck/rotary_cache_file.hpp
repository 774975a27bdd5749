// One file holding both rotary tables: a (2, L, d) stack (cos then sin) or
// Meta's complex (L, d/2) freqs_cis, as `pecheck validate COS` reads it alone
// and as an --exec command writes a rotary cache at {output}.
#pragma once

#include <filesystem>

#include "pecheck/rotary_cache.hpp"

namespace pecheck {

// Throws TableFileError naming the file and the shape or dtype found against
// what was expected.
RotaryCache read_combined_rotary_cache(const std::filesystem::path& path);

}  // namespace pecheck
