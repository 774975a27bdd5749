// Deliberately faulty subjects, each a numeric fault seen in real code
// (CONVENTIONS.md), each named with the checks that must catch it. They prove
// that every check can fail: a check no fault can fail proves nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pecheck/subject.hpp"

namespace pecheck::properties {

// sin and cos exchanged in every frequency pair.
std::unique_ptr<Subject> make_sin_cos_swapped_subject(std::shared_ptr<const Subject> inner);
// The angle p*w computed in float32 (position and frequency rounded to float,
// the product rounded to float), then sinf / cosf, as the PyTorch tutorial does.
std::unique_ptr<Subject> make_float32_angle_subject(std::shared_ptr<const Subject> inner);
// The timescale rule (min 1, max = the paper's base) wherever the convention
// asks for the paper's rule.
std::unique_ptr<Subject> make_timescale_rule_subject(std::shared_ptr<const Subject> inner);
// The convention's zero rows (fairseq's padding row) left unzeroed.
std::unique_ptr<Subject> make_unzeroed_padding_subject(std::shared_ptr<const Subject> inner);
// Positions held in bfloat16 before the angle is computed: exact only to 256.
std::unique_ptr<Subject> make_bfloat16_position_subject(std::shared_ptr<const Subject> inner);
// The table computed in float16 and handed out in the requested format (a
// float16 checkpoint upcast): values carry 11 bits whatever the format says.
std::unique_ptr<Subject> make_float16_storage_subject(std::shared_ptr<const Subject> inner);
// The table overwritten by a random initialisation, N(0, 1) entries.
std::unique_ptr<Subject> make_random_init_subject(std::shared_ptr<const Subject> inner);

struct Fault {
  std::string name;                    // the subject is named "fault:" + name
  std::string description;             // one sentence
  std::string source;                  // where the fault was seen
  std::vector<std::string> caught_by;  // check ids that must fail on it
  std::function<std::unique_ptr<Subject>(std::shared_ptr<const Subject>)> make;
};

const std::vector<Fault>& faults();

}  // namespace pecheck::properties
