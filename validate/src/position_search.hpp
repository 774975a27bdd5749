// Which convention row file row 0 holds, from the angles of the table's
// sin/cos pairs and the convention's frequencies.
//
// The slowest frequency w_min pins the position modulo 2 pi / w_min: every
// candidate (phi + 2 pi k) / w_min below 2^24 is walked up the frequency
// ladder, each faster frequency correcting it by its wrapped angle error
// (safe while the error times the next frequency stays below pi, which the
// ladder's small ratios between neighbours guarantee), until the fastest one
// rounds it to an integer. The candidates that fit the first row best are
// then compared with the encoding on rows spread over the table, with
// neighbours one or two rows away, by the likelihood of all those rows, so
// neither one noisy row nor a fault that spoils every row moves the answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "column_pairs.hpp"
#include "position_steps.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

// Rows on which the offsets left are compared with the encoding, spread over
// the live rows: the likelihood sums over them, so more rows make it
// steadier, at about a microsecond per entry of pecheck's fast float64 rows.
inline constexpr std::size_t likelihood_rows = 256;

struct OffsetFit {
  std::int64_t row_offset = 0;  // file row r holds convention row r + row_offset
  double error = 0.0;           // the largest |table - encoding| on the rows compared
  bool ambiguous = false;       // another offset is as close, within half an ULP of 1
  std::optional<std::int64_t> rival;  // the next closest offset
  // The chosen offset fits within two ULP of 1 of the encoding: offsets that
  // fit as well are the table's own rounding, and any of them may conform.
  bool within_rounding = false;
};

// The largest difference from the table a caller can still use, read as the
// search goes (another thread may lower it): infinite when any will do.
using ErrorLimit = std::function<double()>;

// Empty when the structure has no pair or no row carries values. Offsets
// range over [0, 2^24 - position_offset - rows], so every row's position is
// below 2^24; `fixed` restricts the search to one offset (scored all the same).
// With `steps` that pin row 0 (position_steps.hpp), the offsets are those
// the steps allow, compared at the positions rounded as the steps show.
// With `give_up_above`, also empty once every offset the search could return
// differs from the encoding (at the positions compared) by more than the
// limit on some entry of the first or the last live row: the largest
// difference on any rows that include those two, at whichever offset is
// returned, would be above the limit too. A limit of -infinity gives up at
// once: the caller needs no offset.
std::optional<OffsetFit> find_row_offset(const Table& table, const Convention& convention, const Structure& structure,
                                         const std::vector<std::int64_t>& live_rows, FormatId format,
                                         std::optional<std::int64_t> fixed = std::nullopt,
                                         const PositionSteps* steps = nullptr, const ErrorLimit& give_up_above = {});

}  // namespace pecheck::validate
