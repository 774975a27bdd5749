// The validations as the extension module's functions (_validate_table,
// _validate_rope); pecheck/__init__.py wraps them with the documented API.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "pecheck/rotary_convention.hpp"

namespace pecheck::python {

// The rotary convention from `rope` (a preset name) or `config` (the text of
// a Hugging Face config.json, named `config_name` in messages), with `layout`
// when given; none when neither is given. Throws std::invalid_argument
// naming the argument.
std::optional<RotaryConvention> rotary_convention(const std::optional<std::string>& rope,
                                                  const std::optional<std::string>& config,
                                                  const std::string& config_name,
                                                  const std::optional<std::string>& layout,
                                                  std::int64_t sequence_length);

void bind_validate(pybind11::module_& module);

}  // namespace pecheck::python
