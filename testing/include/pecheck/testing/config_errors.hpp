// The contract of every config.json error, asserted alike by the tests of
// the config reader: one line that names the file and the field. Test
// support only, never installed.
#pragma once

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "pecheck/rotary_config.hpp"

namespace pecheck::testing {

inline void expect_config_error_naming(const std::string& text, std::string_view field,
                                       const RotaryConfigOptions& options = {}) {
  try {
    parse_rotary_config(text, "config.json", options);
    ADD_FAILURE() << "no error for " << text;
  } catch (const RotaryConfigError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("config.json"), std::string::npos) << message;
    EXPECT_NE(message.find(field), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace pecheck::testing
