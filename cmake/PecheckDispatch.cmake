# Choosing the instruction set at run time. A part's kernel sources are
# compiled once more for each variant in PECHECK_ISA_VARIANTS, and the part
# holds them all; at the first call the part's dispatcher takes the best
# variant the CPU runs (lib/include/pecheck/isa.hpp), or the one the
# environment variable PECHECK_ISA names. The kernel code is the same source
# for every variant: only the compiler's target flags differ.
#
# One variant's copies must not leak into the others. Its sources are
# compiled into an object library, linked into one relocatable object
# (ld -r, section groups dissolved, so the inline functions and templates it
# instantiated are its own copies), and every symbol it defines is made local
# but the kernel tables it exports (pecheck_isa_<variant>_*, defined by the
# part's kernel-table source with PECHECK_ISA_SYMBOL). Without that the
# linker could pick a wide variant's copy of std::vector's growth, say, for
# the baseline code too, which would stop with SIGILL on an older CPU. What
# a variant calls outside its kernel sources is the baseline's code.
# check_isa_objects.cmake (the test isa_variant_objects) checks each such
# object: only the tables global, and no instruction beyond the baseline in
# what it runs at start-up (the static constructors of <iostream> and
# Boost's MPFR cleanup, compiled with the variant's flags, run on every CPU).

# The variants a build can hold, best last: name, compiler flags, the name
# __builtin_cpu_supports knows them by, what they hold.
set(pecheck_isa_known x86_64_v3 x86_64_v4)
set(pecheck_isa_flags_x86_64_v3 -march=x86-64-v3)
set(pecheck_isa_cpu_x86_64_v3 x86-64-v3)
set(pecheck_isa_about_x86_64_v3 "x86-64-v3: AVX2, FMA, BMI2")
set(pecheck_isa_flags_x86_64_v4 -march=x86-64-v4)
set(pecheck_isa_cpu_x86_64_v4 x86-64-v4)
set(pecheck_isa_about_x86_64_v4 "x86-64-v4: AVX-512 F, BW, CD, DQ, VL")

# By default every known variant on x86-64 with GCC or Clang; none for a
# native build (its one variant is the build machine's CPU) or elsewhere.
set(pecheck_isa_default "")
if(NOT PECHECK_NATIVE AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$"
   AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND CMAKE_LINKER AND CMAKE_OBJCOPY)
  set(pecheck_isa_default ${pecheck_isa_known})
endif()
set(PECHECK_ISA_VARIANTS "${pecheck_isa_default}" CACHE STRING
    "Instruction-set variants of the kernels chosen at run time, besides the baseline (x86_64_v3;x86_64_v4)")
foreach(variant IN LISTS PECHECK_ISA_VARIANTS)
  if(NOT variant IN_LIST pecheck_isa_known)
    message(FATAL_ERROR "PECHECK_ISA_VARIANTS: unknown variant '${variant}'; expected some of ${pecheck_isa_known}")
  endif()
endforeach()

# The list as the C++ code reads it: an X-macro over (name, CPU name,
# description), best last.
if(PECHECK_NATIVE)
  set(PECHECK_ISA_BASELINE_DESCRIPTION "native: the build machine's CPU (PECHECK_NATIVE)")
else()
  set(PECHECK_ISA_BASELINE_DESCRIPTION "the target's baseline")
endif()
# The same over the names alone, with the caller's arguments passed on (for
# PECHECK_ISA_KERNEL_TABLES, pecheck/isa.hpp).
set(PECHECK_ISA_VARIANT_LIST "")
set(PECHECK_ISA_VARIANT_NAMES "")
foreach(variant IN LISTS PECHECK_ISA_VARIANTS)
  string(APPEND PECHECK_ISA_VARIANT_LIST " X(${variant}, \"${pecheck_isa_cpu_${variant}}\", \"${pecheck_isa_about_${variant}}\")")
  string(APPEND PECHECK_ISA_VARIANT_NAMES " X(${variant}, __VA_ARGS__)")
endforeach()
set(PECHECK_ISA_INCLUDE_DIR ${PROJECT_BINARY_DIR}/isa_include)
configure_file(${CMAKE_CURRENT_LIST_DIR}/isa_variants.hpp.in ${PECHECK_ISA_INCLUDE_DIR}/pecheck_isa_variants.hpp @ONLY)

# pecheck_isa_kernels(<part> SOURCES src...): compiles the part's kernel
# sources (paths under the part's directory) once per variant and adds the
# variants to pecheck_<part>. One of the sources defines the part's kernel
# table with PECHECK_ISA_SYMBOL; the baseline is the part's own build of the
# same sources. Called after pecheck_add_part, from the part's directory.
function(pecheck_isa_kernels part)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  set(target pecheck_${part})
  target_include_directories(${target} PRIVATE ${PECHECK_ISA_INCLUDE_DIR})
  target_compile_definitions(${target} PRIVATE PECHECK_ISA_NAME=baseline)
  get_target_property(includes ${target} INCLUDE_DIRECTORIES)
  get_target_property(libraries ${target} LINK_LIBRARIES)
  foreach(variant IN LISTS PECHECK_ISA_VARIANTS)
    set(objects ${target}_${variant})
    add_library(${objects} OBJECT ${ARG_SOURCES})
    target_include_directories(${objects} PRIVATE ${includes})
    target_link_libraries(${objects} PRIVATE ${libraries})
    # GCC gives a static local of an inline function (std::to_chars's table
    # of digits) STB_GNU_UNIQUE binding, which objcopy cannot make local; as
    # a weak symbol it becomes the variant's own copy like the rest.
    # -Wno-psabi: GCC warns that passing a vector wider than the target's
    # registers changes the calling convention; a variant's functions are
    # called only from its own code (all but its kernel table are local, and
    # the table's entries take no vector), so no call crosses conventions.
    target_compile_options(${objects} PRIVATE ${pecheck_isa_flags_${variant}} $<$<CXX_COMPILER_ID:GNU>:-fno-gnu-unique>
                                              -Wno-psabi)
    target_compile_definitions(${objects} PRIVATE PECHECK_ISA_NAME=${variant})
    # The Python module links the parts into a shared object.
    set_target_properties(${objects} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    set(merged ${CMAKE_CURRENT_BINARY_DIR}/${objects}.o)
    add_custom_command(
      OUTPUT ${merged}
      COMMAND ${CMAKE_LINKER} -r --force-group-allocation -o ${merged}.all "$<TARGET_OBJECTS:${objects}>"
      COMMAND ${CMAKE_OBJCOPY} --wildcard "--keep-global-symbol=pecheck_isa_${variant}_*" ${merged}.all ${merged}
      DEPENDS ${objects} "$<TARGET_OBJECTS:${objects}>"
      COMMENT "Linking the ${variant} kernels of ${target}"
      COMMAND_EXPAND_LISTS VERBATIM)
    set_source_files_properties(${merged} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    target_sources(${target} PRIVATE ${merged})
    set_property(GLOBAL APPEND PROPERTY PECHECK_ISA_OBJECTS ${merged})
  endforeach()
endfunction()

# The test that checks every variant's object (check_isa_objects.cmake); from
# the top-level CMakeLists, once every part has added its variants.
function(pecheck_add_isa_objects_test)
  get_property(objects GLOBAL PROPERTY PECHECK_ISA_OBJECTS)
  string(REPLACE ";" "|" objects "${objects}")
  find_program(PECHECK_READELF NAMES readelf REQUIRED)
  add_test(NAME isa_variant_objects
           COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DREADELF=${PECHECK_READELF} -DOBJDUMP=${CMAKE_OBJDUMP}
                   "-DOBJECTS=${objects}"
                   -P ${PROJECT_SOURCE_DIR}/cmake/check_isa_objects.cmake)
endfunction()

# pecheck_isa_test_each_variant(test...): runs each GoogleTest program once
# more per variant, the variant forced by PECHECK_ISA (its public entry points
# reach the kernels through the dispatch), as the ctest test
# <test>_under_<variant>; skipped where the CPU cannot run the variant.
function(pecheck_isa_test_each_variant)
  foreach(test IN LISTS ARGN)
    foreach(variant IN ITEMS baseline ${PECHECK_ISA_VARIANTS})
      add_test(NAME ${test}_under_${variant} COMMAND ${test})
      set_tests_properties(${test}_under_${variant} PROPERTIES ENVIRONMENT PECHECK_ISA=${variant}
                           SKIP_REGULAR_EXPRESSION "PECHECK_ISA: this CPU cannot run the variant")
    endforeach()
  endforeach()
endfunction()
