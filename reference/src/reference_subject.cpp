#include "pecheck/reference/reference_subject.hpp"

#include "pecheck/reference/reference.hpp"

namespace pecheck::reference {

namespace {

class ReferenceSubject final : public Subject {
 public:
  explicit ReferenceSubject(int threads) : threads_(threads) {}

  std::string name() const override { return "reference"; }

  SubjectCapabilities capabilities() const override { return SubjectCapabilities{}; }

  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    try {
      check_request(convention, request);
    } catch (const ConventionError& e) {
      // The subject contract: a request it cannot serve is a SubjectError.
      throw SubjectError(std::string("the reference cannot produce this table: ") + e.what());
    }
    return reference_table(convention, request, format, threads_, ExactValues::none).rounded;
  }

 private:
  int threads_;
};

}  // namespace

std::unique_ptr<Subject> make_reference_subject(int threads) { return std::make_unique<ReferenceSubject>(threads); }

}  // namespace pecheck::reference
