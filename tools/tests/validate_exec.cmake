# `pecheck validate --exec`: a correct command conforms; each broken one is a
# reported failure with what it printed, never a crash of pecheck; a subtly
# wrong one is shrunk to its smallest failing call, printed as a command line.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -P validate_exec.cmake
set(good "${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani {rows} {dim} {offset} {dtype} {output}")
set(faulty "${PYTHON} ${EXAMPLES}/faulty_encoding.py")
set(failures "")

# pecheck validate --exec COMMAND ARGS...: the status must be `expected` and
# the output must contain `needle`.
function(expect label expected needle command)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env RC_PARAMS=noshrink=${NOSHRINK}
                          ${PECHECK} validate --exec "${command}" --convention vaswani ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  elseif(NOT needle STREQUAL "")
    string(FIND "${out}" "${needle}" at)
    if(at EQUAL -1)
      set(failures "${failures}\n  ${label}: the output lacks '${needle}':\n${out}${err}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

# Broken commands fail on their first call: no shrinking needed to show them.
set(NOSHRINK 1)
set(one --check encoding-bounds/unit-interval --cases 2)
expect(correct 0 "conforms: 2 checks" "${good}" --check encoding-bounds/unit-interval --check conformance/any-position
       --cases 3)
expect(crash 1 "broken on purpose" "${faulty} crash {rows} {dim} {offset} {dtype} {output}" ${one})
expect(segfault 1 "killed by signal 11" "${faulty} segfault {rows} {dim} {offset} {dtype} {output}" ${one})
expect(hang 1 "did not finish within 500 ms" "${faulty} hang {rows} {dim} {offset} {dtype} {output}" ${one}
       --timeout 0.5)
expect(no-file 1 "wrote no file" "${faulty} no-file {rows} {dim} {offset} {dtype} {output}" ${one} --json)
expect(wrong-shape 1 "table; expected" "${faulty} wrong-shape {rows} {dim} {offset} {dtype} {output}" ${one})

# A table that is wrong only in its values: RapidCheck shrinks the case, and
# the smallest failing call is printed as a command line to run.
set(NOSHRINK 0)
expect(shrunk 1 "smallest failing call: ${faulty} float32-angles"
       "${faulty} float32-angles {rows} {dim} {offset} {dtype} {output}" --check encoding-bounds/unit-interval
       --check conformance/any-position --cases 10)

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "pecheck validate --exec:${failures}")
endif()
