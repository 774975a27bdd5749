// A rotated output read from files (OUT with its IN and POS), as a kernel
// that holds one rotation: the checks on rotated outputs ask it for exactly
// its rows (pecheck validate OUT --input IN --positions POS --output-dir).
#include <algorithm>
#include <utility>

#include "pecheck/rotary_kernel.hpp"

namespace pecheck {

namespace {

class RotatedFileSubject final : public Subject, public RotaryKernel {
 public:
  RotatedFileSubject(std::string name, HeldRotation held, TableView output)
      : name_(std::move(name)), held_(std::move(held)), output_(output) {}

  std::string name() const override { return name_; }

  SubjectCapabilities capabilities() const override {
    SubjectCapabilities capabilities;
    capabilities.any_convention = false;
    capabilities.formats = {held_.format};
    return capabilities;
  }

  Table encoding_table(const Convention&, const TableRequest&, FormatId) const override {
    throw SubjectError(name_ + " holds a rotated output, not an additive encoding table");
  }

  Table rotate(const RotaryConvention&, const TableView& input, std::span<const std::int64_t> positions,
               FormatId) const override {
    // The file answers only for what it holds: its own input rows at its own positions.
    const bool same_rows =
        input.data() == held_.input.data() && input.rows() == held_.input.rows() && input.cols() == held_.input.cols();
    if (!same_rows || !std::equal(positions.begin(), positions.end(), held_.positions.begin(), held_.positions.end())) {
      throw SubjectError(name_ + " holds the rotation of its own input at its own positions only");
    }
    return convert_table(output_, output_.format());
  }

  std::optional<HeldRotation> held_rotation() const override { return held_; }

 private:
  std::string name_;
  HeldRotation held_;
  TableView output_;
};

}  // namespace

std::unique_ptr<Subject> make_rotated_file_subject(std::string name, HeldRotation held, const TableView& output) {
  return std::make_unique<RotatedFileSubject>(std::move(name), std::move(held), output);
}

}  // namespace pecheck
