// The encoding-bounds family: each check's definition, beside its body in
// encoding_values.cpp, encoding_rotation.cpp, encoding_positions.cpp and
// encoding_constant_columns.cpp; encoding_bounds.cpp puts them in the
// report's order.
#pragma once

#include "pecheck/properties/check_definition.hpp"

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

extern const CheckDefinition unit_interval_check;           // encoding_values.cpp
extern const CheckDefinition pythagorean_identity_check;    // encoding_values.cpp
extern const CheckDefinition squared_norm_check;            // encoding_values.cpp
extern const CheckDefinition origin_check;                  // encoding_values.cpp
extern const CheckDefinition zero_rows_check;               // encoding_values.cpp
extern const CheckDefinition relative_position_check;       // encoding_rotation.cpp
extern const CheckDefinition frequency_ladder_check;        // encoding_rotation.cpp
extern const CheckDefinition distinct_positions_check;      // encoding_positions.cpp
extern const CheckDefinition slow_columns_check;            // encoding_positions.cpp
extern const CheckDefinition constant_columns_exact_check;  // encoding_constant_columns.cpp

}  // namespace pecheck::properties::encoding
