// The four formats as data, for the reference's own use.
//
// A stand-in for format_of() from lib/src/format.cpp, which was not yet on
// main when the reference was written; once it is, this file can go and
// callers can use format_of().
#pragma once

#include "pecheck/format.hpp"

namespace pecheck::reference {

const Format& builtin_format(FormatId id);

}  // namespace pecheck::reference
