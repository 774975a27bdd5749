# Runs `pecheck report --quick` twice into two fresh directories and requires
# byte-identical JSON and Markdown (same seed, same bytes), and well-formed
# exit statuses (0 or 1: a failed check is a report, not a crash).
# Invoked by ctest with -DPECHECK=<the pecheck binary> -DWORK_DIR=<scratch>.
file(REMOVE_RECURSE "${WORK_DIR}")
foreach(run IN ITEMS first second)
  execute_process(COMMAND "${PECHECK}" report --quick --output-dir "${WORK_DIR}/${run}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 0 AND NOT status EQUAL 1)
    message(FATAL_ERROR "pecheck report --quick (${run} run) exited with ${status}:\n${output}\n${errors}")
  endif()
endforeach()
foreach(file IN ITEMS report.json report.md report.junit.xml)
  if(NOT EXISTS "${WORK_DIR}/first/${file}")
    message(FATAL_ERROR "pecheck report did not write ${file}")
  endif()
endforeach()
foreach(file IN ITEMS report.json report.md)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORK_DIR}/first/${file}" "${WORK_DIR}/second/${file}"
                  RESULT_VARIABLE different)
  if(different)
    message(FATAL_ERROR "two runs with the same seed wrote different ${file}: see ${WORK_DIR}")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
