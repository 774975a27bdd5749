# The command line's contracts under hostile use (issue 30): bad usage is exit
# 2 with one short line naming the flag, the file or the variable, before any
# long computation.
#
#   cmake -DPECHECK=... -DWORK_DIR=... -P hostile_contracts.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)
set(table ${PECHECK} table --convention vaswani)
execute_process(COMMAND ${table} --rows 4 --dim 8 --output ${WORK_DIR}/small.npy)

# A TMPDIR with a newline: exit 2 naming it (it was exit 1, a failed check).
file(MAKE_DIRECTORY "${WORK_DIR}/t\nd")
execute_process(COMMAND ${CMAKE_COMMAND} -E env "TMPDIR=${WORK_DIR}/t\nd"
                        ${PECHECK} validate --exec "cat > /dev/null" --exec-protocol lines --convention vaswani
                        --check encoding-bounds/unit-interval --cases 2
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "TMPDIR=" at)
if(NOT status EQUAL 2 OR at EQUAL -1)
  set(failures "${failures}\n  TMPDIR with a newline: exit ${status} (expected 2 naming TMPDIR): ${err}")
endif()

# sweep to an output no one can create: refused before the hours of work
# (the bound only keeps a regression from hanging the test).
execute_process(COMMAND ${PECHECK} sweep --convention vaswani --dim 512 --positions 0:16777215
                        --output /proc/pecheck-part.json
                TIMEOUT 60 RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "pecheck-part.json" at)
if(NOT status EQUAL 2 OR at EQUAL -1)
  set(failures "${failures}\n  sweep to /proc: exit ${status} (expected 2 at once, naming the file): ${err}")
endif()

# An instrumented pecheck as the command cannot start under --exec's default
# address-space limit (ASan reserves terabytes for its shadow memory,
# PecheckTests.cmake): in a sanitizer build the limit is lifted to 64 TiB.
set(exec_limit)
if(DEFINED ENV{PECHECK_SANITIZED})
  set(exec_limit --memory-limit 67108864)
endif()
# A command that hangs from its third call on: one timeout, then no more
# calls, and the run stops with exit 2 naming the call (issue 29).
set(count ${WORK_DIR}/calls)
file(WRITE ${count} "")
execute_process(COMMAND ${PECHECK} validate --exec
                        "echo call >> '${count}'; [ $(wc -l < '${count}') -gt 2 ] && exec sleep 100; ${PECHECK} table --convention vaswani --rows {rows} --dim {dim} --offset {offset} --dtype {dtype} --output {output}"
                        --convention vaswani --check encoding-bounds/unit-interval --cases 10 --timeout 1 ${exec_limit}
                TIMEOUT 120 RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(STRINGS ${count} calls)
list(LENGTH calls calls)
string(FIND "${out}${err}" "stopped, since a call that times out" at)
if(calls GREATER 3 OR at EQUAL -1 OR NOT status EQUAL 2)
  set(failures "${failures}\n  a command that hangs: called ${calls} times (expected 3, the third timing out), status ${status}:\n${out}${err}")
endif()

# The lock beside --output-dir is never followed through a symbolic link.
file(CREATE_LINK ${WORK_DIR}/target ${WORK_DIR}/.report.lock SYMBOLIC)
expect_refused("a symbolic link at the lock" "is a symbolic link" validate ${WORK_DIR}/small.npy --output-dir ${WORK_DIR}/report)
if(EXISTS ${WORK_DIR}/target)
  set(failures "${failures}\n  the lock's symbolic link was followed: ${WORK_DIR}/target was created")
endif()

# RC_PARAMS that configures nothing, and empty values.
execute_process(COMMAND ${CMAKE_COMMAND} -E env RC_PARAMS=garbage ${PECHECK} check encoding-bounds/unit-interval
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "RC_PARAMS" at)
if(NOT status EQUAL 2 OR at EQUAL -1)
  set(failures "${failures}\n  RC_PARAMS=garbage: exit ${status} (expected 2 naming RC_PARAMS): ${err}")
endif()
# (through sh: CMake drops an empty argument from a command line)
foreach(command "validate '${WORK_DIR}/small.npy' --output-dir ''" "report --quick --output-dir ''"
                "table --convention vaswani --rows 4 --dim 8 --output ''")
  execute_process(COMMAND sh -c "'${PECHECK}' ${command}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  refusal_problem("${status}" "${out}" "${err}")
  string(FIND "${err}" ": an empty value" at)
  if(NOT problem STREQUAL "" OR at EQUAL -1)
    set(failures "${failures}\n  ${command}: ${problem} ${err}")
  endif()
endforeach()

# Blanks in a number are refused by every command alike, naming the flag.
expect_refused("table --rows ' 5'" "--rows" table --convention vaswani --rows " 5" --dim 8 --output ${WORK_DIR}/x.npy)
expect_refused("rope --rows '5 '" "--rows" rope --preset llama2 --rows "5 " --cos ${WORK_DIR}/c.npy --sin ${WORK_DIR}/s.npy)
expect_refused("sweep --threads ' 2'" "--threads" sweep --convention vaswani --dim 4 --positions 0:3 --threads " 2"
               --output ${WORK_DIR}/p.json)
expect_refused("sweep --threads '2 '" "--threads" sweep --convention vaswani --dim 4 --positions 0:3 --threads "2 "
               --output ${WORK_DIR}/p.json)
expect_refused("validate --max-ulp ' 1'" "--max-ulp" validate ${WORK_DIR}/small.npy --max-ulp " 1")

# A huge value is quoted as an excerpt with its length, never whole.
string(REPEAT "9" 100000 digits)
expect_refused("a 100000-digit --rows" "(100000 bytes)" table --convention vaswani --rows "${digits}" --dim 8 --output ${WORK_DIR}/x.npy)
expect_refused("a 100000-byte stray argument" "bytes)" table --convention vaswani --rows 4 --dim 8 --output ${WORK_DIR}/x.npy "${digits}")

if(NOT failures STREQUAL "")
  string(SUBSTRING "${failures}" 0 6000 shown)
  message(FATAL_ERROR "command-line contracts:${shown}")
endif()
