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
