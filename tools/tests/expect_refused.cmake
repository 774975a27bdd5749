# expect_refused(label needle ARGS...) and expect_refused_matching(label
# regex ARGS...): shared by the command-line tests (include this file; it
# reads PECHECK and appends to the caller's `failures`). pecheck ARGS...
# must exit 2 with one line on stderr, containing `needle` or matching
# `regex`, nothing on stdout, and readable (CLI11's range messages printed
# 300-digit limits).

# What is wrong with a refusal, or "" when nothing is: set in the caller as `problem`.
function(refusal_problem status out err)
  string(REGEX REPLACE "\n$" "" line "${err}")
  string(LENGTH "${err}" length)
  set(problem "")
  if(NOT status EQUAL 2)
    set(problem "exit status ${status} (expected 2): ${out}${err}")
  elseif(line MATCHES "\n" OR line STREQUAL "")
    set(problem "not one line on stderr: ${err}")
  elseif(length GREATER 400)
    set(problem "a ${length}-character message: ${err}")
  elseif(NOT out STREQUAL "")
    set(problem "printed on stdout: ${out}")
  endif()
  set(problem "${problem}" PARENT_SCOPE)
endfunction()

function(expect_refused label needle)
  execute_process(COMMAND ${PECHECK} ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  refusal_problem("${status}" "${out}" "${err}")
  string(FIND "${err}" "${needle}" at)
  if(problem STREQUAL "" AND at EQUAL -1)
    set(problem "stderr lacks '${needle}': ${err}")
  endif()
  if(NOT problem STREQUAL "")
    set(failures "${failures}\n  ${label}: ${problem}" PARENT_SCOPE)
  endif()
endfunction()

function(expect_refused_matching label regex)
  execute_process(COMMAND ${PECHECK} ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  refusal_problem("${status}" "${out}" "${err}")
  if(problem STREQUAL "" AND NOT err MATCHES "${regex}")
    set(problem "stderr does not match '${regex}': ${err}")
  endif()
  if(NOT problem STREQUAL "")
    set(failures "${failures}\n  ${label}: ${problem}" PARENT_SCOPE)
  endif()
endfunction()
