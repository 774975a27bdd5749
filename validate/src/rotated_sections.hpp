// A rotated output's stages of the one writer, with the signatures of
// sections.hpp's: when Validation's findings take RotatedFindings, these
// declarations move there and the writer's visit calls them.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "pecheck/validate/rotated_findings.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

void subject_text(const Validation& v, const RotatedFindings& findings, std::ostream& out);
void comparisons_text(const Validation& v, const RotatedFindings& findings, std::ostream& out);
void subject_json(const Validation& v, const RotatedFindings& findings, nlohmann::json& out);

}  // namespace pecheck::validate
