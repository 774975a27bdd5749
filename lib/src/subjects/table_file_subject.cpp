#include <algorithm>

#include "pecheck/external_subjects.hpp"

namespace pecheck {

namespace {

// A table read from a file: it holds one convention's rows at one width in
// one format, and serves exactly that (support::fetch_table cuts rows out).
class TableFileSubject final : public Subject {
 public:
  TableFileSubject(std::string name, Table table, Convention convention, std::int64_t row_offset)
      : name_(std::move(name)), table_(std::move(table)), convention_(std::move(convention)), row_offset_(row_offset) {}

  std::string name() const override { return name_; }

  SubjectCapabilities capabilities() const override {
    SubjectCapabilities capabilities;
    capabilities.any_convention = false;
    capabilities.fixed_convention = convention_;
    capabilities.fixed_request = TableRequest{table_.rows, table_.cols, row_offset_};
    capabilities.formats = {table_.format};
    return capabilities;
  }

  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    if (convention.name != convention_.name) {
      throw SubjectError("the file " + name_ + " holds convention '" + convention_.name + "', not '" + convention.name + "'");
    }
    if (format != table_.format) {
      throw SubjectError("the file " + name_ + " holds " + std::string(format_of(table_.format).name) + " values, not " +
                         std::string(format_of(format).name));
    }
    const std::int64_t first = request.row_offset - row_offset_;
    if (request.dim != table_.cols || first < 0 || request.rows < 0 || first + request.rows > table_.rows) {
      throw SubjectError("the file " + name_ + " holds rows [" + std::to_string(row_offset_) + ", " +
                         std::to_string(row_offset_ + table_.rows) + ") at width " + std::to_string(table_.cols) +
                         "; asked for rows [" + std::to_string(request.row_offset) + ", " +
                         std::to_string(request.row_offset + request.rows) + ") at width " + std::to_string(request.dim));
    }
    return copy_table(table_.view().row_block(first, request.rows));
  }

 private:
  std::string name_;
  Table table_;
  Convention convention_;
  std::int64_t row_offset_;
};

}  // namespace

std::unique_ptr<Subject> make_table_file_subject(std::string name, Table table, Convention convention,
                                                 std::int64_t row_offset) {
  return std::make_unique<TableFileSubject>(std::move(name), std::move(table), std::move(convention), row_offset);
}

}  // namespace pecheck
