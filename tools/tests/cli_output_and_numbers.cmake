# Issue 14's reliability of the command line itself: output that cannot be
# written (a full disk, a reader that is gone) is an error, exit 2 with a line
# on stderr; one number parser for every command (decimal: "010" is ten
# everywhere, "0x10" a refused count naming its flag); user text with control
# characters never breaks an error line.
#
#   cmake -DPECHECK=... -DWORK_DIR=... -P cli_output_and_numbers.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

# stdout to /dev/full, and to a pipe whose reader has exited.
execute_process(COMMAND sh -c "'${PECHECK}' conventions > /dev/full" RESULT_VARIABLE status ERROR_VARIABLE err)
string(FIND "${err}" "cannot write the output to stdout" at)
if(NOT status EQUAL 2 OR at EQUAL -1)
  set(failures "${failures}\n  > /dev/full: exit ${status} (expected 2 and a message): ${err}")
endif()
execute_process(COMMAND sh -c "(sleep 1; '${PECHECK}' conventions; echo $? > '${WORK_DIR}/status') | true"
                ERROR_VARIABLE err)
file(READ ${WORK_DIR}/status status)
string(STRIP "${status}" status)
string(FIND "${err}" "cannot write the output to stdout" at)
if(NOT status EQUAL 2 OR at EQUAL -1)
  set(failures "${failures}\n  a closed pipe: exit ${status} (expected 2 and a message): ${err}")
endif()

# "010" is ten in `table --rows` and `validate --offset` alike.
execute_process(COMMAND ${PECHECK} table --convention vaswani --rows 010 --dim 8 --offset 010
                        --output ${WORK_DIR}/ten.npy RESULT_VARIABLE status ERROR_VARIABLE err)
execute_process(COMMAND ${PECHECK} table --convention vaswani --rows 10 --dim 8 --offset 10
                        --output ${WORK_DIR}/ten-decimal.npy)
file(SHA256 ${WORK_DIR}/ten.npy leading_zero)
file(SHA256 ${WORK_DIR}/ten-decimal.npy decimal)
if(NOT status EQUAL 0 OR NOT leading_zero STREQUAL decimal)
  set(failures "${failures}\n  table --rows 010 --offset 010 is not --rows 10 --offset 10 (exit ${status}): ${err}")
endif()
execute_process(COMMAND ${PECHECK} validate ${WORK_DIR}/ten.npy --convention vaswani --offset 010
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "file row 0 holds convention row 10" at)
if(NOT status EQUAL 0 OR at EQUAL -1)
  set(failures "${failures}\n  validate --offset 010 is not ten (exit ${status}):\n${out}${err}")
endif()

# Refused the same way in every command, the flag named, on one line.
include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)
expect_refused("table --rows 0x10" "--rows" table --convention vaswani --rows 0x10 --dim 8 --output ${WORK_DIR}/x.npy)
expect_refused("validate --offset 0x10" "--offset" validate ${WORK_DIR}/ten.npy --offset 0x10)
expect_refused("validate --budget +5" "--budget" validate ${WORK_DIR}/ten.npy --budget +5)
expect_refused("bench --threads 1e3" "--threads" bench --threads 1e3)
expect_refused("a newline in a value" "--rows" table --convention vaswani --rows "1\n2" --dim 8 --output ${WORK_DIR}/x.npy)
expect_refused("a newline in a path" "x\\x0Ay.npy" validate "${WORK_DIR}/x\ny.npy")
string(ASCII 27 escape)
expect_refused("an escape in a path" "\\x1B[31m" validate "${WORK_DIR}/${escape}[31mred.npy")

# A report directory another run holds is refused at once (the lock is the
# flock of .NAME.lock beside it), and an --output-dir that cannot be written
# fails before any check runs.
execute_process(COMMAND flock ${WORK_DIR}/.locked.lock ${PECHECK} report --quick --no-performance
                        --output-dir ${WORK_DIR}/locked
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "another pecheck run is writing it" at)
if(NOT status EQUAL 2 OR at EQUAL -1 OR EXISTS ${WORK_DIR}/locked)
  set(failures "${failures}\n  a locked report directory: exit ${status} (expected 2, nothing written):\n${out}${err}")
endif()
file(WRITE ${WORK_DIR}/blocker "")
execute_process(COMMAND ${PECHECK} validate ${WORK_DIR}/ten.npy --output-dir ${WORK_DIR}/blocker/report
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "cannot write the report directory" at)
if(NOT status EQUAL 2 OR at EQUAL -1 OR NOT out STREQUAL "")
  set(failures "${failures}\n  an unwritable --output-dir: exit ${status} (expected 2 before any result):\n${out}${err}")
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "pecheck output and numbers:${failures}")
endif()
