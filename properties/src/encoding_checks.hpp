// The encoding-bounds family: each check's id and its runner. The claims and
// sources are registered in encoding_bounds.cpp.
#pragma once

#include "pecheck/properties/check.hpp"

namespace pecheck::properties::encoding {

inline constexpr const char* unit_interval_id = "encoding-bounds/unit-interval";
inline constexpr const char* pythagorean_id = "encoding-bounds/pythagorean-identity";
inline constexpr const char* squared_norm_id = "encoding-bounds/squared-norm";
inline constexpr const char* origin_id = "encoding-bounds/origin";
inline constexpr const char* zero_rows_id = "encoding-bounds/zero-rows";
inline constexpr const char* relative_position_id = "encoding-bounds/relative-position";
inline constexpr const char* frequency_ladder_id = "encoding-bounds/frequency-ladder";
inline constexpr const char* distinct_positions_id = "encoding-bounds/distinct-positions";
inline constexpr const char* slow_columns_id = "encoding-bounds/slow-columns";

Outcome unit_interval(const Subject& subject, const RunConfig& config);
Outcome pythagorean_identity(const Subject& subject, const RunConfig& config);
Outcome squared_norm(const Subject& subject, const RunConfig& config);
Outcome origin(const Subject& subject, const RunConfig& config);
Outcome zero_rows(const Subject& subject, const RunConfig& config);
Outcome relative_position(const Subject& subject, const RunConfig& config);
Outcome frequency_ladder(const Subject& subject, const RunConfig& config);
Outcome distinct_positions(const Subject& subject, const RunConfig& config);
Outcome slow_columns(const Subject& subject, const RunConfig& config);

}  // namespace pecheck::properties::encoding
