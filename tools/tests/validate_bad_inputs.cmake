# Every malformed input makes `pecheck validate` exit 2 with one line on
# stderr that names the file (or the flag) and what is wrong, never a crash.
#
#   cmake -DPECHECK=... -DCORPUS_WRITERS="npy_test;safetensors_test" -DWORK_DIR=... -DPYTHON=... -P validate_bad_inputs.cmake
#
# The corpus is the readers' own malformed inputs (written by their tests
# with PECHECK_WRITE_CORPUS) plus inputs only validate rejects.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/corpus)
foreach(writer IN LISTS CORPUS_WRITERS)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PECHECK_WRITE_CORPUS=${WORK_DIR}/corpus ${writer}
                          --gtest_filter=*Malformed*
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${writer} failed while writing the corpus (status ${status})")
  endif()
endforeach()

# Tables validate itself rejects: no rows, and a file whose name is not a table's.
file(WRITE ${WORK_DIR}/corpus/not_a_table.txt "1 2 3\n")
file(MAKE_DIRECTORY ${WORK_DIR}/corpus/a_directory.npy)
if(PYTHON)
  execute_process(COMMAND ${PYTHON} -c "
import numpy as np, sys
d = sys.argv[1]
np.save(d + '/no_rows.npy', np.zeros((0, 8), dtype=np.float32))
np.save(d + '/no_columns.npy', np.zeros((4, 0), dtype=np.float32))
np.save(d + '/too_wide.npy', np.zeros((1, 16385), dtype=np.float32))
" ${WORK_DIR}/corpus RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "numpy could not write the empty tables")
  endif()
endif()

file(GLOB inputs ${WORK_DIR}/corpus/*)
list(APPEND inputs ${WORK_DIR}/corpus/missing_file.npy)
set(count 0)
set(failures "")
function(expect_bad_input label)
  execute_process(COMMAND ${PECHECK} validate ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "\n$" "" line "${err}")
  if(NOT status EQUAL 2)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected 2); stderr: ${err}" PARENT_SCOPE)
  elseif(line MATCHES "\n" OR line STREQUAL "")
    set(failures "${failures}\n  ${label}: not one line on stderr: ${err}" PARENT_SCOPE)
  elseif(NOT out STREQUAL "")
    set(failures "${failures}\n  ${label}: printed on stdout: ${out}" PARENT_SCOPE)
  endif()
endfunction()

foreach(input IN LISTS inputs)
  math(EXPR count "${count} + 1")
  get_filename_component(name ${input} NAME)
  expect_bad_input(${name} ${input})
  # The line names the file.
  execute_process(COMMAND ${PECHECK} validate ${input} ERROR_VARIABLE err OUTPUT_QUIET)
  string(FIND "${err}" "${name}" at)
  if(at EQUAL -1)
    set(failures "${failures}\n  ${name}: the message does not name the file: ${err}")
  endif()
endforeach()

# Bad flags on a good table.
set(good ${WORK_DIR}/good.npy)
execute_process(COMMAND ${PECHECK} table --convention vaswani --rows 4 --dim 8 --output ${good} RESULT_VARIABLE status)
foreach(flags IN ITEMS "--offset;-1" "--offset;abc" "--offset;16777215" "--convention;bogus" "--max-ulp;x"
                       "--dtype;bfloat16" "--dtype;int8" "--budget;0" "--tensor")
  math(EXPR count "${count} + 1")
  expect_bad_input("${flags}" ${good} ${flags})
endforeach()
math(EXPR count "${count} + 2")
expect_bad_input("no file")
expect_bad_input("file and --exec" ${good} --exec "true")

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "validate mishandled bad inputs:${failures}")
endif()
if(count LESS 30)
  message(FATAL_ERROR "only ${count} bad inputs were tried (expected at least 30)")
endif()
message(STATUS "${count} bad inputs, each exit 2 with one line on stderr")
