# Runs `pecheck report --quick` twice into two fresh directories, each run's
# files valid (quick_report.cmake), and requires byte-identical JSON,
# Markdown, HTML and figures (same seed, same bytes; only the JUnit durations
# may differ).
# Invoked by ctest with -DPECHECK=<the pecheck binary> -DWORK_DIR=<scratch>
# -DPYTHON=<python3> -DCHECKER=<check_report_files.py> -DSCHEMA=<schema file>.
include("${CMAKE_CURRENT_LIST_DIR}/quick_report.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
quick_report(first)
quick_report(second)
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
file(REMOVE_RECURSE "${WORK_DIR}")
