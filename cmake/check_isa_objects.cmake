# Checks each instruction-set variant's relocatable object (PecheckDispatch.cmake):
# the only global symbols it defines are its kernel tables, pecheck_isa_<variant>_*
# (any other would let the linker give the baseline code a wide variant's copy,
# or clash with the baseline's),
# and it runs nothing at start-up (no .init_array or .ctors: a constructor
# compiled for a wide variant would run on every CPU, and stop with SIGILL on
# one without those instructions).
#
#   cmake -DNM=... -DREADELF=... -DOBJECTS=a.o|b.o -P check_isa_objects.cmake
string(REPLACE "|" ";" objects "${OBJECTS}")
set(failures "")
foreach(object IN LISTS objects)
  get_filename_component(name ${object} NAME_WE)
  string(REGEX REPLACE "^.*_(x86_64_v[0-9]+)$" "\\1" variant "${name}")
  execute_process(COMMAND ${NM} -g --defined-only ${object} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  ${object}: nm failed (${status})")
    continue()
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${symbols}")
  set(tables 0)
  foreach(line IN LISTS lines)
    if(line MATCHES " pecheck_isa_${variant}_[a-z_]+$")
      math(EXPR tables "${tables} + 1")
    else()
      set(failures "${failures}\n  ${object}: a global symbol besides the kernel tables: ${line}")
    endif()
  endforeach()
  if(tables EQUAL 0)
    set(failures "${failures}\n  ${object}: no pecheck_isa_${variant}_* table")
  endif()
  execute_process(COMMAND ${READELF} -S -W ${object} OUTPUT_VARIABLE sections)
  if(sections MATCHES "\\.(init_array|preinit_array|ctors)")
    set(failures "${failures}\n  ${object}: code run at start-up (.${CMAKE_MATCH_1})")
  endif()
endforeach()
if(objects STREQUAL "")
  message(STATUS "check_isa_objects: no variants in this build")
endif()
if(failures)
  message(FATAL_ERROR "check_isa_objects:${failures}")
endif()
