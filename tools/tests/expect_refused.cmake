# expect_refused(label needle ARGS...): shared by the command-line tests
# (include it; it reads PECHECK and appends to the caller's `failures`).
# pecheck ARGS...: exit 2, one line on stderr containing `needle`, nothing on
# stdout, and readable (CLI11's range messages printed 300-digit limits).
function(expect_refused label needle)
  execute_process(COMMAND ${PECHECK} ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "\n$" "" line "${err}")
  string(FIND "${err}" "${needle}" at)
  string(LENGTH "${err}" length)
  if(NOT status EQUAL 2)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected 2): ${out}${err}" PARENT_SCOPE)
  elseif(line MATCHES "\n" OR line STREQUAL "")
    set(failures "${failures}\n  ${label}: not one line on stderr: ${err}" PARENT_SCOPE)
  elseif(at EQUAL -1)
    set(failures "${failures}\n  ${label}: stderr lacks '${needle}': ${err}" PARENT_SCOPE)
  elseif(length GREATER 400)
    set(failures "${failures}\n  ${label}: a ${length}-character message: ${err}" PARENT_SCOPE)
  elseif(NOT out STREQUAL "")
    set(failures "${failures}\n  ${label}: printed on stdout: ${out}" PARENT_SCOPE)
  endif()
endfunction()
