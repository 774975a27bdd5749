#include "encoding_plan.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "frequency_turns.hpp"
#include "pecheck/format.hpp"
#include "sincos_turns.hpp"

namespace pecheck {

namespace {

// How each output format stores a run of double results: rounded once, with
// a strided store.
template <class T>
struct StoreByCast {
  using Value = T;
  static void store(const double* values, std::int64_t count, T* dest, std::int64_t stride) {
    using Strided = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>, 0, Eigen::InnerStride<>>;
    Strided(dest, count, Eigen::InnerStride<>(stride)) =
        Eigen::Map<const Eigen::ArrayXd>(values, count).template cast<T>();
  }
  static T zero() { return T{0}; }
};

template <std::uint16_t (*round_to_bits)(double)>
struct StoreAsBits {
  using Value = std::uint16_t;
  static void store(const double* values, std::int64_t count, std::uint16_t* dest, std::int64_t stride) {
    for (std::int64_t i = 0; i < count; ++i) dest[i * stride] = round_to_bits(values[i]);
  }
  static std::uint16_t zero() { return 0; }
};

using StoreFloat16 = StoreAsBits<&round_to_float16_bits>;
using StoreBFloat16 = StoreAsBits<&round_to_bfloat16_bits>;

void check_output_size(std::size_t size, std::int64_t row_count, std::int64_t dim) {
  if (row_count < 0 || size != static_cast<std::size_t>(row_count * dim)) {
    throw std::invalid_argument("fast encoding: the output holds " + std::to_string(size) + " values, expected " +
                                std::to_string(row_count) + " rows x " + std::to_string(dim) + " columns");
  }
}

}  // namespace

std::vector<ColumnRun> column_runs(const std::vector<ColumnSpec>& layout) {
  std::vector<ColumnRun> runs;
  for (const ColumnKind kind : {ColumnKind::sin, ColumnKind::cos}) {
    std::vector<std::pair<std::int64_t, std::int64_t>> entries;  // (frequency, column)
    for (std::size_t c = 0; c < layout.size(); ++c) {
      if (layout[c].kind == kind) entries.emplace_back(layout[c].frequency_index, static_cast<std::int64_t>(c));
    }
    std::sort(entries.begin(), entries.end());
    std::size_t j = 0;
    while (j < entries.size()) {
      ColumnRun run{kind, entries[j].second, 1, entries[j].first, 1};
      const auto continues = [&](std::size_t k) {
        return entries[k].first == entries[k - 1].first + 1 &&
               entries[k].second - entries[k - 1].second == run.column_stride;
      };
      if (j + 1 < entries.size() && entries[j + 1].second > entries[j].second) {
        run.column_stride = entries[j + 1].second - entries[j].second;
      }
      std::size_t k = j + 1;
      while (k < entries.size() && continues(k)) ++k;
      run.count = static_cast<std::int64_t>(k - j);
      runs.push_back(run);
      j = k;
    }
  }
  return runs;
}

EncodingPlan::EncodingPlan(const Convention& convention, std::int64_t dim) : convention_(convention), dim_(dim) {
  const std::vector<ColumnSpec> layout = column_layout(convention, dim);  // checks dim
  runs_ = column_runs(layout);
  for (std::size_t c = 0; c < layout.size(); ++c) {
    if (layout[c].kind == ColumnKind::zero) zero_columns_.push_back(static_cast<std::int64_t>(c));
  }
  const std::int64_t frequencies = frequency_count(convention, dim);
  padded_frequencies_ = (frequencies + sincos_lanes - 1) / sincos_lanes * sincos_lanes;
  // Padding frequencies are zero: the kernel gives sin 0, cos 1 for them and
  // no run reads them.
  f1_.assign(static_cast<std::size_t>(padded_frequencies_), 0.0);
  f2_.assign(static_cast<std::size_t>(padded_frequencies_), 0.0);
  f3_.assign(static_cast<std::size_t>(padded_frequencies_), 0.0);
  for (std::int64_t i = 0; i < frequencies; ++i) {
    const TurnsSplit split =
        split_for_positions(frequency_in_turns(convention, frequency_term(convention, dim, i)));
    const auto at = static_cast<std::size_t>(i);
    f1_[at] = split.f1;
    f2_[at] = split.f2;
    f3_[at] = split.f3;
  }
}

template <class Store>
void EncodingPlan::fill(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                        typename Store::Value* out) const {
  std::vector<double> sin_values(static_cast<std::size_t>(padded_frequencies_));
  std::vector<double> cos_values(static_cast<std::size_t>(padded_frequencies_));
  for (std::int64_t r = 0; r < row_count; ++r) {
    typename Store::Value* row_out = out + r * dim_;
    const std::int64_t convention_row = first_row + r + row_offset;
    if (is_zero_row(convention_, convention_row)) {
      std::fill(row_out, row_out + dim_, Store::zero());
      continue;
    }
    sincos_turns(position_of_row(convention_, convention_row), f1_.data(), f2_.data(), f3_.data(),
                 padded_frequencies_, sin_values.data(), cos_values.data());
    for (const ColumnRun& run : runs_) {
      const std::vector<double>& values = run.kind == ColumnKind::sin ? sin_values : cos_values;
      Store::store(values.data() + run.first_frequency, run.count, row_out + run.first_column, run.column_stride);
    }
    for (const std::int64_t c : zero_columns_) row_out[c] = Store::zero();
  }
}

void EncodingPlan::fill_rows(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                             std::span<double> out) const {
  check_output_size(out.size(), row_count, dim_);
  fill<StoreByCast<double>>(first_row, row_count, row_offset, out.data());
}

void EncodingPlan::fill_rows(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                             std::span<float> out) const {
  check_output_size(out.size(), row_count, dim_);
  fill<StoreByCast<float>>(first_row, row_count, row_offset, out.data());
}

void EncodingPlan::fill_rows_float16(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                                     std::span<std::uint16_t> out) const {
  check_output_size(out.size(), row_count, dim_);
  fill<StoreFloat16>(first_row, row_count, row_offset, out.data());
}

void EncodingPlan::fill_rows_bfloat16(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                                      std::span<std::uint16_t> out) const {
  check_output_size(out.size(), row_count, dim_);
  fill<StoreBFloat16>(first_row, row_count, row_offset, out.data());
}

}  // namespace pecheck
