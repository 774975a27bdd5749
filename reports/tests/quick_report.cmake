# Shared by the report script tests: quick_report(DIRECTORY [FLAGS...]) runs
# `pecheck report --quick FLAGS --output-dir WORK_DIR/DIRECTORY`, requires
# exit status 0 or 1 (a failed check is a report, not a crash), and checks the
# files with check_report_files.py: the JSON against its schema, one JUnit
# testcase per check, every figure inline.
# Needs PECHECK, WORK_DIR, PYTHON, CHECKER and SCHEMA (the tests' -D options).
function(quick_report directory)
  execute_process(COMMAND "${PECHECK}" report --quick ${ARGN} --output-dir "${WORK_DIR}/${directory}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 0 AND NOT status EQUAL 1)
    message(FATAL_ERROR "pecheck report --quick ${ARGN} (${directory}) exited with ${status}:\n${output}\n${errors}")
  endif()
  # The summary lists each file written by the path it has now.
  foreach(file IN ITEMS report.json report.junit.xml report.md report.html)
    string(FIND "${output}" "  ${WORK_DIR}/${directory}/${file}\n" listed)
    if(listed EQUAL -1)
      message(FATAL_ERROR "pecheck report --quick ${ARGN} (${directory}) does not list ${file} where it is:\n${output}")
    endif()
  endforeach()
  execute_process(COMMAND "${PYTHON}" "${CHECKER}" "${WORK_DIR}/${directory}" "${SCHEMA}" RESULT_VARIABLE invalid
                  ERROR_VARIABLE problems)
  if(invalid)
    message(FATAL_ERROR "pecheck report --quick ${ARGN} (${directory}): the files are not valid:\n${problems}")
  endif()
endfunction()
