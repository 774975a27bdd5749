#include "table_input.hpp"

#include <memory>
#include <stdexcept>
#include <utility>

namespace py = pybind11;

namespace pecheck::python {

FormatId format_named(const std::string& format, const std::string& argument) {
  const std::optional<FormatId> id = parse_format(format);
  if (!id) {
    throw std::invalid_argument(argument + ": format '" + format +
                                "' (expected float64, float32, float16 or bfloat16)");
  }
  return *id;
}

TableView table_view(const py::array& array, FormatId format, const std::string& argument) {
  const auto itemsize = static_cast<py::ssize_t>(storage_bytes(format));
  if (array.ndim() != 2) {
    throw std::invalid_argument(argument + ": " + std::to_string(array.ndim()) + " dimensions (expected rows x columns)");
  }
  if (array.itemsize() != itemsize || array.dtype().byteorder() == '>') {
    throw std::invalid_argument(argument + ": elements of " + std::to_string(array.itemsize()) +
                                " bytes (expected native " + std::string(format_of(format).name) + " storage of " +
                                std::to_string(itemsize) + " bytes)");
  }
  const py::ssize_t rows = array.shape(0);
  const py::ssize_t cols = array.shape(1);
  const py::ssize_t row_stride = rows <= 1 ? cols * itemsize : array.strides(0);
  if ((cols > 1 && array.strides(1) != itemsize) || row_stride < cols * itemsize || row_stride % itemsize != 0) {
    throw std::invalid_argument(argument + ": strides (" + std::to_string(array.strides(0)) + ", " +
                                std::to_string(array.strides(1)) +
                                ") (expected each row's entries adjacent and rows in order)");
  }
  return TableView(format, rows, cols, row_stride / itemsize, array.data());
}

py::array table_to_numpy(Table table) {
  if (table.format == FormatId::bfloat16) table = convert_table(table.view(), FormatId::float32);
  auto owner = std::make_unique<Table>(std::move(table));
  const Table& t = *owner;
  const py::dtype dtype = t.format == FormatId::float64   ? py::dtype::of<double>()
                          : t.format == FormatId::float32 ? py::dtype::of<float>()
                                                          : py::dtype("float16");
  const auto itemsize = static_cast<py::ssize_t>(storage_bytes(t.format));
  const void* data = t.bytes().data();
  py::capsule base(owner.get(), [](void* p) { delete static_cast<Table*>(p); });
  owner.release();
  return py::array(dtype, {static_cast<py::ssize_t>(t.rows), static_cast<py::ssize_t>(t.cols)},
                   {static_cast<py::ssize_t>(t.cols) * itemsize, itemsize}, data, base);
}

}  // namespace pecheck::python
