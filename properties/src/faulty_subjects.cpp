#include "pecheck/properties/faulty_subjects.hpp"

#include <algorithm>
#include <cmath>

#include "check_support.hpp"
#include "pecheck/properties/generators.hpp"

namespace pecheck::properties {

namespace {

std::string fault_name(const std::string& name) { return "fault:" + name; }

// The request as a SubjectError when impossible, as any subject reports it.
void require_valid(const Convention& convention, const TableRequest& request) {
  try {
    check_request(convention, request);
  } catch (const ConventionError& e) {
    throw SubjectError(e.what());
  }
}

class SinCosSwapped final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Table table = inner().encoding_table(convention, request, format);
    for (const FrequencyColumns& pair : paired_frequencies(convention, request.dim)) {
      for (std::int64_t r = 0; r < table.rows; ++r) {
        const double sin_value = table.at(r, pair.sin_column);
        table.set(r, pair.sin_column, table.at(r, pair.cos_column));
        table.set(r, pair.cos_column, sin_value);
      }
    }
    return table;
  }
};

class Float32Angles final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    require_valid(convention, request);
    const std::vector<ColumnSpec> columns = column_layout(convention, request.dim);
    std::vector<float> frequency(columns.size(), 0.0f);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].kind != ColumnKind::zero) {
        frequency[c] = static_cast<float>(frequency_value(convention, request.dim, columns[c].frequency_index));
      }
    }
    const Format& f = format_of(format);
    Table table = make_table(request.rows, request.dim, format);
    for (std::int64_t r = 0; r < request.rows; ++r) {
      const std::int64_t row = request.row_offset + r;
      if (is_zero_row(convention, row)) continue;
      const auto position = static_cast<float>(position_of_row(convention, row));
      for (std::int64_t c = 0; c < request.dim; ++c) {
        const auto k = static_cast<std::size_t>(c);
        const float angle = position * frequency[k];  // rounded to float32
        const float value = columns[k].kind == ColumnKind::sin   ? std::sin(angle)
                            : columns[k].kind == ColumnKind::cos ? std::cos(angle)
                                                                 : 0.0f;
        table.set(r, c, round_to_format(static_cast<double>(value), f));
      }
    }
    return table;
  }
};

class TimescaleRule final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Convention wrong = convention;
    if (wrong.frequency.kind == FrequencyRuleKind::paper) {
      wrong.frequency = FrequencyRule{FrequencyRuleKind::timescale, convention.frequency.base, 1.0,
                                      convention.frequency.base};
    }
    return inner().encoding_table(wrong, request, format);
  }
};

class UnzeroedPadding final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Convention unzeroed = convention;
    unzeroed.zero_rows.clear();
    return inner().encoding_table(unzeroed, request, format);
  }
};

// Positions held in a 16-bit format (bfloat16: exact to 256; float16: to
// 2048, and 65504 is its largest finite value).
class LowPrecisionPositions final : public ForwardingSubject {
 public:
  LowPrecisionPositions(std::shared_ptr<const Subject> inner, std::string name, FormatId positions)
      : ForwardingSubject(std::move(inner), std::move(name)), positions_(positions) {}
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    require_valid(convention, request);
    Table table = make_table(request.rows, request.dim, format);
    if (request.rows == 0) return table;
    // Position p becomes fmt(p); a position that rounds up to 2^24 (or
    // overflows float16) is kept at 2^24 - 1, the last one the inner subject serves.
    const Format& low = format_of(positions_);
    const auto rounded = [&](std::int64_t row) {
      const double held = round_to_format(static_cast<double>(position_of_row(convention, row)), low);
      if (!std::isfinite(held)) return max_exact_position - 1;
      const auto p = static_cast<std::int64_t>(held);
      return std::min(p, max_exact_position - 1);
    };
    const std::int64_t first = rounded(request.row_offset);
    const std::int64_t last = rounded(request.row_offset + request.rows - 1);
    Convention plain = convention;  // row r holds position r, nothing zeroed
    plain.position_offset = 0;
    plain.zero_rows.clear();
    const Table source = inner().encoding_table(plain, TableRequest{last - first + 1, request.dim, first}, format);
    for (std::int64_t r = 0; r < request.rows; ++r) {
      if (is_zero_row(convention, request.row_offset + r)) continue;
      const std::int64_t from = rounded(request.row_offset + r) - first;
      for (std::int64_t c = 0; c < request.dim; ++c) table.set(r, c, source.at(from, c));
    }
    return table;
  }

 private:
  FormatId positions_;
};

class Float16Storage final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Table table = inner().encoding_table(convention, request, FormatId::float16);
    // The float16 values rounded to the format: exact except into bfloat16.
    table = convert_table(table, format);
    return table;
  }
};

class RandomInit final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    require_valid(convention, request);
    // The same request gives the same table.
    const auto seed = static_cast<std::uint64_t>(request.row_offset) * 0x100000001b3ULL ^ static_cast<std::uint64_t>(request.dim);
    return gen::gaussian_table(seed, request.rows, request.dim, 1.0, format);
  }
};

template <typename Fault>
std::unique_ptr<Subject> make(std::shared_ptr<const Subject> inner, const std::string& name) {
  return std::make_unique<Fault>(std::move(inner), fault_name(name));
}

}  // namespace

std::unique_ptr<Subject> make_sin_cos_swapped_subject(std::shared_ptr<const Subject> inner) {
  return make<SinCosSwapped>(std::move(inner), "sin-cos-swapped");
}
std::unique_ptr<Subject> make_float32_angle_subject(std::shared_ptr<const Subject> inner) {
  return make<Float32Angles>(std::move(inner), "float32-angles");
}
std::unique_ptr<Subject> make_timescale_rule_subject(std::shared_ptr<const Subject> inner) {
  return make<TimescaleRule>(std::move(inner), "timescale-rule");
}
std::unique_ptr<Subject> make_unzeroed_padding_subject(std::shared_ptr<const Subject> inner) {
  return make<UnzeroedPadding>(std::move(inner), "unzeroed-padding");
}
std::unique_ptr<Subject> make_bfloat16_position_subject(std::shared_ptr<const Subject> inner) {
  return std::make_unique<LowPrecisionPositions>(std::move(inner), fault_name("bfloat16-positions"), FormatId::bfloat16);
}
std::unique_ptr<Subject> make_float16_position_subject(std::shared_ptr<const Subject> inner) {
  return std::make_unique<LowPrecisionPositions>(std::move(inner), fault_name("float16-positions"), FormatId::float16);
}
std::unique_ptr<Subject> make_float16_storage_subject(std::shared_ptr<const Subject> inner) {
  return make<Float16Storage>(std::move(inner), "float16-storage");
}
std::unique_ptr<Subject> make_random_init_subject(std::shared_ptr<const Subject> inner) {
  return make<RandomInit>(std::move(inner), "random-init");
}

}  // namespace pecheck::properties
