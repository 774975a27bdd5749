// The runs train what the subject's embedding operation computes: a fault
// of the operation changes the token table's multiplier, a correct subject
// gives its rounded sqrt(d). No training here (the training fault matrix
// test shows the checks failing; it takes minutes).
#include "pecheck/training/token_multiplier.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/training/experiment.hpp"

namespace pecheck::training {
namespace {

std::shared_ptr<const Subject> fast() { return std::shared_ptr<const Subject>(make_fast_subject()); }

double paper_multiplier(const Subject& subject) {
  return make_spec(subject, Task::reverse, Norm::post_ln, configuration("paper"), standard_plan().sizes, 1).scale;
}

TEST(TokenMultiplier, aCorrectSubjectMultipliesBySqrtDRoundedAndUnscaledBy1) {
  const auto subject = fast();
  const Sizes sizes = standard_plan().sizes;
  const double s = subject->embedding_scale(sizes.dim, FormatId::float32);
  EXPECT_EQ(s, std::sqrt(double(sizes.dim)));  // d = 64: 8 exactly
  EXPECT_EQ(paper_multiplier(*subject), s);
  EXPECT_EQ(make_spec(*subject, Task::sort, Norm::pre_ln, configuration("no-scale"), sizes, 1).scale, 1.0);
  // Concatenated: sqrt(d/2) rounded to float32, measured from concat_embeddings.
  const TokenMultiplier half = measure_token_multiplier(*subject, sizes.dim / 2, sizes.dim / 2,
                                                        subject->embedding_scale(sizes.dim / 2, FormatId::float32));
  EXPECT_EQ(half.value, double(static_cast<float>(std::sqrt(double(sizes.dim / 2)))));
  EXPECT_EQ(half.operation, "concat_embeddings");
  EXPECT_EQ(make_spec(*subject, Task::reverse, Norm::post_ln, configuration("concat"), sizes, 1).scale, half.value);
}

// What each fault of the operation makes the paper's configuration train
// with, against the multiplier its description says (fault_matrix.cpp).
TEST(TokenMultiplier, eachScaleFaultChangesWhatIsTrained) {
  const double s = fast()->embedding_scale(standard_plan().sizes.dim, FormatId::float32);
  // 1/8 and 64 are exact in float32: no rounding between the fault and the measurement.
  EXPECT_EQ(paper_multiplier(*properties::make_scale_divided_subject(fast())), 1.0 / s);
  EXPECT_EQ(paper_multiplier(*properties::make_scale_missing_subject(fast())), 1.0);
  EXPECT_EQ(paper_multiplier(*properties::make_scale_applied_twice_subject(fast())), s * s);
  EXPECT_EQ(paper_multiplier(*properties::make_embedding_dropped_subject(fast())), 0.0);
}

// An operation that is not a multiplication cannot be trained as one: the
// run refuses it rather than train something else under the subject's name.
class OffsetAdded final : public ForwardingSubject {
 public:
  using ForwardingSubject::ForwardingSubject;
  Table add_embeddings(const EmbeddingInput& input, FormatId format) const override {
    Table out = inner().add_embeddings(input, format);
    for (std::int64_t k = 0; k < out.size(); ++k) out.set_flat(k, out.flat(k) + 0.25);
    return out;
  }
};

TEST(TokenMultiplier, anOperationThatIsNotAMultiplicationIsRefused) {
  const OffsetAdded offset(fast(), "offset");
  EXPECT_THROW(paper_multiplier(offset), SubjectError);
  // The concatenation with its halves exchanged puts the encoding first.
  const auto reversed = properties::make_concat_reversed_subject(fast());
  EXPECT_THROW(make_spec(*reversed, Task::reverse, Norm::post_ln, configuration("concat"), standard_plan().sizes, 1),
               SubjectError);
}

}  // namespace
}  // namespace pecheck::training
