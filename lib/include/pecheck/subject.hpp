// A subject is anything that produces what the checks examine: pecheck's fast
// implementation, the reference, a table file, an external command, a C++
// callback, or a deliberately faulty implementation that proves a check can
// fail. Checks are written once against this interface.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/table.hpp"

namespace pecheck {

// A subject that cannot produce what was asked (a crashed command, a file
// that does not cover the rows, an operation it does not offer). Checks
// report it as a failure with this message, never as a crash of pecheck.
class SubjectError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The input layer, x[j] = scale * E[token_ids[j]] + PE[positions[j]], every
// operation rounded to the format.
struct EmbeddingInput {
  const Table* embeddings = nullptr;  // vocabulary x d
  const Table* encoding = nullptr;    // positions x d (a table from the same subject)
  std::span<const std::int64_t> token_ids;
  std::span<const std::int64_t> positions;  // rows of `encoding`
  double scale = 1.0;                       // already rounded to the format
};

// What the subject offers. A check that needs an operation the subject does
// not offer is reported as not applicable, never as held.
struct SubjectCapabilities {
  bool any_convention = true;          // false: only `fixed_convention`
  std::optional<Convention> fixed_convention;
  std::optional<TableRequest> fixed_request;  // a file: the rows it holds
  std::vector<FormatId> formats = {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16};
  bool embedding_operations = false;   // embedding_scale, add_embeddings, concat_embeddings, zero_pad
  bool rotary_caches = false;          // rotary_cache
  // A rotary cache file: the one convention and the rows and format it holds
  // (the rotary checks then sweep only these).
  std::optional<RotaryConvention> fixed_rotary_convention;
  std::optional<RotaryCacheRequest> fixed_rotary_request;
  // A rotary cache judged against a computation model (pecheck validate found
  // it within budget of the model, not of the exact encoding): the rotary
  // checks hold it to that model's bounds instead of the exact encoding's.
  std::optional<ComputationModel> rotary_model;
  // A model's limits (validate --exec --max-position, --dim): checks ask for
  // no position at or past max_position and no width past max_dim.
  std::optional<std::int64_t> max_position;
  std::optional<std::int64_t> max_dim;
};

class Subject {
 public:
  virtual ~Subject() = default;

  virtual std::string name() const = 0;
  virtual SubjectCapabilities capabilities() const = 0;

  // The convention's table for the request in the format. Throws SubjectError
  // when the subject cannot produce it.
  virtual Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const = 0;

  // The embedding scale for width d as the subject computes it in the format
  // (sqrt(d) rounded, in a correct subject).
  virtual double embedding_scale(std::int64_t d, FormatId format) const;
  // scale * E[t] + PE[p] row by row, rounded to the format.
  virtual Table add_embeddings(const EmbeddingInput& input, FormatId format) const;
  // [E[t], PE[p]] row by row (widths add).
  virtual Table concat_embeddings(const EmbeddingInput& input, FormatId format) const;
  // The table with `left` zero columns before and `right` after each row.
  virtual Table zero_pad(const Table& table, std::int64_t left, std::int64_t right) const;
  // The rotary cos and sin caches of a convention (rotary_cache.hpp).
  virtual RotaryCache rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) const;
};

// pecheck's own fast implementation, with the embedding operations.
std::unique_ptr<Subject> make_fast_subject();

// A subject that forwards everything to another and lets a test replace one
// piece: the base for fault-injected subjects and adapters.
class ForwardingSubject : public Subject {
 public:
  explicit ForwardingSubject(std::shared_ptr<const Subject> inner, std::string name)
      : inner_(std::move(inner)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  SubjectCapabilities capabilities() const override { return inner_->capabilities(); }
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    return inner_->encoding_table(convention, request, format);
  }
  double embedding_scale(std::int64_t d, FormatId format) const override {
    return inner_->embedding_scale(d, format);
  }
  Table add_embeddings(const EmbeddingInput& input, FormatId format) const override {
    return inner_->add_embeddings(input, format);
  }
  Table concat_embeddings(const EmbeddingInput& input, FormatId format) const override {
    return inner_->concat_embeddings(input, format);
  }
  Table zero_pad(const Table& table, std::int64_t left, std::int64_t right) const override {
    return inner_->zero_pad(table, left, right);
  }
  RotaryCache rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) const override {
    return inner_->rotary_cache(convention, request);
  }

 protected:
  const Subject& inner() const { return *inner_; }

 private:
  std::shared_ptr<const Subject> inner_;
  std::string name_;
};

}  // namespace pecheck
