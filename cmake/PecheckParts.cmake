# pecheck_add_part(<part> [PUBLIC deps...] [PRIVATE deps...]): the library of
# one part of pecheck, called from the part's directory: every .cpp under its
# src/ (a part may group its sources in folders by job, as lib/ does), built
# as pecheck_<part> and known as pecheck::<part>, the same name a consumer of
# the installed package links. Its headers are include/ in the
# build and the install prefix's include directory once installed.
#
# pecheck_options is linked as $<BUILD_INTERFACE:...>, so pecheck's warnings
# and floating-point flags never reach a consumer; anything particular to a
# part (pecheck_native, definitions, a compiler's false positive) stays in the
# part's own CMakeLists with its reason.
#
# Each part is recorded in the global property PECHECK_PARTS, from which
# PecheckInstall.cmake installs and exports the libraries and their headers:
# a new part is installed without a list to keep up to date, and one installed
# part may link another.
function(pecheck_add_part part)
  cmake_parse_arguments(ARG "" "" "PUBLIC;PRIVATE" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pecheck_add_part(${part}): unexpected ${ARG_UNPARSED_ARGUMENTS}; "
                        "dependencies follow PUBLIC or PRIVATE")
  endif()
  set(target pecheck_${part})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  add_library(${target} ${sources})
  add_library(pecheck::${part} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${part})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # A private header is included from its own folder by its name, from
  # another folder of the part by its path under src/ ("support/utf8_sequence.hpp").
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  # The headers use C++20 (std::span, std::bit_cast): a consumer compiles
  # them too, so the requirement is PUBLIC, not only on pecheck_options.
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target}
    PUBLIC ${ARG_PUBLIC}
    PRIVATE $<BUILD_INTERFACE:pecheck_options> ${ARG_PRIVATE})
  set_property(GLOBAL APPEND PROPERTY PECHECK_PARTS ${target})
endfunction()
