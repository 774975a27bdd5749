# Bad usage and bad output paths exit with status 2 and one line on stderr
# naming the flag or the path; nothing is written for a refused run.
# Invoked by ctest with -DPECHECK=<the pecheck binary> -DWORK_DIR=<scratch>.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(expect_usage_error description expected_text)
  execute_process(COMMAND "${PECHECK}" report ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output
                  ERROR_VARIABLE errors)
  if(NOT status EQUAL 2)
    message(FATAL_ERROR "${description}: expected exit status 2, got ${status}\n${output}\n${errors}")
  endif()
  string(FIND "${errors}" "${expected_text}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "${description}: stderr does not mention '${expected_text}':\n${errors}")
  endif()
endfunction()

expect_usage_error("--quick with --full" "--full" --quick --full)
expect_usage_error("an unknown flag" "--colour" --colour)
expect_usage_error("a seed that is not a number" "--seed" --seed twelve)
expect_usage_error("a negative seed (it would wrap to 0xffffffffffffffff)" "--seed: expected a seed" --seed -1)
expect_usage_error("a fault the matrix does not name" "--fault" --quick --fault no-such-fault)
file(WRITE "${WORK_DIR}/a-file" "not a directory")
expect_usage_error("an output directory that is a file" "${WORK_DIR}/a-file" --quick --output-dir "${WORK_DIR}/a-file")
file(REMOVE_RECURSE "${WORK_DIR}")
