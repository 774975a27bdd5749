# `pecheck validate FILE` end to end: tables written by `pecheck table` in
# .npy and .safetensors conform (exit 0) with the JSON keys documented in
# validation_report.hpp; a NumPy table with the PyTorch tutorial's float32
# angles deviates (exit 1) with angle-precision; --output-dir writes the
# validation and the report of the checks on the file, as `pecheck report` does,
# with a reproduce line that writes them again.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_cli.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
include(${CMAKE_CURRENT_LIST_DIR}/report_checks.cmake)

include(${CMAKE_CURRENT_LIST_DIR}/validate_json_checks.cmake)

foreach(extension IN ITEMS npy safetensors)
  set(file ${WORK_DIR}/fairseq.${extension})
  execute_process(COMMAND ${PECHECK} table --convention fairseq --rows 40 --dim 33 --offset 0 --dtype bfloat16
                          --impl reference --output ${file})
  validate(${extension} 0 ${file} --json)
  expect_json(${extension} verdict conforms)
  expect_json(${extension} convention fairseq)
  expect_json(${extension} layout sin-cos-halves)
  expect_json(${extension} "frequency_rule;kind" timescale)
  expect_json(${extension} row_offset 0)
  expect_json(${extension} compared_as bfloat16)
  expect_json(${extension} "zero_rows;0" 1)
  foreach(key IN ITEMS max_ulp max_abs_error "worst;row" "worst;column" "worst;value" "worst;exact" hazards)
    string(JSON ignored ERROR_VARIABLE problem GET "${last_output}" ${key})
    if(problem)
      set(failures "${failures}\n  ${extension}: no ${key} in the JSON")
    endif()
  endforeach()
endforeach()

if(PYTHON)
  set(file ${WORK_DIR}/tutorial.npy)
  execute_process(COMMAND ${PYTHON} ${EXAMPLES}/numpy_tables.py pytorch-tutorial 600 64 0 float32 ${file})
  validate(tutorial 1 ${file} --json --output-dir ${WORK_DIR}/report)
  expect_json(tutorial verdict deviates)
  expect_json(tutorial convention vaswani)
  expect_json(tutorial "hazards;0;kind" angle-precision)
  foreach(name IN ITEMS validation.json validation.txt report.html report.md report.json report.junit.xml)
    if(NOT EXISTS ${WORK_DIR}/report/${name})
      set(failures "${failures}\n  --output-dir wrote no ${name}")
    endif()
  endforeach()
  # The report carries the comparison and the diagnosis as results: both
  # fail on float32 angles (angle-precision), the fault they name.
  if(EXISTS ${WORK_DIR}/report/report.json)
    file(READ ${WORK_DIR}/report/report.json json)
    foreach(expected IN ITEMS conformance/file-comparison conformance/file-diagnosis)
      report_verdict("${json}" ${expected} found)
      if(NOT found STREQUAL "failed")
        set(failures "${failures}\n  tutorial report: ${expected} is '${found}' (expected failed)")
      endif()
    endforeach()
  endif()
endif()

# A float64 table NumPy computes the ordinary way conforms by the
# float64-angle bound, and says so; the report's reproduce line names the
# file and the options given, and running it writes the same validation.
if(PYTHON)
  set(file ${WORK_DIR}/float64.npy)
  set(report_dir ${WORK_DIR}/float64-report)
  execute_process(COMMAND ${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani 300 32 0 float64 ${file} --angles float64)
  validate(float64 0 ${file} --json --max-ulp 1.5 --dtype float64 --offset 0 --output-dir ${report_dir})
  expect_json(float64 verdict conforms)
  expect_json(float64 "criterion;float64_angle_bound" ON)
  expect_json(float64 "angle_bound;entries_beyond_bound" 0)
  foreach(key IN ITEMS "worst;abs_error" "worst;ulp" "angle_bound;worst;value_hex" "angle_bound;worst;bound" "criterion;text")
    string(JSON ignored ERROR_VARIABLE problem GET "${last_output}" ${key})
    if(problem)
      set(failures "${failures}\n  float64: no ${key} in the JSON")
    endif()
  endforeach()
  file(READ ${report_dir}/report.json report)
  string(JSON reproduce ERROR_VARIABLE problem GET "${report}" configuration reproduce)
  foreach(part IN ITEMS "pecheck validate '${file}'" "--offset '0'" "--max-ulp '1.5'" "--dtype 'float64'"
                        "--output-dir '${report_dir}'")
    string(FIND "${reproduce}" "${part}" found)
    if(problem OR found EQUAL -1)
      set(failures "${failures}\n  the report's reproduce line '${reproduce}' lacks \"${part}\" ${problem}")
    endif()
  endforeach()
  file(READ ${report_dir}/validation.json first_validation)
  file(REMOVE_RECURSE ${report_dir})
  string(REGEX REPLACE "^pecheck " "'${PECHECK}' " replay "${reproduce}")
  execute_process(COMMAND sh -c "${replay}" RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT EXISTS ${report_dir}/validation.json)
    set(failures "${failures}\n  the reproduce line '${replay}' exited ${status}: ${err}")
  else()
    file(READ ${report_dir}/validation.json second_validation)
    file(READ ${report_dir}/report.json second_report)
    string(JSON second_reproduce ERROR_VARIABLE problem GET "${second_report}" configuration reproduce)
    if(NOT second_validation STREQUAL first_validation OR NOT second_reproduce STREQUAL reproduce)
      set(failures "${failures}\n  the reproduce line wrote another validation or reproduce line")
    endif()
  endif()
endif()

# JSON has no infinity: a table holding one reports it as the string
# "Infinity", as report.json does (its schema's "real"), never "inf".
if(PYTHON)
  set(file ${WORK_DIR}/infinity.npy)
  execute_process(COMMAND ${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani 64 16 0 float32 ${file})
  execute_process(COMMAND ${PYTHON} -c "
import sys
import numpy as np
t = np.load(sys.argv[1])
t[5, 3] = np.inf
np.save(sys.argv[1], t)
" ${file})
  validate(infinity 1 ${file} --json --convention vaswani --offset 0)
  expect_json(infinity max_abs_error Infinity)
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "pecheck validate:${failures}")
endif()
