# Runs `pecheck report --quick` twice into two fresh directories and requires
# byte-identical JSON, Markdown, HTML and figures (same seed, same bytes;
# only the JUnit durations may differ), and exit statuses 0 or 1 (a failed
# check is a report, not a crash).
# Then checks the first directory's files with check_report_files.py: the
# JSON against its schema, one JUnit testcase per check, every figure inline.
# Invoked by ctest with -DPECHECK=<the pecheck binary> -DWORK_DIR=<scratch>
# -DPYTHON=<python3> -DCHECKER=<check_report_files.py> -DSCHEMA=<schema file>.
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
file(GLOB figures RELATIVE "${WORK_DIR}/first" "${WORK_DIR}/first/figures/*.svg")
if(NOT figures)
  message(FATAL_ERROR "pecheck report wrote no figures")
endif()
foreach(file IN ITEMS report.json report.md report.html ${figures})
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORK_DIR}/first/${file}" "${WORK_DIR}/second/${file}"
                  RESULT_VARIABLE different)
  if(different)
    message(FATAL_ERROR "two runs with the same seed wrote different ${file}: see ${WORK_DIR}")
  endif()
endforeach()
execute_process(COMMAND "${PYTHON}" "${CHECKER}" "${WORK_DIR}/first" "${SCHEMA}" RESULT_VARIABLE invalid
                ERROR_VARIABLE problems)
if(invalid)
  message(FATAL_ERROR "the report's files are not valid:\n${problems}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
