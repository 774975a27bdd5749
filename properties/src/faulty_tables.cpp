// More deliberately faulty encoding tables and scales: small, local mistakes
// (one pair, one row, one entry in a million, a position off by one, the
// layout or the scale's rounding wrong) that a suite which only catches gross
// faults would let through. Each is caught by the checks the fault matrix
// (fault_matrix.cpp) names for it.
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>

#include "check_support.hpp"
#include "pecheck/properties/faulty_subjects.hpp"

namespace pecheck::properties {

namespace {

std::string fault_name(const std::string& name) { return "fault:" + name; }

// The pair a one-pair fault damages: the middle frequency, neither the fastest nor the slowest, so neither the
// first rows nor the slow columns alone give it away.
const FrequencyColumns* middle_pair(const std::vector<FrequencyColumns>& pairs) {
  return pairs.empty() ? nullptr : &pairs[pairs.size() / 2];
}

class OnePairSwapped final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Table table = inner().encoding_table(convention, request, format);
    const std::vector<FrequencyColumns> pairs = paired_frequencies(convention, request.dim);
    if (const FrequencyColumns* pair = middle_pair(pairs)) {
      for (std::int64_t r = 0; r < table.rows; ++r) {
        const double sin_value = table.at(r, pair->sin_column);
        table.set(r, pair->sin_column, table.at(r, pair->cos_column));
        table.set(r, pair->cos_column, sin_value);
      }
    }
    return table;
  }
};

// The other layout family: interleaved where halves are expected, and sin-cos
// halves where interleaved is (tensorflow/text issue 1122).
class WrongLayout final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Convention wrong = convention;
    wrong.layout = convention.layout == Layout::interleaved ? Layout::sin_cos_halves : Layout::interleaved;
    return inner().encoding_table(wrong, request, format);
  }
};

// Row r holds position r + 1: the first real position written to row 0
// (fairseq's padding_idx + 1 start applied where it does not belong).
class OffsetByOne final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Convention shifted = convention;
    shifted.position_offset += 1;
    // The last position below 2^24 has no successor the inner subject serves.
    if (position_of_row(shifted, request.row_offset + request.rows - 1) >= max_exact_position) {
      shifted.position_offset -= 2;  // off by one the other way, still wrong
    }
    return inner().encoding_table(shifted, request, format);
  }
};

// The row holding position 1 (the first non-trivial row every sweep visits)
// stored with its signs flipped: a single bad row in an otherwise correct
// cache, as a wrong write into a shared buffer leaves.
class CorruptedRow final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Table table = inner().encoding_table(convention, request, format);
    for (std::int64_t r = 0; r < table.rows; ++r) {
      if (is_zero_row(convention, request.row_offset + r)) continue;
      if (position_of_row(convention, request.row_offset + r) != 1) continue;
      for (std::int64_t c = 0; c < table.cols; ++c) table.set(r, c, -table.at(r, c));
    }
    return table;
  }
};

// One entry in a million, chosen by a hash of (position, column) so the same
// entry is damaged whatever slice is asked for, moved to the next value up in
// the format: 1 ULP, the smallest damage a stored value can take.
class OneUlpNoise final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    Table table = inner().encoding_table(convention, request, format);
    const Format& f = format_of(format);
    for (std::int64_t r = 0; r < table.rows; ++r) {
      const auto position = static_cast<std::uint64_t>(position_of_row(convention, request.row_offset + r));
      for (std::int64_t c = 0; c < table.cols; ++c) {
        if (mix((position + 1) * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(c)) % 1'000'000 != 0) continue;
        const double v = table.at(r, c);
        table.set(r, c, next_away_from_zero(v, f));
      }
    }
    return table;
  }

 private:
  // SplitMix64's finaliser: every input bit moves every output bit.
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // The format's next value away from zero (1 ULP of the stored value's binade).
  static double next_away_from_zero(double v, const Format& f) {
    const std::uint64_t bits = to_bits(v, f);
    return from_bits(bits + 1, f);  // sign-magnitude: +1 moves away from zero for either sign
  }
};

// sqrt(d) rounded to bfloat16 whatever the format (Gemma's activation-dtype
// scale carried into a float32 model): bf16(sqrt(3072)) = 55.5.
class ScaleRoundedBfloat16 final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  double embedding_scale(std::int64_t d, FormatId format) const override {
    const double bf16 = round_to_format(std::sqrt(static_cast<double>(d)), format_of(FormatId::bfloat16));
    return round_to_format(bf16, format_of(format));
  }
};

template <typename Fault>
std::unique_ptr<Subject> make(std::shared_ptr<const Subject> inner, const std::string& name) {
  return std::make_unique<Fault>(std::move(inner), fault_name(name));
}

}  // namespace

std::unique_ptr<Subject> make_one_pair_swapped_subject(std::shared_ptr<const Subject> inner) {
  return make<OnePairSwapped>(std::move(inner), "one-pair-swapped");
}
std::unique_ptr<Subject> make_wrong_layout_subject(std::shared_ptr<const Subject> inner) {
  return make<WrongLayout>(std::move(inner), "wrong-layout");
}
std::unique_ptr<Subject> make_offset_by_one_subject(std::shared_ptr<const Subject> inner) {
  return make<OffsetByOne>(std::move(inner), "offset-by-one");
}
std::unique_ptr<Subject> make_corrupted_row_subject(std::shared_ptr<const Subject> inner) {
  return make<CorruptedRow>(std::move(inner), "corrupted-row");
}
std::unique_ptr<Subject> make_one_ulp_noise_subject(std::shared_ptr<const Subject> inner) {
  return make<OneUlpNoise>(std::move(inner), "one-ulp-noise");
}
std::unique_ptr<Subject> make_scale_rounded_bfloat16_subject(std::shared_ptr<const Subject> inner) {
  return make<ScaleRoundedBfloat16>(std::move(inner), "scale-rounded-bfloat16");
}

}  // namespace pecheck::properties
