# RC_PARAMS cannot produce a pass: with max_success=0 every property is "not
# run" and the run exits 1 (report, check, validate --exec, whose command is
# never called and so never "conforms"); an RC_PARAMS RapidCheck cannot read
# is bad input, exit 2 with one line naming the variable.
#
#   cmake -DPECHECK=... -DWORK_DIR=... -P rc_params.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

# RC_PARAMS=`params` pecheck ARGS...: exit `expected`, and `needle` in stdout
# (stderr when the status is 2).
function(expect label params expected needle)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "RC_PARAMS=${params}" ${PECHECK} ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(searched "${out}")
  if(status EQUAL 2)
    set(searched "${err}")
  endif()
  string(FIND "${searched}" "${needle}" at)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  elseif(at EQUAL -1)
    set(failures "${failures}\n  ${label}: the output lacks '${needle}':\n${out}${err}" PARENT_SCOPE)
  endif()
  set(last_out "${out}" PARENT_SCOPE)
endfunction()

set(property encoding-bounds/unit-interval)
expect("check, 0 cases" "max_success=0" 1 "${property}: not run (0 cases)" check ${property})
expect("check, 1 case" "max_success=1" 0 "${property}: held (1 case)" check ${property})

set(report_dir ${WORK_DIR}/report)
expect("report --quick, 0 cases" "max_success=0" 1 "not run" report --quick --no-performance --output-dir ${report_dir})
file(READ ${report_dir}/report.md markdown)
string(FIND "${markdown}" "All checks held" at)
if(NOT at EQUAL -1)
  set(failures "${failures}\n  report.md says 'All checks held' with 0 cases per property")
endif()
file(READ ${report_dir}/report.json json)
string(JSON status GET "${json}" summary status)
string(JSON not_run GET "${json}" summary not_run)
if(NOT status STREQUAL "not run" OR not_run LESS 1)
  set(failures "${failures}\n  report.json summary: status '${status}', not_run ${not_run}")
endif()
file(READ ${report_dir}/report.junit.xml junit)
if(NOT junit MATCHES "<error message=\"not run")
  set(failures "${failures}\n  report.junit.xml has no <error> for a property that was not run")
endif()

# The command appends a line to a marker at each call: the small first call
# (which finds the convention and shows the command runs) and no other.
set(marker ${WORK_DIR}/called)
file(REMOVE ${marker})
file(WRITE ${WORK_DIR}/counted.sh "echo call >> ${marker}\nexec ${PECHECK} table --convention vaswani --rows \"$1\" --dim \"$2\" --offset \"$3\" --output \"$4\"\n")
set(command "sh ${WORK_DIR}/counted.sh {rows} {dim} {offset} {output}")
# An instrumented pecheck as the command cannot start under --exec's default
# address-space limit (ASan reserves terabytes for its shadow memory,
# PecheckTests.cmake): in a sanitizer build the limit is lifted to 64 TiB.
set(exec_limit)
if(DEFINED ENV{PECHECK_SANITIZED})
  set(exec_limit --memory-limit 67108864)
endif()
expect("validate --exec, 0 cases" "max_success=0" 1 "not run: 1 check" validate --exec "${command}" --convention vaswani
       --check ${property} ${exec_limit})
set(calls 0)
if(EXISTS ${marker})
  file(STRINGS ${marker} calls)
  list(LENGTH calls calls)
endif()
if(NOT calls EQUAL 1)
  set(failures "${failures}\n  validate --exec called the command ${calls} times although no case ran (expected 1, the first call)")
endif()

foreach(unreadable IN ITEMS "max_success=many" "seed=" "max_success=-3" "noshrink=perhaps")
  expect("RC_PARAMS=${unreadable}" "${unreadable}" 2 "RC_PARAMS" check ${property})
  expect("report, RC_PARAMS=${unreadable}" "${unreadable}" 2 "RC_PARAMS" report --quick --no-performance
         --output-dir ${WORK_DIR}/bad)
endforeach()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "RC_PARAMS cases:${failures}")
endif()
