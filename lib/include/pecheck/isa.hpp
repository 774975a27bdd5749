// Which instruction-set variant of the kernels runs (cmake/PecheckDispatch.cmake
// compiles the kernel sources once per variant). The choice is made once per
// process, at the first kernel call: the variant the environment variable
// PECHECK_ISA names ("baseline", "x86_64_v3", "x86_64_v4"), or else the best
// one this CPU runs. Every variant computes the same bits (the same source,
// no FMA contraction: -ffp-contract=off); only the speed differs, and the
// tests compare them (lib/tests/isa_variants_test.cpp,
// lib/tests/rotary_isa_variants_test.cpp).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace pecheck::isa {

struct Variant {
  std::string name;         // as PECHECK_ISA names it: "baseline", "x86_64_v3", ...
  std::string description;  // what it was compiled for
  bool runs_here = false;   // this CPU has the instructions
};

// The variants this build holds, the baseline first, best last.
const std::vector<Variant>& variants();

// PECHECK_ISA names no variant of this build, or one this CPU cannot run.
class VariantError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
// The choice once made without error (-1 before): kernels are dispatched row
// by row, and the full call was about 0.5% of a rotary validation's CPU.
inline std::atomic<std::ptrdiff_t> selected_index{-1};
std::size_t select();
}  // namespace detail

// The index into variants() of the one in use. Throws VariantError for a
// bad PECHECK_ISA (every call, so a command can report it before its work).
inline std::size_t selected() {
  const std::ptrdiff_t index = detail::selected_index.load(std::memory_order_relaxed);
  return index >= 0 ? static_cast<std::size_t>(index) : detail::select();
}

// "x86_64_v4 (x86-64-v4: AVX-512), chosen for this CPU", for pecheck bench.
std::string selected_description();

// The kernel table of the selected variant from a part's tables, one per
// variant in variants()' order.
template <class Tables>
const auto& pick(const Tables& tables) {
  return *tables.at(selected());
}

}  // namespace pecheck::isa

// In a part's kernel-table source: the name of this variant's exported table
// (the one symbol of the variant's object left global).
#define PECHECK_ISA_CONCAT_(a, b, c) a##b##_##c
#define PECHECK_ISA_CONCAT(a, b, c) PECHECK_ISA_CONCAT_(a, b, c)
#define PECHECK_ISA_SYMBOL(name) PECHECK_ISA_CONCAT(pecheck_isa_, PECHECK_ISA_NAME, name)
// In a part's dispatch source, with PECHECK_ISA_FOR_EACH_VARIANT: "+ 1" per
// variant, for the size of its array of tables.
#define PECHECK_ISA_COUNT(name, cpu, about) +1

// In a part's dispatch source (which includes pecheck_isa_variants.hpp), at
// global scope, followed by a semicolon: declares the kernel table of type
// Type that each variant's object exports as pecheck_isa_<variant>_<table>
// (PECHECK_ISA_SYMBOL(table) in the part's kernel-table source), and defines
// `tables`, pointers to them in variants()' order, for pick():
//   PECHECK_ISA_KERNEL_TABLES(pecheck::FastKernels, fast_kernels, fast_tables);
#define PECHECK_ISA_DECLARE_TABLE_(variant, Type, table) extern "C" const Type pecheck_isa_##variant##_##table;
#define PECHECK_ISA_TABLE_ADDRESS_(variant, Type, table) , &pecheck_isa_##variant##_##table
#define PECHECK_ISA_KERNEL_TABLES(Type, table, tables)                         \
  extern "C" const Type pecheck_isa_baseline_##table;                          \
  PECHECK_ISA_FOR_EACH_VARIANT_NAME(PECHECK_ISA_DECLARE_TABLE_, Type, table)   \
  static const std::array tables {                                             \
    &pecheck_isa_baseline_##table PECHECK_ISA_FOR_EACH_VARIANT_NAME(PECHECK_ISA_TABLE_ADDRESS_, Type, table) \
  }
