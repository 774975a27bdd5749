# The instruction-set variants end to end (pecheck/isa.hpp): `pecheck table`
# (fast, every format, and the reference), `pecheck rope --impl fast` and
# `--impl reference` (the exact encoding and hf-float32), and `pecheck
# validate` of a table and of rotary caches (text and JSON: the accumulator's
# figures) give the same bytes under every variant PECHECK_ISA forces, as
# under the one chosen for this CPU; a variant this CPU cannot run, or one
# the build does not hold, is refused with exit 2 and one line naming
# PECHECK_ISA.
#
#   cmake -DPECHECK=... -DWORK_DIR=... -DVARIANTS=baseline|x86_64_v3|... -P isa_variants.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
string(REPLACE "|" ";" variants "${VARIANTS}")

# Positions near the fast path's 2^24 limit and an odd width: the angles'
# reduction and the lone column.
set(table_args --convention vaswani --rows 700 --dim 131 --offset 16776000)
macro(outputs_of tag prefix)
  foreach(format float64 float32 float16 bfloat16)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${prefix} ${PECHECK} table ${table_args} --dtype ${format}
                            --output ${WORK_DIR}/${tag}-${format}.npy
                    RESULT_VARIABLE status ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
      set(failures "${failures}\n  ${tag}: table --dtype ${format}: exit ${status}: ${err}")
    endif()
  endforeach()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${prefix} ${PECHECK} table ${table_args} --dtype float32
                          --impl reference --output ${WORK_DIR}/${tag}-reference.npy
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  ${tag}: table --impl reference: exit ${status}: ${err}")
  endif()
  # The rotary fast paths: the exact encoding's cache (float32 rotates,
  # bfloat16 takes every row from the kernel) and the hf-float32 model's.
  set(rope_args --preset llama3.1 --rows 700 --first-position 16776000)
  foreach(rope exact-float32 exact-bfloat16 hf-float32-float32)
    string(REGEX MATCH "[a-z0-9]+$" format ${rope})
    string(REGEX REPLACE "-[a-z0-9]+$" "" computation ${rope})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${prefix} ${PECHECK} rope ${rope_args} --dtype ${format}
                            --computation ${computation} --impl fast --cos ${WORK_DIR}/${tag}-rope-${rope}-cos.npy
                            --sin ${WORK_DIR}/${tag}-rope-${rope}-sin.npy
                    RESULT_VARIABLE status ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
      set(failures "${failures}\n  ${tag}: rope ${rope}: exit ${status}: ${err}")
    endif()
  endforeach()
  # The rotary reference (its tiers, the exact encoding's and the model's).
  foreach(rope exact hf-float32)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${prefix} ${PECHECK} rope ${rope_args} --dtype float32
                            --computation ${rope} --impl reference --cos ${WORK_DIR}/${tag}-reference-${rope}-cos.npy
                            --sin ${WORK_DIR}/${tag}-reference-${rope}-sin.npy
                    RESULT_VARIABLE status ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
      set(failures "${failures}\n  ${tag}: rope ${rope} --impl reference: exit ${status}: ${err}")
    endif()
  endforeach()
  # The same file validated by each variant: the report is the same text,
  # and the same JSON (the accumulator's figures, every one printed).
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${prefix} ${PECHECK} validate ${WORK_DIR}/chosen-float32.npy
                          --convention vaswani --offset 16776000
                  OUTPUT_FILE ${WORK_DIR}/${tag}-validate.txt RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  ${tag}: validate: exit ${status}: ${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${prefix} ${PECHECK} validate ${WORK_DIR}/chosen-float32.npy
                          --convention vaswani --offset 16776000 --json
                  OUTPUT_FILE ${WORK_DIR}/${tag}-validate-json.txt RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  ${tag}: validate --json: exit ${status}: ${err}")
  endif()
  # Rotary caches validated (the rotary reference's rows into the
  # accumulator): the exact encoding's cache, and the hf-float32 model's,
  # which the exact encoding's comparison judges entry by entry.
  foreach(rope exact hf-float32)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${prefix} ${PECHECK} validate
                            ${WORK_DIR}/chosen-validated-${rope}-cos.npy --sin ${WORK_DIR}/chosen-validated-${rope}-sin.npy
                            --rope llama3.1 --json
                    OUTPUT_FILE ${WORK_DIR}/${tag}-validate-rope-${rope}.txt RESULT_VARIABLE status ERROR_VARIABLE err)
    if(status GREATER 1)
      set(failures "${failures}\n  ${tag}: validate the ${rope} cache: exit ${status}: ${err}")
    endif()
  endforeach()
endmacro()

# The rotary caches the variants validate, written once (from position 0,
# where validate takes a cache to start).
foreach(rope exact hf-float32)
  execute_process(COMMAND ${PECHECK} rope --preset llama3.1 --rows 700 --dtype float32 --computation ${rope}
                          --impl fast --cos ${WORK_DIR}/chosen-validated-${rope}-cos.npy
                          --sin ${WORK_DIR}/chosen-validated-${rope}-sin.npy
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  rope ${rope} to validate: exit ${status}: ${err}")
  endif()
endforeach()

outputs_of(chosen "PECHECK_ISA=")
set(compared 0)
foreach(variant IN LISTS variants)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PECHECK_ISA=${variant} ${PECHECK} table --convention vaswani
                          --rows 1 --dim 2 --output ${WORK_DIR}/probe.npy
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(status EQUAL 2 AND err MATCHES "^[^\n]*PECHECK_ISA: this CPU cannot run the variant '${variant}'[^\n]*\n?$")
    message(STATUS "${variant}: this CPU cannot run it; refused as expected")
    continue()
  elseif(NOT status EQUAL 0)
    set(failures "${failures}\n  PECHECK_ISA=${variant}: exit ${status}: ${err}")
    continue()
  endif()
  outputs_of(${variant} "PECHECK_ISA=${variant}")
  foreach(output float64 float32 float16 bfloat16 reference validate rope-exact-float32-cos rope-exact-float32-sin
                 rope-exact-bfloat16-cos rope-exact-bfloat16-sin rope-hf-float32-float32-cos rope-hf-float32-float32-sin
                 reference-exact-cos reference-exact-sin reference-hf-float32-cos reference-hf-float32-sin
                 validate-json validate-rope-exact validate-rope-hf-float32)
    set(suffix .npy)
    if(output MATCHES "^validate")
      set(suffix .txt)
    endif()
    file(SHA256 ${WORK_DIR}/chosen-${output}${suffix} expected)
    file(SHA256 ${WORK_DIR}/${variant}-${output}${suffix} got)
    if(NOT got STREQUAL expected)
      set(failures "${failures}\n  PECHECK_ISA=${variant}: ${output} differs from the chosen variant's")
    endif()
    math(EXPR compared "${compared} + 1")
  endforeach()
endforeach()
if(compared EQUAL 0)
  set(failures "${failures}\n  no variant compared (not even the baseline)")
endif()

# A name the build does not hold: exit 2, one line naming PECHECK_ISA and the names it holds.
execute_process(COMMAND ${CMAKE_COMMAND} -E env PECHECK_ISA=pentium ${PECHECK} table --convention vaswani --rows 1
                        --dim 2 --output ${WORK_DIR}/probe.npy
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 2 OR NOT err MATCHES "^[^\n]*PECHECK_ISA: no variant 'pentium' in this build; expected one of baseline[^\n]*\n?$")
  set(failures "${failures}\n  PECHECK_ISA=pentium: exit ${status} (expected 2 and one line naming PECHECK_ISA): ${err}")
endif()

if(failures)
  message(FATAL_ERROR "isa_variants:${failures}")
endif()
message(STATUS "isa_variants: ${compared} outputs the same under every variant this CPU runs")
