# Checks each instruction-set variant's relocatable object (PecheckDispatch.cmake):
# the only global symbols it defines are its kernel tables, pecheck_isa_<variant>_*
# (any other would let the linker give the baseline code a wide variant's copy,
# or clash with the baseline's),
# and what it runs at start-up uses no instruction beyond the baseline (a
# constructor compiled for a wide variant runs on every CPU, and would stop
# with SIGILL on one without those instructions).
#
#   cmake -DNM=... -DREADELF=... -DOBJDUMP=... -DOBJECTS=a.o|b.o -P check_isa_objects.cmake
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
  # Start-up code: the static constructors of headers such as <iostream>
  # and Boost's MPFR cleanup, compiled with the variant's flags. They may
  # call and move, never use an instruction beyond the baseline: no VEX or
  # EVEX instruction (every one's mnemonic starts with v), no ymm, zmm or
  # mask register, no BMI, LZCNT, POPCNT or MOVBE.
  execute_process(COMMAND ${READELF} -S -W ${object} OUTPUT_VARIABLE sections)
  if(sections MATCHES "\\.(preinit_array|ctors)")
    set(failures "${failures}\n  ${object}: code run at start-up (.${CMAKE_MATCH_1})")
  endif()
  if(sections MATCHES "\\.init_array")
    if(NOT sections MATCHES "\\.text\\.startup")
      set(failures "${failures}\n  ${object}: .init_array without .text.startup (start-up code not checked)")
    endif()
    execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn -j .text.startup ${object} OUTPUT_VARIABLE code)
    string(REGEX MATCHALL "\t[a-z][a-z0-9.]*[ \t][^\n]*|\t[a-z][a-z0-9.]*\n" instructions "${code}")
    if(NOT instructions)
      set(failures "${failures}\n  ${object}: its start-up code could not be read")
    endif()
    foreach(instruction IN LISTS instructions)
      string(STRIP "${instruction}" instruction)
      if(instruction MATCHES "^v|%[yz]mm|%k[0-7]|^(andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx|lzcnt|tzcnt|popcnt|movbe)[ \t]")
        set(failures "${failures}\n  ${object}: start-up code beyond the baseline: ${instruction}")
      endif()
    endforeach()
  endif()
endforeach()
if(objects STREQUAL "")
  message(STATUS "check_isa_objects: no variants in this build")
endif()
if(failures)
  message(FATAL_ERROR "check_isa_objects:${failures}")
endif()
