# pecheck-training --quick (the tiny plan: a few steps a run) twice with one
# seed writes the same bytes; another seed writes other numbers.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
foreach(run a b)
  execute_process(COMMAND ${TRAINING} --quick --seed 5 --output ${WORK_DIR}/${run}.json
                  RESULT_VARIABLE status ERROR_VARIABLE progress)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "pecheck-training --seed 5 exited ${status}: ${progress}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/a.json ${WORK_DIR}/b.json RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "the same seed gave different outcomes: ${WORK_DIR}/a.json and b.json")
endif()
execute_process(COMMAND ${TRAINING} --quick --seed 6 --output ${WORK_DIR}/c.json
                RESULT_VARIABLE status ERROR_QUIET)
file(READ ${WORK_DIR}/a.json first)
file(READ ${WORK_DIR}/c.json other)
string(FIND "${first}" "training-final-loss" has_loss)
if(has_loss EQUAL -1)
  message(FATAL_ERROR "no final loss in ${WORK_DIR}/a.json")
endif()
# The first statistic (an accuracy at the comparison step) is drawn anew with another seed.
string(REGEX MATCHALL "\"value\": [0-9.e+-]+" values_a "${first}")
string(REGEX MATCHALL "\"value\": [0-9.e+-]+" values_c "${other}")
if("${values_a}" STREQUAL "${values_c}")
  message(FATAL_ERROR "seeds 5 and 6 gave the same statistics")
endif()
# A bad flag is one line on stderr and exit 2.
execute_process(COMMAND ${TRAINING} --seed x --output ${WORK_DIR}/d.json RESULT_VARIABLE status ERROR_VARIABLE error)
if(NOT status EQUAL 2 OR NOT error MATCHES "--seed: expected a number")
  message(FATAL_ERROR "--seed x: exit ${status}, stderr: ${error}")
endif()
