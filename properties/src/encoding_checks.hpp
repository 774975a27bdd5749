// The encoding-bounds family: each check's id and its runner. The claims and
// sources are registered in encoding_bounds.cpp.
#pragma once

#include "pecheck/properties/check.hpp"
#include "pecheck/properties/check_ids.hpp"

namespace pecheck::properties::encoding {

inline constexpr std::string_view unit_interval_id = check_ids::unit_interval;
inline constexpr std::string_view pythagorean_id = check_ids::pythagorean_identity;
inline constexpr std::string_view squared_norm_id = check_ids::squared_norm;
inline constexpr std::string_view origin_id = check_ids::origin;
inline constexpr std::string_view zero_rows_id = check_ids::zero_rows;
inline constexpr std::string_view relative_position_id = check_ids::relative_position;
inline constexpr std::string_view frequency_ladder_id = check_ids::frequency_ladder;
inline constexpr std::string_view distinct_positions_id = check_ids::distinct_positions;
inline constexpr std::string_view slow_columns_id = check_ids::slow_columns;
inline constexpr std::string_view constant_columns_exact_id = check_ids::constant_columns_exact;

Outcome unit_interval(const Subject& subject, const RunConfig& config);
Outcome pythagorean_identity(const Subject& subject, const RunConfig& config);
Outcome squared_norm(const Subject& subject, const RunConfig& config);
Outcome origin(const Subject& subject, const RunConfig& config);
Outcome zero_rows(const Subject& subject, const RunConfig& config);
Outcome relative_position(const Subject& subject, const RunConfig& config);
Outcome frequency_ladder(const Subject& subject, const RunConfig& config);
Outcome distinct_positions(const Subject& subject, const RunConfig& config);
Outcome slow_columns(const Subject& subject, const RunConfig& config);
Outcome constant_columns_exact(const Subject& subject, const RunConfig& config);  // encoding_constant_columns.cpp

}  // namespace pecheck::properties::encoding
