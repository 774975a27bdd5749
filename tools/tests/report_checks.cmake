# report_verdict(JSON ID OUT): OUT is the verdict report.json's check ID has,
# or "" when the report has no such check. Shared by the CLI tests that read
# the report `validate --output-dir` writes.
function(report_verdict json id out)
  set(found "")
  string(JSON count LENGTH "${json}" checks)
  math(EXPR last "${count} - 1")
  foreach(k RANGE ${last})
    string(JSON check_id GET "${json}" checks ${k} id)
    if(check_id STREQUAL id)
      string(JSON found GET "${json}" checks ${k} verdict)
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# expect_validated_report(NAME DIR EXPECTED_STATUS), inside a test's function
# right after execute_process(... RESULT_VARIABLE status OUTPUT_VARIABLE out
# ERROR_VARIABLE err) of `validate --json --output-dir DIR`: the exit status,
# the six files written, validation.json equal to what --json printed, and the
# report files against the schema (CHECKER, SCHEMA). A macro, so that its
# return() leaves the calling function; its failures are appended to the
# caller's own and handed to the script.
macro(expect_validated_report name dir expected_status)
  if(NOT status EQUAL ${expected_status})
    string(APPEND failures "\n  ${name}: exit status ${status} (expected ${expected_status})\n${out}${err}")
    set(failures "${failures}" PARENT_SCOPE)
    return()
  endif()
  foreach(file IN ITEMS validation.json validation.txt report.html report.md report.json report.junit.xml)
    if(NOT EXISTS ${dir}/${file})
      string(APPEND failures "\n  ${name}: --output-dir wrote no ${file}")
      set(failures "${failures}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  file(READ ${dir}/validation.json written)
  if(NOT written STREQUAL out)
    string(APPEND failures "\n  ${name}: validation.json differs from --json's output")
    set(failures "${failures}" PARENT_SCOPE)
  endif()
  execute_process(COMMAND ${PYTHON} ${CHECKER} ${dir} ${SCHEMA} RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    string(APPEND failures "\n  ${name}: the report files do not check out: ${err}")
    set(failures "${failures}" PARENT_SCOPE)
  endif()
endmacro()

# report_expectation_failures(OUT NAME JSON JUNIT ID=VERDICT...): OUT is the
# failure lines for the expectations report.json (JSON) and report.junit.xml
# (JUNIT) do not meet: the check's verdict, and a <failure> in the JUnit
# testcase of a failed check only.
function(report_expectation_failures out name json junit)
  set(found_failures "")
  foreach(expectation IN LISTS ARGN)
    string(REPLACE "=" ";" pair "${expectation}")
    list(GET pair 0 id)
    list(GET pair 1 verdict)
    report_verdict("${json}" ${id} found)
    if(NOT found STREQUAL verdict)
      set(found_failures "${found_failures}\n  ${name}: report.json has ${id} '${found}', expected '${verdict}'")
    endif()
    string(REGEX MATCH "<testcase[^>]*name=\"${id}\"[^>]*>[^<]*<failure" failed_case "${junit}")
    if(verdict STREQUAL "failed" AND NOT failed_case)
      set(found_failures "${found_failures}\n  ${name}: report.junit.xml has no <failure> for ${id}")
    elseif(verdict STREQUAL "held" AND failed_case)
      set(found_failures "${found_failures}\n  ${name}: report.junit.xml fails ${id}, which held")
    endif()
  endforeach()
  set(${out} "${found_failures}" PARENT_SCOPE)
endfunction()
