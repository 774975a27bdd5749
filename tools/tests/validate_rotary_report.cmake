# `pecheck validate COS --sin SIN --rope PRESET --output-dir DIR` end to end:
# the directory holds validation.json and .txt and the report files; the
# report's JSON parses and matches reports/schema, its JUnit XML is well formed
# with one testcase per check (reports/tests/check_report_files.py);
# validation.json is what --json prints; a correct cache holds every check,
# and a cache with float16 angles fails the comparison and the diagnosis in
# both the JSON and the JUnit XML.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DCHECKER=... -DSCHEMA=... -DWORK_DIR=... -P validate_rotary_report.cmake
include(${CMAKE_CURRENT_LIST_DIR}/rope_cache_files.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/report_checks.cmake)

# Validates NAME's cache into WORK_DIR/NAME-report; checks the files, the
# schema, the agreement with --json, and the verdict of each check id given
# as ID=VERDICT in ARGN.
function(report name expected_status)
  set(dir ${WORK_DIR}/${name}-report)
  execute_process(COMMAND ${PECHECK} validate ${WORK_DIR}/${name}.cos.npy --sin ${WORK_DIR}/${name}.sin.npy
                          --rope llama2 --json --output-dir ${dir}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  expect_validated_report(${name} ${dir} ${expected_status})
  file(READ ${dir}/report.json json)
  string(JSON count ERROR_VARIABLE problem LENGTH "${json}" checks)
  if(problem)
    set(failures "${failures}\n  ${name}: report.json: ${problem}" PARENT_SCOPE)
    return()
  endif()
  file(READ ${dir}/report.junit.xml junit)
  report_expectation_failures(problems ${name} "${json}" "${junit}" ${ARGN})
  string(APPEND failures "${problems}")
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

cache(good --preset llama2 --rows 256)
cache(angles --preset llama2 --rows 256 --angles float16)
report(good 0 rotary/cache-comparison=held rotary/cache-diagnosis=held rotary/relative-position=held
       rotary/pair-norm=held)
# float16 angles: the values leave the budget and the diagnosis names the angles;
# the norms stay the attention factor (the angle's error moves no pair off the circle).
report(angles 1 rotary/cache-comparison=failed rotary/cache-diagnosis=failed rotary/pair-norm=held)
file(READ ${WORK_DIR}/angles-report/report.json angles_json)
string(FIND "${angles_json}" "angle-precision" at)
if(at EQUAL -1)
  set(failures "${failures}\n  angles: report.json does not name angle-precision")
endif()

if(failures)
  message(FATAL_ERROR "validate --output-dir on rotary caches:${failures}")
endif()
