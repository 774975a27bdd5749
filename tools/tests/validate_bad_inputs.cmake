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
                       "--dtype;bfloat16" "--dtype;int8" "--sample;0" "--tensor")
  math(EXPR count "${count} + 1")
  expect_bad_input("${flags}" ${good} ${flags})
endforeach()
math(EXPR count "${count} + 2")
expect_bad_input("no file")
expect_bad_input("file and --exec" ${good} --exec "true")

# Refused budgets, tolerances and flag combinations: exit 2, one line that
# names the flag (`needle`), short enough to read (CLI11's own range message
# printed the limits of a double, 300 digits).
function(expect_refused label needle)
  expect_bad_input("${label}" ${ARGN})
  execute_process(COMMAND ${PECHECK} validate ${ARGN} OUTPUT_QUIET ERROR_VARIABLE err)
  string(FIND "${err}" "${needle}" at)
  string(LENGTH "${err}" length)
  if(at EQUAL -1)
    set(failures "${failures}\n  ${label}: the message does not name '${needle}': ${err}" PARENT_SCOPE)
  elseif(length GREATER 400)
    set(failures "${failures}\n  ${label}: a ${length}-character message: ${err}" PARENT_SCOPE)
  endif()
endfunction()
# A NaN budget compares false against every error: it would pass any table.
foreach(flag IN ITEMS --max-ulp --max-abs-error)
  foreach(value IN ITEMS nan NaN inf -inf -1 -0.5 1e999)
    math(EXPR count "${count} + 1")
    expect_refused("${flag} ${value}" "${flag}" ${good} ${flag} ${value})
  endforeach()
endforeach()
expect_refused("--max-ulp nan --ulp-only" "--max-ulp" ${good} --max-ulp nan --ulp-only)
expect_refused("--sample 0" "expected a whole number >= 1, got '0'" ${good} --sample 0)
expect_refused("--sample -5" "--sample" ${good} --sample -5)
expect_refused("--sample with --full" "--full" ${good} --sample 100 --full)
expect_refused("--tensor on .npy" "--tensor" ${good} --tensor pe)
# Flags of --exec given with a FILE, and flags of a FILE given with --exec.
set(exec_command "true {rows} {dim} {offset} {output}")
foreach(flags IN ITEMS "--cases;3" "--timeout;5" "--check;encoding-bounds/unit-interval" "--quick" "--seed;1"
                       "--exec-dtype;float32")
  math(EXPR count "${count} + 1")
  list(GET flags 0 flag)
  expect_refused("FILE with ${flags}" "${flag} applies only with --exec" ${good} ${flags})
endforeach()
foreach(flags IN ITEMS "--max-ulp;1" "--max-abs-error;1e-6" "--sample;10" "--full" "--ulp-only" "--dtype;float32"
                       "--offset;0" "--tensor;pe" "--output-dir;${WORK_DIR}/unused")
  math(EXPR count "${count} + 1")
  list(GET flags 0 flag)
  expect_refused("--exec with ${flags}" "${flag} applies only to a FILE" --exec ${exec_command} --convention vaswani
                 ${flags})
endforeach()
foreach(flags IN ITEMS "--timeout;nan" "--timeout;0" "--timeout;-1" "--cases;0" "--seed;-1" "--seed;x")
  math(EXPR count "${count} + 1")
  list(GET flags 0 flag)
  expect_refused("--exec with ${flags}" "${flag}" --exec ${exec_command} --convention vaswani ${flags})
endforeach()
if(EXISTS ${WORK_DIR}/unused)
  set(failures "${failures}\n  a refused --exec run wrote its --output-dir")
endif()

# A .safetensors file with several tensors names them and the flag to choose.
if(PYTHON)
  execute_process(COMMAND ${PYTHON} -c "
import json, struct, sys
import numpy as np
a = np.zeros((4, 8), dtype=np.float32)
header = {'pe_a': {'dtype': 'F32', 'shape': [4, 8], 'data_offsets': [0, a.nbytes]},
          'pe_b': {'dtype': 'F32', 'shape': [4, 8], 'data_offsets': [a.nbytes, 2 * a.nbytes]}}
text = json.dumps(header).encode()
text += b' ' * (-len(text) % 8)
with open(sys.argv[1], 'wb') as f:
    f.write(struct.pack('<Q', len(text)) + text + a.tobytes() + a.tobytes())
" ${WORK_DIR}/two.safetensors RESULT_VARIABLE status)
  math(EXPR count "${count} + 1")
  foreach(needle IN ITEMS "pe_a" "pe_b" "--tensor NAME")
    expect_refused("two tensors (${needle})" "${needle}" ${WORK_DIR}/two.safetensors)
  endforeach()
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "validate mishandled bad inputs:${failures}")
endif()
if(count LESS 30)
  message(FATAL_ERROR "only ${count} bad inputs were tried (expected at least 30)")
endif()
message(STATUS "${count} bad inputs, each exit 2 with one line on stderr")
