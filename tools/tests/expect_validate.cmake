# expect_validate(label expected needles ARGS...): shared by the command-line
# tests that drive `pecheck validate` (include it; it reads PECHECK and appends
# to the caller's `failures`). pecheck validate ARGS... must exit `expected`,
# and its output (stdout and stderr) must hold every needle of the ;-list
# `needles`. Prints the run's time, and leaves it in the caller's
# `last_seconds` for tests with a time target (and stdout, stderr in
# `last_out`, `last_err`).
function(expect_validate label expected needles)
  string(TIMESTAMP started "%s")
  execute_process(COMMAND ${PECHECK} validate ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP ended "%s")
  math(EXPR seconds "${ended} - ${started}")
  message("${label}: exit ${status} in ${seconds} s")
  set(last_seconds ${seconds} PARENT_SCOPE)
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
    return()
  endif()
  foreach(needle IN LISTS needles)
    string(FIND "${out}${err}" "${needle}" at)
    if(at EQUAL -1)
      set(failures "${failures}\n  ${label}: the output lacks '${needle}':\n${out}${err}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()
