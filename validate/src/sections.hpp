// The kind-specific stages of the one text and JSON writer
// (validation_writers.cpp): what each kind's findings say about the subject,
// and how its comparisons read. The writer calls them in a fixed order:
//   header, subject, notes, comparisons, parts, hazards, reasons
// so every kind's output has the same frame, and a new kind adds three
// functions here, not a writer.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// Text: lines indented by two spaces, each ending in '\n'.
void subject_text(const Validation& v, const TableFindings& findings, std::ostream& out);
void subject_text(const Validation& v, const RotaryFindings& findings, std::ostream& out);
void subject_text(const Validation& v, const InputLayerFindings& findings, std::ostream& out);
void subject_text(const Validation& v, const RotatedFindings& findings, std::ostream& out);

void comparisons_text(const Validation& v, const TableFindings& findings, std::ostream& out);
void comparisons_text(const Validation& v, const RotaryFindings& findings, std::ostream& out);
void comparisons_text(const Validation& v, const InputLayerFindings& findings, std::ostream& out);
void comparisons_text(const Validation& v, const RotatedFindings& findings, std::ostream& out);

// JSON: the kind's own keys added to the document (the frame writes file,
// kind, verdict, comparisons, hazards, reasons and notes).
void subject_json(const Validation& v, const TableFindings& findings, nlohmann::json& out);
void subject_json(const Validation& v, const RotaryFindings& findings, nlohmann::json& out);
void subject_json(const Validation& v, const InputLayerFindings& findings, nlohmann::json& out);
void subject_json(const Validation& v, const RotatedFindings& findings, nlohmann::json& out);

// The one JSON document of a validation (validation_writers.cpp), for
// kinds that nest their parts' documents.
nlohmann::json validation_document(const Validation& v, const std::string& file);

}  // namespace pecheck::validate
