# Warnings, floating-point discipline and sanitizers live on one INTERFACE
# target that every pecheck target links privately; no global flags.
add_library(pecheck_options INTERFACE)
target_compile_features(pecheck_options INTERFACE cxx_std_20)
target_compile_options(pecheck_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  # Results are compared bit for bit against a correctly rounded oracle:
  # no contraction of a*b+c into an FMA unless the code asks for std::fma.
  -ffp-contract=off -fno-fast-math)
option(PECHECK_WERROR "Treat compiler warnings as errors (CI turns it on)" OFF)
if(PECHECK_WERROR)
  target_compile_options(pecheck_options INTERFACE -Werror)
endif()
if(PECHECK_SANITIZE)
  target_compile_options(pecheck_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(pecheck_options INTERFACE -fsanitize=address,undefined)
endif()

# pecheck_add_test(NAME SOURCES... LIBS...): one GoogleTest executable,
# its tests discovered into ctest. Every parameterised test names its cases
# with a name generator, so the printed parameter (NO_PRETTY_VALUES) would
# only repeat the name.
function(pecheck_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest_main pecheck_options)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 NO_PRETTY_VALUES)
endfunction()

# The fast path can be compiled for the vector units of the build machine;
# the results do not depend on it (no FMA contraction, the same operations in
# the same order), only the speed does. Off by default: code compiled with
# -march=native is baked into the libraries and would stop with SIGILL on a
# machine without those units, so an installed or vendored pecheck is
# portable. scripts/build turns it on for the command line and benchmarks run
# where they were built; installing such a build is warned about.
option(PECHECK_NATIVE "Compile the fast path for the build machine's CPU (-march=native)" OFF)
add_library(pecheck_native INTERFACE)
if(PECHECK_NATIVE)
  target_compile_options(pecheck_native INTERFACE -march=native)
endif()
