# The checks the validate scripts share: validate(label expected ARGS...)
# runs `pecheck validate ARGS`, keeps its output in last_output and records a
# failure when the exit status is not `expected`; expect_json(label key
# expected) compares a key of that output's JSON. Both append to `failures`.
function(validate label expected)
  execute_process(COMMAND ${PECHECK} validate ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(last_output "${out}" PARENT_SCOPE)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  endif()
endfunction()

function(expect_json label key expected)
  string(JSON value ERROR_VARIABLE problem GET "${last_output}" ${key})
  if(problem OR NOT value STREQUAL expected)
    set(failures "${failures}\n  ${label}: ${key} is '${value}' (expected '${expected}') ${problem}" PARENT_SCOPE)
  endif()
endfunction()
