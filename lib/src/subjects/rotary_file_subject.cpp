// A rotary cache read from files, as a subject the rotary checks can ask for
// the rows it holds (pecheck validate --output-dir on a cos / sin pair).
#include <utility>

#include "pecheck/external_subjects.hpp"

namespace pecheck {

namespace {

class RotaryFileSubject final : public Subject {
 public:
  RotaryFileSubject(std::string name, Table cos, Table sin, RotaryConvention convention, std::int64_t first_position,
                    std::optional<ComputationModel> model)
      : name_(std::move(name)),
        cos_(std::move(cos)),
        sin_(std::move(sin)),
        convention_(std::move(convention)),
        first_position_(first_position),
        model_(std::move(model)) {}

  std::string name() const override { return name_; }

  SubjectCapabilities capabilities() const override {
    SubjectCapabilities capabilities;
    capabilities.any_convention = false;
    capabilities.formats = {cos_.format};
    capabilities.rotary_caches = true;
    capabilities.fixed_rotary_convention = convention_;
    capabilities.fixed_rotary_request = RotaryCacheRequest{first_position_, cos_.rows, cos_.format};
    capabilities.rotary_model = model_;
    return capabilities;
  }

  Table encoding_table(const Convention&, const TableRequest&, FormatId) const override {
    throw SubjectError("the files " + name_ + " hold a rotary cache, not an additive encoding table");
  }

  RotaryCache rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) const override {
    if (convention.name != convention_.name) {
      throw SubjectError("the files " + name_ + " hold rotary convention '" + convention_.name + "', not '" +
                         convention.name + "'");
    }
    if (request.format != cos_.format) {
      throw SubjectError("the files " + name_ + " hold " + std::string(format_of(cos_.format).name) + " values, not " +
                         std::string(format_of(request.format).name));
    }
    const std::int64_t first = request.first_position - first_position_;
    // rows is compared by subtraction: first + rows may pass INT64_MAX.
    if (first < 0 || request.rows < 0 || request.rows > cos_.rows - first) {
      throw SubjectError("the files " + name_ + " hold positions [" + std::to_string(first_position_) + ", " +
                         std::to_string(first_position_ + cos_.rows) + "); asked for " +
                         std::to_string(request.rows) + " rows from position " + std::to_string(request.first_position));
    }
    return {copy_table(cos_.view().row_block(first, request.rows)),
            copy_table(sin_.view().row_block(first, request.rows))};
  }

 private:
  std::string name_;
  Table cos_;
  Table sin_;
  RotaryConvention convention_;
  std::int64_t first_position_;
  std::optional<ComputationModel> model_;
};

}  // namespace

std::unique_ptr<Subject> make_rotary_file_subject(std::string name, Table cos, Table sin, RotaryConvention convention,
                                                  std::int64_t first_position, std::optional<ComputationModel> model) {
  return std::make_unique<RotaryFileSubject>(std::move(name), std::move(cos), std::move(sin), std::move(convention),
                                             first_position, std::move(model));
}

}  // namespace pecheck
