# The report's performance section from the command line: `--quick
# --performance` times tiny sizes (a smoke test, never a timing test) and the
# files carry the section, valid against the schema; plain `--quick` leaves
# it out and says so in a note.
# Invoked by ctest with -DPECHECK=<the pecheck binary> -DWORK_DIR=<scratch>
# -DPYTHON=<python3> -DCHECKER=<check_report_files.py> -DSCHEMA=<schema file>.
file(REMOVE_RECURSE "${WORK_DIR}")

function(run_report directory)
  execute_process(COMMAND "${PECHECK}" report --quick ${ARGN} --output-dir "${WORK_DIR}/${directory}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 0 AND NOT status EQUAL 1)
    message(FATAL_ERROR "pecheck report --quick ${ARGN} exited with ${status}:\n${output}\n${errors}")
  endif()
  execute_process(COMMAND "${PYTHON}" "${CHECKER}" "${WORK_DIR}/${directory}" "${SCHEMA}" RESULT_VARIABLE invalid
                  ERROR_VARIABLE problems)
  if(invalid)
    message(FATAL_ERROR "pecheck report --quick ${ARGN}: the files are not valid:\n${problems}")
  endif()
endfunction()

function(expect_in file text)
  file(READ "${file}" content)
  string(FIND "${content}" "${text}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "${file} does not contain '${text}'")
  endif()
endfunction()

run_report(measured --performance)
file(READ "${WORK_DIR}/measured/report.json" json)
string(JSON kind TYPE "${json}" performance)
string(JSON targets LENGTH "${json}" performance targets)
string(JSON quick GET "${json}" performance conditions quick)
if(NOT kind STREQUAL "OBJECT" OR NOT targets EQUAL 5 OR NOT quick)
  message(FATAL_ERROR "report.json: performance is ${kind} with ${targets} targets (quick: ${quick}); expected an "
                      "object with 5 judged figures, marked quick")
endif()
expect_in("${WORK_DIR}/measured/report.md" "## Performance")
expect_in("${WORK_DIR}/measured/report.html" "<section id=\"performance\">")
expect_in("${WORK_DIR}/measured/report.json" "\"reproduce\": \"pecheck report --seed 0x00005eed20170612 --quick --performance\"")

run_report(unmeasured)
file(READ "${WORK_DIR}/unmeasured/report.json" json)
string(JSON kind TYPE "${json}" performance)
if(NOT kind STREQUAL "NULL")
  message(FATAL_ERROR "report.json of --quick: performance is ${kind}, expected null")
endif()
expect_in("${WORK_DIR}/unmeasured/report.md" "Performance not measured (--quick)")
file(REMOVE_RECURSE "${WORK_DIR}")
