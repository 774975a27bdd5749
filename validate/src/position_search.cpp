#include "position_search.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numbers>
#include <span>

#include "encoding_rows.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/page_buffer.hpp"
#include "position_steps.hpp"
#include "table_rows.hpp"
#include "wrap_angle.hpp"

namespace pecheck::validate {

namespace {

constexpr double two_pi = 2.0 * std::numbers::pi;
// Past this many candidates from the slowest frequency (a width of 2 or 4,
// or a wrong rule's ladder, where it is fast), only the first ones are
// walked: positions up to 2^16 / w_min turns, which for any width of 6 or
// more under a preset's rule is every position below 2^24.
constexpr std::int64_t max_candidates = std::int64_t{1} << 16;
constexpr std::size_t scored_rows = 64;  // rows each kept offset's angles are scored on
// Under a fault, the RMS differences of the right offset and of its
// neighbours measured 0.4 to 0.9 (float16 or bfloat16 angles and positions,
// numpy_combined_faults_test and numpy_faults_test) and the nearest rival
// within 0.001% to 18% of the best: a rival within 5% is named and compared
// too (validation.cpp) rather than ruled out by a difference that small.
constexpr double likelihood_margin = 1.05;

struct Ladder {
  std::vector<double> w;           // ascending
  std::vector<FrequencyColumns> pairs;  // in the same order
};

Ladder ladder_of(const Convention& convention, std::int64_t dim, const Structure& structure) {
  Ladder ladder;
  ladder.pairs = structure.pairs;
  // Each pair's frequency (a log and an exp) taken once, not at every
  // comparison of the sort: the same values, so the same comparisons and order.
  std::map<std::int64_t, double> w;
  for (const FrequencyColumns& pair : ladder.pairs)
    w.emplace(pair.frequency_index, frequency_value(convention, dim, pair.frequency_index));
  std::sort(ladder.pairs.begin(), ladder.pairs.end(), [&](const FrequencyColumns& a, const FrequencyColumns& b) {
    return w.at(a.frequency_index) < w.at(b.frequency_index);
  });
  for (const FrequencyColumns& pair : ladder.pairs) ladder.w.push_back(w.at(pair.frequency_index));
  return ladder;
}

void angles_of(const Table& table, std::int64_t row, const Ladder& ladder, std::span<double> angles) {
  for (std::size_t j = 0; j < ladder.pairs.size(); ++j) {
    angles[j] = std::atan2(table.at(row, ladder.pairs[j].sin_column), table.at(row, ladder.pairs[j].cos_column));
  }
}

std::vector<double> angles_of(const Table& table, std::int64_t row, const Ladder& ladder) {
  std::vector<double> angles(ladder.pairs.size());
  angles_of(table, row, ladder, angles);
  return angles;
}

double row_score(std::span<const double> angles, const Ladder& ladder, std::int64_t position) {
  double score = 0.0;
  for (std::size_t j = 0; j < angles.size(); ++j) {
    const double error = static_cast<double>(position) * ladder.w[j] - angles[j];
    score += std::isfinite(error) ? 1.0 - std::cos(error) : 2.0;
  }
  return score;
}

// For each turn k in [lowest_turn, lowest_turn + count) of the slowest
// frequency, the position (phase + 2 pi k) / w_min walked up the ladder: each
// faster frequency corrects it by its wrapped angle error. A walk is a chain
// of dependent divisions; the turns go four at a time in lockstep, so four
// independent chains keep the divider busy, each with the same operations
// in the same order as one walk alone (the same bits).
std::vector<double> walked_positions(const std::vector<double>& angles, const Ladder& ladder, double phase,
                                     std::int64_t lowest_turn, std::int64_t count) {
  constexpr std::int64_t lanes = 4;
  if (count <= 0) return {};
  std::vector<double> positions(static_cast<std::size_t>((count + lanes - 1) / lanes * lanes));
  for (std::int64_t base = 0; base < count; base += lanes) {
    std::array<double, lanes> p{};
    for (std::int64_t l = 0; l < lanes; ++l) {
      p[static_cast<std::size_t>(l)] = (phase + two_pi * static_cast<double>(lowest_turn + base + l)) / ladder.w[0];
    }
    for (std::size_t j = 1; j < ladder.w.size(); ++j) {
      if (!std::isfinite(angles[j])) continue;
      for (double& q : p) q += wrap(angles[j] - q * ladder.w[j]) / ladder.w[j];
    }
    std::copy(p.begin(), p.end(), positions.begin() + base);
  }
  positions.resize(static_cast<std::size_t>(count));
  return positions;
}

// The angle scores over `rows` of the offsets in `best` (offset -> first-row
// score) that can be kept: those within 2 * lowest + noise of the lowest
// total, and the lowest, ascending (ties by offset).
//
// The others are left unfinished, with the same result: a total is a sum of
// terms >= 0, and rounding is monotone, so a partial total only grows; once
// it passes 2 * B + noise for the lowest full total B so far (B >= the lowest
// of all), the full total would pass 2 * lowest + noise and be dropped. The
// offsets go from the best first-row score on, so the right one (whose total
// is near 0) comes early and the others stop after a row or two. Empty when
// give_up(), asked before each offset, says the search may stop.
std::optional<std::vector<std::pair<double, std::int64_t>>> kept_totals(
    const std::map<std::int64_t, double>& best, std::span<const double> angles, const Ladder& ladder,
    const std::vector<std::int64_t>& rows, std::int64_t shift, double noise, const std::function<bool()>& give_up) {
  std::vector<std::pair<double, std::int64_t>> order;  // (first-row score, offset)
  for (const auto& [offset, first_score] : best) order.emplace_back(first_score, offset);
  std::sort(order.begin(), order.end());
  std::vector<std::pair<double, std::int64_t>> totals;
  double lowest = std::numeric_limits<double>::infinity();
  for (const auto& [ignored, offset] : order) {
    if (give_up()) return std::nullopt;
    const double bound = 2.0 * lowest + noise;  // infinite until one total is full
    double total = 0.0;
    bool passed = false;
    for (std::size_t k = 0; k < rows.size() && !passed; ++k) {
      total += row_score(angles.subspan(k * ladder.w.size(), ladder.w.size()), ladder, rows[k] + offset + shift);
      passed = total > bound;
    }
    if (passed) continue;
    lowest = std::min(lowest, total);
    totals.emplace_back(total, offset);
  }
  std::sort(totals.begin(), totals.end());
  return totals;
}

// Whether a search may give up: true when, at every offset of `offsets`,
// some entry of the first or the last of `live_rows` differs from the
// encoding (at positions held in `held`) by more than the caller's limit. The
// largest difference at whichever offset is chosen, on any rows that include
// those two, is then above it. An offset that puts one of them past the
// positions allowed is never chosen (closest_offset skips it). Each row is
// encoded by itself, the same bits as in a run (a row's values depend on its
// position alone). Asked between offsets, it looks again only when the limit
// has come down since it last looked (another thread places candidates).
class GiveUp {
 public:
  GiveUp(const Table& table, const FastEncoder& encoder, const Convention& convention,
         const std::vector<std::int64_t>& live_rows, std::optional<FormatId> held, const ErrorLimit& limit)
      : table_(table), encoder_(encoder), convention_(convention), held_(held), limit_(limit) {
    if (!live_rows.empty()) ends_ = {live_rows.front(), live_rows.back()};
  }

  bool operator()(const std::vector<std::int64_t>& offsets) {
    if (!limit_ || ends_.empty()) return false;
    const double limit = limit_();
    if (limit == -std::numeric_limits<double>::infinity()) return true;  // the caller needs no more
    if (!(limit < last_limit_)) return false;  // nothing new: infinite, or as before
    last_limit_ = limit;
    return std::all_of(offsets.begin(), offsets.end(), [&](std::int64_t offset) { return beyond(offset, limit); });
  }

 private:
  bool beyond(std::int64_t offset, double limit) {
    const std::vector<std::int64_t> at = held_convention_rows(ends_, offset, convention_, held_);
    for (std::size_t k = 0; k < ends_.size(); ++k) {
      const std::int64_t p = position_of_row(convention_, at[k]);
      if (at[k] < 0 || p <= -max_exact_position || p >= max_exact_position) return true;
    }
    bool beyond = false;
    visit_encoding_runs(encoder_, table_.cols, at, expected_, [&](std::size_t first, std::span<const double> run) {
      const auto dim = static_cast<std::size_t>(table_.cols);
      for (std::size_t e = 0; e < run.size() && !beyond; ++e) {
        const double value = table_.at(ends_[first + e / dim], static_cast<std::int64_t>(e % dim));
        beyond = std::isfinite(value) && std::fabs(value - run[e]) > limit;
      }
    });
    return beyond;
  }

  const Table& table_;
  const FastEncoder& encoder_;
  const Convention& convention_;
  std::optional<FormatId> held_;
  const ErrorLimit& limit_;
  std::vector<std::int64_t> ends_;
  std::vector<double> expected_;
  double last_limit_ = std::numeric_limits<double>::infinity();
};

// The table's rows[first, first + count), decoded into `out`.
const double* decoded(const Table& table, const std::vector<std::int64_t>& rows, std::size_t first, std::size_t count,
                      std::vector<double>& out) {
  const auto dim = static_cast<std::size_t>(table.cols);
  out.resize(count * dim);
  for (std::size_t k = 0; k < count; ++k) {
    decode_row(table.view(), rows[first + k], std::span(out).subspan(k * dim, dim));
  }
  return out.data();
}

// The offset closest to the table among `offsets`, compared with the
// encoding on every entry of likelihood_rows rows spread over `live_rows` (at
// positions held in `held`, when given). Empty when no offset keeps every
// position allowed, or when give_up, asked before each offset, says the
// search may stop.
//
// A table within two ULP of 1 of the encoding at some offset (a correct one,
// up to the third-party budget) is placed by the largest difference: a
// correctly rounded table's is half an ULP at its own offset, and an offset
// that fits within half as much again, or within an ULP of 1, is a true
// ambiguity (narrow, coarse tables), as before. A table far from the encoding
// at every offset (positions held in bfloat16, angles in float16) is placed
// by the likelihood under Gaussian errors of one variance: the smallest sum
// of squared differences. The largest differences of all offsets are then
// alike (choosing by them put a 2048-row table of bfloat16 positions at
// offset 1, 5, 7 or 14 instead of 0), while the sum still counts every
// entry the right offset fits and the others do not. Its rival is ambiguous
// within `likelihood_margin` of the best RMS difference.
std::optional<OffsetFit> closest_offset(const Table& table, const FastEncoder& encoder, const Convention& convention,
                                        const std::vector<std::int64_t>& live_rows,
                                        const std::vector<std::int64_t>& offsets, FormatId format,
                                        std::optional<FormatId> held, GiveUp& give_up) {
  if (give_up(offsets)) return std::nullopt;
  const std::vector<std::int64_t> rows = spread_sample(live_rows, likelihood_rows);
  struct Scored {
    double squares = 0.0;
    double largest = 0.0;
    std::int64_t offset = 0;
  };
  std::vector<Scored> scored;
  // With more than one offset, the rows' values are decoded once for all (the
  // same doubles), in huge pages (256 rows of 1024 are 2 MiB), not zeroed
  // first; one offset reads them from the table as it goes.
  const auto dim = static_cast<std::size_t>(table.cols);
  PageBuffer storage;
  std::span<double> values;
  if (offsets.size() > 1) {
    storage = allocate_page_buffer(rows.size() * dim * sizeof(double));
    values = std::span<double>(reinterpret_cast<double*>(storage.get()), rows.size() * dim);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      decode_row(table.view(), rows[k], values.subspan(k * dim, dim));
    }
  }
  // One run of rows encoded at a time into one reused buffer.
  std::vector<double> run_values;
  std::vector<double> run_table;  // the run's table values, when not decoded above
  for (std::int64_t offset : offsets) {
    if (give_up(offsets)) return std::nullopt;
    const std::vector<std::int64_t> at = held_convention_rows(rows, offset, convention, held);
    if (std::any_of(at.begin(), at.end(), [&](std::int64_t r) {
          const std::int64_t p = position_of_row(convention, r);
          return r < 0 || p <= -max_exact_position || p >= max_exact_position;
        })) {
      continue;
    }
    Scored s{0.0, 0.0, offset};
    visit_encoding_runs(encoder, table.cols, at, run_values, [&](std::size_t first, std::span<const double> expected) {
      const double* table_values = values.empty() ? decoded(table, rows, first, expected.size() / dim, run_table)
                                                  : values.data() + first * dim;
      for (std::size_t e = 0; e < expected.size(); ++e) {
        const double difference = table_values[e] - expected[e];
        if (!std::isfinite(difference)) continue;  // reported on their own
        s.squares += difference * difference;
        s.largest = std::max(s.largest, std::fabs(difference));
      }
    });
    scored.push_back(s);
  }
  if (scored.empty()) return std::nullopt;
  const double ulp_of_one = std::ldexp(1.0, -format_of(format).precision);
  OffsetFit fit;
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    return a.largest != b.largest ? a.largest < b.largest : a.offset < b.offset;
  });
  if (scored[0].largest <= 2.0 * ulp_of_one) {
    fit.row_offset = scored[0].offset;
    fit.error = scored[0].largest;
    fit.within_rounding = true;
    if (scored.size() > 1) {
      fit.rival = scored[1].offset;
      fit.ambiguous = scored[1].largest <= std::max(1.5 * scored[0].largest, ulp_of_one);
    }
    return fit;
  }
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    return a.squares != b.squares ? a.squares < b.squares : a.offset < b.offset;
  });
  fit.row_offset = scored[0].offset;
  fit.error = scored[0].largest;
  if (scored.size() > 1) {
    fit.rival = scored[1].offset;
    const double entries = static_cast<double>(rows.size() * static_cast<std::size_t>(table.cols));
    const double best_rms = std::sqrt(scored[0].squares / entries);
    const double rival_rms = std::sqrt(scored[1].squares / entries);
    fit.ambiguous = rival_rms <= std::max(likelihood_margin * best_rms, ulp_of_one);
  }
  return fit;
}

}  // namespace

std::optional<OffsetFit> find_row_offset(const Table& table, const Convention& convention, const Structure& structure,
                                         const std::vector<std::int64_t>& live_rows, FormatId format,
                                         std::optional<std::int64_t> fixed, const PositionSteps* steps,
                                         const ErrorLimit& give_up_above) {
  if (structure.pairs.empty() || live_rows.empty()) return std::nullopt;
  const FastEncoder encoder(convention, table.cols);  // one plan for every offset compared
  const Ladder ladder = ladder_of(convention, table.cols, structure);
  // Positions lie in (-2^24, 2^24): negative ones are relative encodings'
  // (a table whose rows run down is searched reversed, detection.cpp).
  const std::int64_t shift = convention.position_offset;
  const std::int64_t max_offset = max_exact_position - shift - table.rows;
  const std::int64_t min_offset = std::max<std::int64_t>(0, 1 - max_exact_position - shift);
  if (max_offset < min_offset) return std::nullopt;

  // Candidates from the first live row.
  const std::int64_t first = live_rows.front();
  const std::vector<double> first_angles = angles_of(table, first, ladder);
  std::map<std::int64_t, double> best;  // offset -> first-row score
  const auto consider = [&](std::int64_t offset) {
    if (offset < min_offset || offset > max_offset) return;
    best[offset] = row_score(first_angles, ladder, first + offset + shift);
  };
  if (fixed) {
    consider(*fixed);
  } else if (steps && !steps->first_positions.empty()) {
    // The steps of the rounded positions pin row 0 up to a repeat of the
    // pattern; the encoding at the rounded positions chooses among those.
    std::vector<std::int64_t> offsets;
    for (std::int64_t p0 : steps->first_positions) {
      const std::int64_t offset = p0 - shift;
      if (offset >= min_offset && offset <= max_offset) offsets.push_back(offset);
    }
    if (!offsets.empty()) {
      GiveUp give_up(table, encoder, convention, live_rows, steps->format, give_up_above);
      return closest_offset(table, encoder, convention, live_rows, offsets, format, steps->format, give_up);
    }
  } else if (std::isfinite(first_angles[0])) {
    const double phase = first_angles[0] < 0 ? first_angles[0] + two_pi : first_angles[0];
    const double top_position = static_cast<double>(first + max_offset + shift);
    const double bottom_position = static_cast<double>(first + min_offset + shift);
    // The turns of the slowest frequency over the positions allowed, from
    // one below the lowest: in a noisy table (a drifted one) the angle of a
    // row near position 0 can come out just below 2 pi instead of just above 0.
    const auto lowest_turn = static_cast<std::int64_t>(std::floor(bottom_position * ladder.w[0] / two_pi)) - 1;
    const auto count = std::min<std::int64_t>(
        static_cast<std::int64_t>(top_position * ladder.w[0] / two_pi) + 1 - lowest_turn, max_candidates);
    const std::vector<double> walked = walked_positions(first_angles, ladder, phase, lowest_turn, count);
    std::vector<std::pair<double, std::int64_t>> scored;
    for (std::int64_t k = lowest_turn; k < lowest_turn + count; ++k) {
      const auto position = static_cast<std::int64_t>(std::llround(walked[static_cast<std::size_t>(k - lowest_turn)]));
      const std::int64_t offset = position - first - shift;
      if (offset < min_offset || offset > max_offset) continue;
      scored.emplace_back(row_score(first_angles, ladder, position), offset);
    }
    std::sort(scored.begin(), scored.end());
    // Narrow tables have many near-fits among the candidates: keep more.
    const std::size_t kept = std::clamp<std::size_t>(static_cast<std::size_t>(2048 / table.cols), 4, 32);
    for (std::size_t k = 0; k < scored.size() && best.size() < kept * 5; ++k) {
      for (std::int64_t step = -2; step <= 2; ++step) consider(scored[k].second + step);
    }
  }
  if (best.empty()) return std::nullopt;
  std::vector<std::int64_t> kept;
  for (const auto& [offset, ignored] : best) kept.push_back(offset);
  // The offsets compared below are some of these: when every one is beyond
  // the caller's limit, the scores that choose among them need not be taken.
  GiveUp give_up(table, encoder, convention, live_rows, std::nullopt, give_up_above);
  if (give_up(kept)) return std::nullopt;

  // The kept offsets are scored by their angles on rows spread over the
  // table; those whose score is within the format's noise of the best
  // (angles off by an ULP of 1, 2^(1-p) rad, score 1 - cos ~ 2^(1-2p) per
  // entry) are compared with the encoding itself (pecheck's fast float64
  // rows) by their likelihood.
  const std::vector<std::int64_t> rows = spread_sample(live_rows, scored_rows);
  // Row after row in one buffer per thread, kept from search to search: the
  // 256 KiB of 64 rows of 512 angles, fresh, cost 64 page faults (~1 ms here).
  thread_local std::vector<double> angle_buffer;
  angle_buffer.resize(std::max(angle_buffer.size(), rows.size() * ladder.w.size()));
  const std::span<double> angles(angle_buffer.data(), rows.size() * ladder.w.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    angles_of(table, rows[k], ladder, angles.subspan(k * ladder.w.size(), ladder.w.size()));
  }
  const double noise =
      std::ldexp(1.0, 2 - 2 * format_of(format).precision) * static_cast<double>(rows.size() * ladder.w.size());
  const std::optional<std::vector<std::pair<double, std::int64_t>>> totals =
      kept_totals(best, angles, ladder, rows, shift, noise, [&] { return give_up(kept); });
  if (!totals) return std::nullopt;
  std::vector<std::int64_t> offsets;
  for (const auto& [total, offset] : *totals) {
    if (!offsets.empty() && total > 2.0 * totals->front().first + noise) break;
    offsets.push_back(offset);
  }
  return closest_offset(table, encoder, convention, live_rows, offsets, format, std::nullopt, give_up);
}

}  // namespace pecheck::validate
