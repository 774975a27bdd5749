// The oracle as a Subject: correctly rounded tables for any convention and
// format, so every check can run on the reference exactly as on any other
// subject (a check that fails on the reference is a wrong check).
#pragma once

#include <memory>

#include "pecheck/subject.hpp"

namespace pecheck::reference {

// Named "reference". `threads` as in reference_table (0: hardware concurrency).
// It offers no embedding operations: those checks report it as not applicable.
std::unique_ptr<Subject> make_reference_subject(int threads = 0);

}  // namespace pecheck::reference
