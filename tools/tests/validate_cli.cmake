# `pecheck validate FILE` end to end: tables written by `pecheck table` in
# .npy and .safetensors conform (exit 0) with the JSON keys documented in
# validation_report.hpp; a NumPy table with the PyTorch tutorial's float32
# angles deviates (exit 1) with angle-precision; --output-dir writes the
# validation and the report of the checks on the file, as `pecheck report` does.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_cli.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

function(validate label expected)
  execute_process(COMMAND ${PECHECK} validate ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(last_output "${out}" PARENT_SCOPE)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  endif()
endfunction()

function(expect_json label key expected)
  string(JSON value ERROR_VARIABLE problem GET "${last_output}" ${key})
  if(problem OR NOT value STREQUAL expected)
    set(failures "${failures}\n  ${label}: ${key} is '${value}' (expected '${expected}') ${problem}" PARENT_SCOPE)
  endif()
endfunction()

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
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "pecheck validate:${failures}")
endif()
