#include "pecheck/isa.hpp"

#include <cstdlib>

#include "pecheck_isa_variants.hpp"

namespace pecheck::isa {

namespace {

// __builtin_cpu_supports checks the CPU's features and that the operating
// system saves the wider registers (XCR0), which a feature bit alone does not say.
std::vector<Variant> compiled_variants() {
  std::vector<Variant> list{{"baseline", PECHECK_ISA_BASELINE_DESCRIPTION, true}};
#define PECHECK_ISA_LIST_VARIANT(name, cpu, about) list.push_back({#name, about, __builtin_cpu_supports(cpu) != 0});
  PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_ISA_LIST_VARIANT)
#undef PECHECK_ISA_LIST_VARIANT
  return list;
}

struct Choice {
  std::size_t index = 0;
  bool forced = false;
  std::string error;  // a bad PECHECK_ISA, reported at every selected()
};

Choice choose() {
  const std::vector<Variant>& list = variants();
  Choice choice;
  const char* wanted = std::getenv("PECHECK_ISA");
  if (wanted == nullptr || *wanted == '\0') {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].runs_here) choice.index = i;
    }
    return choice;
  }
  std::string names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].name == wanted) {
      if (!list[i].runs_here) {
        choice.error =
            "PECHECK_ISA: this CPU cannot run the variant '" + list[i].name + "' (" + list[i].description + ")";
      }
      choice.index = i;
      choice.forced = true;
      return choice;
    }
    names += (i == 0 ? "" : ", ") + list[i].name;
  }
  choice.error = std::string("PECHECK_ISA: no variant '") + wanted + "' in this build; expected one of " + names;
  return choice;
}

const Choice& the_choice() {
  static const Choice choice = choose();
  return choice;
}

}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> list = compiled_variants();
  return list;
}

std::size_t detail::select() {
  const Choice& choice = the_choice();
  if (!choice.error.empty()) throw VariantError(choice.error);
  selected_index.store(static_cast<std::ptrdiff_t>(choice.index), std::memory_order_relaxed);
  return choice.index;
}

std::string selected_description() {
  const Variant& variant = variants()[selected()];
  std::string how = "the only variant in this build";
  if (the_choice().forced) {
    how = "forced by PECHECK_ISA";
  } else if (variants().size() > 1) {
    how = "the best of " + std::to_string(variants().size()) + " in this build that this CPU runs";
  }
  return variant.name + " (" + variant.description + "), " + how;
}

}  // namespace pecheck::isa
