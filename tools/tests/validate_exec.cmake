# `pecheck validate --exec`: a correct command conforms; a command that fails
# on its very first call is a broken subject (exit 2, one message with its
# output, not a traceback per check); a command that fails only on some calls
# is a reported failure with what it printed, never a crash of pecheck; a
# subtly wrong one is shrunk to its smallest failing call, printed as a
# command line.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_exec.cmake
set(good "${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani {rows} {dim} {offset} {dtype} {output}")
set(faulty "${PYTHON} ${EXAMPLES}/faulty_encoding.py")
set(failures "")

# pecheck validate --exec COMMAND ARGS...: the status must be `expected` and
# stdout (stderr when the status is 2) must contain `needle`.
function(expect label expected needle command)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env RC_PARAMS=noshrink=${NOSHRINK}
                          ${PECHECK} validate --exec "${command}" --convention vaswani ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  elseif(NOT needle STREQUAL "")
    set(searched "${out}")
    if(status EQUAL 2)
      set(searched "${err}")
    endif()
    string(FIND "${searched}" "${needle}" at)
    if(at EQUAL -1)
      set(failures "${failures}\n  ${label}: the output lacks '${needle}':\n${out}${err}" PARENT_SCOPE)
    endif()
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

# Broken commands fail on their first call: no shrinking needed to show them.
set(NOSHRINK 1)
set(one --check encoding-bounds/unit-interval --cases 2)
expect(correct 0 "conforms: 2 checks" "${good}" --check encoding-bounds/unit-interval --check conformance/any-position
       --cases 3)
# The seed is printed, as `pecheck check` and `pecheck report` print it, and
# one check is "1 check".
expect(one-check 0 "conforms: 1 check on" "${good}" ${one} --seed 0x2a)
string(FIND "${last_out}" "(seed 0x000000000000002a)" at)
if(at EQUAL -1)
  set(failures "${failures}\n  one-check: no '(seed 0x000000000000002a)' in:\n${last_out}")
endif()
expect(json-seed 0 "\"seed\": \"0x" "${good}" ${one} --json)

# RC_PARAMS's seed wins over --seed: one line says so, since the printed
# --seed (and a reproduce line's) is not the one the cases came from.
set(NOSHRINK "1 seed=7")
expect(rc-seed 0 "RC_PARAMS sets the seed: the cases came from seed 0x0000000000000007, not --seed 0x000000000000002a"
       "${good}" ${one} --seed 0x2a)
expect(rc-seed-json 0 "\"rc_params_seed\": \"0x0000000000000007\"" "${good}" ${one} --seed 0x2a --json)
set(NOSHRINK 1)
expect(no-rc-seed 0 "conforms" "${good}" ${one} --seed 0x2a)
string(FIND "${last_out}" "RC_PARAMS sets the seed" at)
if(NOT at EQUAL -1)
  set(failures "${failures}\n  no-rc-seed: an override is reported without one:\n${last_out}")
endif()

# A command that fails on its first call is broken: exit 2 with one message
# that shows the command, its status and what it printed, once.
expect(crash 2 "broken on purpose" "${faulty} crash {rows} {dim} {offset} {dtype} {output}" ${one})
expect(segfault 2 "killed by signal 11" "${faulty} segfault {rows} {dim} {offset} {dtype} {output}" ${one})
expect(no-file 2 "wrote no file" "${faulty} no-file {rows} {dim} {offset} {dtype} {output}" ${one} --json)
expect(missing-module 2 "exited with status 1"
       "${PYTHON} -c \"import pecheck_no_such_module\" {rows} {dim} {offset} {output}")
foreach(needle IN ITEMS "failed on its first call" "pecheck_no_such_module" "python")
  string(FIND "${last_err}" "${needle}" at)
  if(at EQUAL -1)
    set(failures "${failures}\n  missing-module: stderr lacks '${needle}':\n${last_err}")
  endif()
endforeach()
string(REGEX MATCHALL "\n" newlines "${last_err}")
list(LENGTH newlines lines)
string(FIND "${last_err}" "Traceback" first_traceback)
string(FIND "${last_err}" "Traceback" last_traceback REVERSE)
if(lines GREATER 13 OR NOT first_traceback EQUAL last_traceback)
  set(failures "${failures}\n  missing-module: ${lines} lines on stderr (expected the failure once, at most 13):\n${last_err}")
endif()
if(NOT last_out STREQUAL "")
  set(failures "${failures}\n  missing-module: printed checks on stdout:\n${last_out}")
endif()
# A template that cannot work is refused before anything runs.
expect(no-output 2 "lacks {rows}, {dim}, {offset}, {output}" "echo hi")
expect(no-dtype 2 "lacks {dtype}" "${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani {rows} {dim} {offset} float32 {output}"
       --exec-dtype float32 --exec-dtype float16)

# A hang on the first call is a broken command too (exit 2, one message).
expect(hang 2 "did not finish within 500 ms" "${faulty} hang {rows} {dim} {offset} {dtype} {output}" ${one}
       --timeout 0.5)
# Failures that are not the command being broken stay failures (exit 1): a
# wrong table, and a crash that happens only after a good call
# (validate_exec_reliability.cmake: a hang after a good call).
expect(wrong-shape 1 "table; expected" "${faulty} wrong-shape {rows} {dim} {offset} {dtype} {output}" ${one})
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
expect(later-crash 1 "exited with status 3"
       "if [ -e ${WORK_DIR}/called ]; then exit 3; fi; touch ${WORK_DIR}/called; ${good}" ${one})

# A table that is wrong only in its values: RapidCheck shrinks the case, and
# the smallest failing call is printed as a command line to run. The
# reproduce line carries every option that shapes the run (the formats, the
# seed, the case count), and running it fails again on the same call.
set(NOSHRINK 0)
expect(shrunk 1 "smallest failing call: ${faulty} float32-angles"
       "${faulty} float32-angles {rows} {dim} {offset} {dtype} {output}" --check encoding-bounds/unit-interval
       --check conformance/any-position --cases 10 --exec-dtype float32 --exec-dtype float16)
string(REGEX MATCH "  smallest failing call: ([^\n]*)\n  reproduce: ([^\n]*)" found "${last_out}")
set(smallest "${CMAKE_MATCH_1}")
set(reproduce "${CMAKE_MATCH_2}")
if(NOT found)
  set(failures "${failures}\n  shrunk: no smallest failing call and reproduce line:\n${last_out}")
else()
  foreach(needle IN ITEMS " --exec-dtype float32 --exec-dtype float16" " --seed 0x00005eed20170612" " --cases 10")
    string(FIND "${reproduce}" "${needle}" at)
    if(at EQUAL -1)
      set(failures "${failures}\n  shrunk: the reproduce line lacks '${needle}': ${reproduce}")
    endif()
  endforeach()
  string(REPLACE "pecheck validate " "'${PECHECK}' validate " replay "${reproduce}")
  execute_process(COMMAND sh -c "${replay}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${out}" "smallest failing call: ${smallest}" at)
  if(NOT status EQUAL 1 OR at EQUAL -1)
    set(failures "${failures}\n  shrunk: the reproduce line (status ${status}) does not fail on '${smallest}':\n${replay}\n${out}${err}")
  endif()
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "pecheck validate --exec:${failures}")
endif()
