// Deliberately faulty embedding operations: each is a mistake seen in real
// code (CONVENTIONS.md fault 7: sqrt(d) missing, applied twice, divided
// instead of multiplied, rounded wrongly) or one a concatenation invites (the
// zero block on the wrong side, off by one, the halves exchanged).
#include <cmath>
#include <memory>

#include "pecheck/properties/faulty_subjects.hpp"

namespace pecheck::properties {

namespace {

std::string fault_name(const std::string& name) { return "fault:" + name; }

// E with every value v replaced by round(op(v)) in the format.
template <typename Op>
Table transformed(const Table& table, FormatId format, Op op) {
  Table out = make_table(table.rows, table.cols, format);
  for (std::int64_t k = 0; k < out.size(); ++k) out.set_flat(k, op(table.flat(k)));  // set rounds to the format
  return out;
}

// The faults of the scale live in how the embeddings are scaled, for the sum
// and the concatenation alike; `prepare` returns the table and scale the
// inner, correct subject then uses.
class ScaleFault : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table add_embeddings(const EmbeddingInput& input, FormatId format) const override {
    Table table;
    const EmbeddingInput changed = prepare(input, format, table);
    return inner().add_embeddings(changed, format);
  }
  Table concat_embeddings(const EmbeddingInput& input, FormatId format) const override {
    Table table;
    const EmbeddingInput changed = prepare(input, format, table);
    return inner().concat_embeddings(changed, format);
  }

 protected:
  virtual EmbeddingInput prepare(const EmbeddingInput& input, FormatId format, Table& storage) const = 0;
  static void require_embeddings(const EmbeddingInput& input) {
    if (input.embeddings == nullptr) throw SubjectError("no embedding table given");
  }
};

class ScaleDivided final : public ScaleFault {
 public:
  using ScaleFault::ScaleFault;

 protected:
  EmbeddingInput prepare(const EmbeddingInput& input, FormatId format, Table& storage) const override {
    require_embeddings(input);
    const double s = input.scale;
    storage = transformed(*input.embeddings, format, [s](double v) { return v / s; });
    EmbeddingInput changed = input;
    changed.embeddings = &storage;
    changed.scale = 1.0;
    return changed;
  }
};

class ScaleMissing final : public ScaleFault {
 public:
  using ScaleFault::ScaleFault;

 protected:
  EmbeddingInput prepare(const EmbeddingInput& input, FormatId, Table&) const override {
    EmbeddingInput changed = input;
    changed.scale = 1.0;
    return changed;
  }
};

class ScaleTwice final : public ScaleFault {
 public:
  using ScaleFault::ScaleFault;

 protected:
  EmbeddingInput prepare(const EmbeddingInput& input, FormatId format, Table& storage) const override {
    require_embeddings(input);
    const double s = input.scale;
    storage = transformed(*input.embeddings, format, [s](double v) { return s * v; });
    EmbeddingInput changed = input;
    changed.embeddings = &storage;  // and the inner subject multiplies by s again
    return changed;
  }
};

class ScaleTruncated final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  double embedding_scale(std::int64_t d, FormatId format) const override {
    const double correct = inner().embedding_scale(d, format);
    const double exact = std::sqrt(static_cast<double>(d));  // below 2^53: a double closer than any format's half-ulp
    if (correct <= exact) return correct;
    const Format& f = format_of(format);
    return from_bits(to_bits(correct, f) - 1, f);  // the value below: sqrt(d) rounded toward zero
  }
};

class EmbeddingDropped final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table add_embeddings(const EmbeddingInput& input, FormatId format) const override {
    if (input.embeddings == nullptr) throw SubjectError("no embedding table given");
    const Table zeros = make_table(input.embeddings->rows, input.embeddings->cols, format);
    EmbeddingInput changed = input;
    changed.embeddings = &zeros;
    return inner().add_embeddings(changed, format);
  }
};

class PaddingWrongSide final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table zero_pad(const Table& table, std::int64_t left, std::int64_t right) const override {
    return inner().zero_pad(table, right, left);
  }
};

class PaddingOffByOne final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table zero_pad(const Table& table, std::int64_t left, std::int64_t right) const override {
    if (right > 0) return inner().zero_pad(table, left + 1, right - 1);
    if (left > 0) return inner().zero_pad(table, left - 1, right + 1);
    return inner().zero_pad(table, left, right);
  }
};

class ConcatReversed final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table concat_embeddings(const EmbeddingInput& input, FormatId format) const override {
    const Table right_order = inner().concat_embeddings(input, format);
    if (input.embeddings == nullptr) return right_order;
    const std::int64_t d_t = input.embeddings->cols;
    Table out = right_order;
    const std::int64_t d_p = out.cols - d_t;
    for (std::int64_t r = 0; r < out.rows; ++r) {
      for (std::int64_t c = 0; c < d_p; ++c) out.set(r, c, right_order.at(r, d_t + c));
      for (std::int64_t c = 0; c < d_t; ++c) out.set(r, d_p + c, right_order.at(r, c));
    }
    return out;
  }
};

template <typename Fault>
std::unique_ptr<Subject> make(std::shared_ptr<const Subject> inner, const std::string& name) {
  return std::make_unique<Fault>(std::move(inner), fault_name(name));
}

}  // namespace

std::unique_ptr<Subject> make_scale_divided_subject(std::shared_ptr<const Subject> inner) {
  return make<ScaleDivided>(std::move(inner), "scale-divided");
}
std::unique_ptr<Subject> make_scale_missing_subject(std::shared_ptr<const Subject> inner) {
  return make<ScaleMissing>(std::move(inner), "scale-missing");
}
std::unique_ptr<Subject> make_scale_applied_twice_subject(std::shared_ptr<const Subject> inner) {
  return make<ScaleTwice>(std::move(inner), "scale-applied-twice");
}
std::unique_ptr<Subject> make_scale_truncated_subject(std::shared_ptr<const Subject> inner) {
  return make<ScaleTruncated>(std::move(inner), "scale-truncated");
}
std::unique_ptr<Subject> make_embedding_dropped_subject(std::shared_ptr<const Subject> inner) {
  return make<EmbeddingDropped>(std::move(inner), "embedding-dropped");
}
std::unique_ptr<Subject> make_padding_wrong_side_subject(std::shared_ptr<const Subject> inner) {
  return make<PaddingWrongSide>(std::move(inner), "padding-wrong-side");
}
std::unique_ptr<Subject> make_padding_off_by_one_subject(std::shared_ptr<const Subject> inner) {
  return make<PaddingOffByOne>(std::move(inner), "padding-off-by-one");
}
std::unique_ptr<Subject> make_concat_reversed_subject(std::shared_ptr<const Subject> inner) {
  return make<ConcatReversed>(std::move(inner), "concat-reversed");
}

}  // namespace pecheck::properties
