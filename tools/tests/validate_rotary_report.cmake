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
  if(NOT status EQUAL expected_status)
    set(failures "${failures}\n  ${name}: exit status ${status} (expected ${expected_status})\n${out}${err}" PARENT_SCOPE)
    return()
  endif()
  foreach(file IN ITEMS validation.json validation.txt report.html report.md report.json report.junit.xml)
    if(NOT EXISTS ${dir}/${file})
      set(failures "${failures}\n  ${name}: --output-dir wrote no ${file}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  file(READ ${dir}/validation.json written)
  if(NOT written STREQUAL out)
    set(failures "${failures}\n  ${name}: validation.json differs from --json's output" PARENT_SCOPE)
  endif()
  execute_process(COMMAND ${PYTHON} ${CHECKER} ${dir} ${SCHEMA} RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  ${name}: the report files do not check out: ${err}" PARENT_SCOPE)
  endif()
  file(READ ${dir}/report.json json)
  string(JSON count ERROR_VARIABLE problem LENGTH "${json}" checks)
  if(problem)
    set(failures "${failures}\n  ${name}: report.json: ${problem}" PARENT_SCOPE)
    return()
  endif()
  file(READ ${dir}/report.junit.xml junit)
  foreach(expectation IN LISTS ARGN)
    string(REPLACE "=" ";" pair "${expectation}")
    list(GET pair 0 id)
    list(GET pair 1 verdict)
    report_verdict("${json}" ${id} found)
    if(NOT found STREQUAL verdict)
      set(failures "${failures}\n  ${name}: report.json has ${id} '${found}', expected '${verdict}'" PARENT_SCOPE)
    endif()
    # The JUnit testcase of a failed check carries a <failure>, a held one none.
    string(REGEX MATCH "<testcase[^>]*name=\"${id}\"[^>]*>[^<]*<failure" failed_case "${junit}")
    if(verdict STREQUAL "failed" AND NOT failed_case)
      set(failures "${failures}\n  ${name}: report.junit.xml has no <failure> for ${id}" PARENT_SCOPE)
    elseif(verdict STREQUAL "held" AND failed_case)
      set(failures "${failures}\n  ${name}: report.junit.xml fails ${id}, which held" PARENT_SCOPE)
    endif()
  endforeach()
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
