# Tampered sweep parts (issue 30): `pecheck merge` accepted 156 of 800 with
# exit 0, a NaN worst value among them printed as "held ... max inf ULP".
# Each edit below is refused with exit 2, naming the part and the field.
#
#   cmake -DPECHECK=... -DWORK_DIR=... -P hostile_merge.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)

execute_process(COMMAND ${PECHECK} sweep --convention vaswani --dim 8 --positions 0:9 --output ${WORK_DIR}/part.json
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pecheck sweep could not write a part (exit ${status})")
endif()
file(READ ${WORK_DIR}/part.json part)

# tampered(label field json-path value): the part with one field set, merged.
function(tampered label field)
  string(JSON edited SET "${part}" ${ARGN})
  file(WRITE ${WORK_DIR}/${label}.json "${edited}")
  expect_refused("${label}" "${label}.json: field '${field}'" merge ${WORK_DIR}/${label}.json --output ${WORK_DIR}/merged.json)
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

tampered(nan_worst worst_ulp.value_bits worst_ulp value_bits "\"0x7fc00000\"")
tampered(row_outside worst_ulp.row worst_ulp row 42)
tampered(huge_sum sum_squares_ulp sum_squares_ulp "\"0x1p+200\"")
tampered(no_beyond beyond_budget beyond_budget 5)
tampered(exact_moved worst_abs_error.exact worst_abs_error exact hi "\"0x1p-1\"")

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "tampered parts:${failures}")
endif()
