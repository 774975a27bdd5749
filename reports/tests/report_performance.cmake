# The report's performance section from the command line: `--quick
# --performance` times tiny sizes (a smoke test, never a timing test) and the
# files carry the section, valid against the schema; plain `--quick` leaves
# it out and says so in a note.
# Invoked by ctest with -DPECHECK=<the pecheck binary> -DWORK_DIR=<scratch>
# -DPYTHON=<python3> -DCHECKER=<check_report_files.py> -DSCHEMA=<schema file>.
include("${CMAKE_CURRENT_LIST_DIR}/quick_report.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")

function(expect_in file text)
  file(READ "${file}" content)
  string(FIND "${content}" "${text}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "${file} does not contain '${text}'")
  endif()
endfunction()

quick_report(measured --performance)
file(READ "${WORK_DIR}/measured/report.json" json)
string(JSON kind TYPE "${json}" performance)
string(JSON targets LENGTH "${json}" performance targets)
string(JSON quick GET "${json}" performance conditions quick)
# Judged in --quick: the three additive tables, the rotary cache, the input
# layer, the two additive references, the hf-float32 rotary model and the
# rotary reference (the command-line figures need full sizes).
if(NOT kind STREQUAL "OBJECT" OR NOT targets EQUAL 9 OR NOT quick)
  message(FATAL_ERROR "report.json: performance is ${kind} with ${targets} targets (quick: ${quick}); expected an "
                      "object with 9 judged figures (three tables, the rotary cache, the input layer, two "
                      "references, the rotary model and the rotary reference), marked quick")
endif()
expect_in("${WORK_DIR}/measured/report.md" "## Performance")
expect_in("${WORK_DIR}/measured/report.html" "<section id=\"performance\">")
expect_in("${WORK_DIR}/measured/report.json" "\"reproduce\": \"pecheck report --seed 0x00005eed20170612 --quick --performance\"")

quick_report(unmeasured)
file(READ "${WORK_DIR}/unmeasured/report.json" json)
string(JSON kind TYPE "${json}" performance)
if(NOT kind STREQUAL "NULL")
  message(FATAL_ERROR "report.json of --quick: performance is ${kind}, expected null")
endif()
expect_in("${WORK_DIR}/unmeasured/report.md" "Performance not measured (--quick)")
file(REMOVE_RECURSE "${WORK_DIR}")
