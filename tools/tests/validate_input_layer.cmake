# `pecheck validate OUTPUT --vocabulary VOCAB --ids IDS [--positions POS]` end
# to end, on input layers written by examples/numpy_input_layer.py: a correct
# layer conforms (exit 0); each scale fault deviates (exit 1) with its name on
# the scale line; the JSON names the match; bad inputs exit 2 with one line on
# stderr naming the file and what is wrong.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_input_layer.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

function(layer prefix)
  execute_process(COMMAND ${PYTHON} ${EXAMPLES}/numpy_input_layer.py ${ARGN} ${WORK_DIR}/${prefix}
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "numpy_input_layer.py ${ARGN} failed: ${err}")
  endif()
endfunction()

function(check label expected pattern prefix)
  execute_process(COMMAND ${PECHECK} validate ${WORK_DIR}/${prefix}.output.npy --vocabulary ${WORK_DIR}/${prefix}.vocab.npy
                          --ids ${WORK_DIR}/${prefix}.ids.npy ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(last_output "${out}" PARENT_SCOPE)
  # The text is wrapped under 100 characters: a pattern may span a line break.
  string(REGEX REPLACE "\n +" " " unwrapped "${out}")
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  elseif(NOT unwrapped MATCHES "${pattern}")
    set(failures "${failures}\n  ${label}: the output does not match '${pattern}':\n${out}" PARENT_SCOPE)
  endif()
endfunction()

layer(correct vaswani 4 32 64 float32 sqrt)
layer(missing vaswani 4 32 64 float32 one)
layer(twice vaswani 4 32 64 float32 twice)
layer(divided vaswani 4 32 64 float32 divided)
layer(other vaswani 4 32 64 float32 7.5)
layer(gemma vaswani 4 16 3072 bfloat16 sqrt-bfloat16)
layer(fairseq fairseq 4 32 64 float32 sqrt --first-position 2)
layer(single vaswani 1 32 64 float32 sqrt)
# Correct narrow layers whose roundings bias the estimate past the spread independent roundings
# would give (the encoding held in float32, the sum rounded once): once "deviates", now predicted
# with the layer's own roundings.
layer(bf1024 vaswani 64 16 1024 bfloat16 sqrt --encoding-dtype float32)
layer(bf3072 vaswani 16 16 3072 bfloat16 sqrt --encoding-dtype float32)
layer(bf4096 vaswani 16 16 4096 bfloat16 sqrt --encoding-dtype float32)
layer(half1024 vaswani 16 16 1024 float16 sqrt --encoding-dtype float32)

check(correct 0 "scale: conforms: sqrt\\(d\\)" correct)
check(missing 1 "scale: deviates: sqrt\\(d\\) missing: 1 instead of 8" missing)
check(twice 1 "scale: deviates: sqrt\\(d\\) applied twice: 64 instead of 8" twice)
check(divided 1 "scale: deviates: divided by sqrt\\(d\\) instead of multiplied: 0.125 instead of 8" divided)
check(other 1 "scale: deviates: a scale that is none of the known faults: 7.5 instead of 8" other)
foreach(prefix bf1024 bf3072 bf4096 half1024)
  check(${prefix} 0 "scale: conforms: sqrt\\(d\\).*expected .* off by 0, tolerance" ${prefix})
endforeach()
check(gemma 1 "scale: deviates: sqrt\\(d\\) rounded to bfloat16: 55.5 instead of 55.4256" gemma)
check(fairseq 0 "positions 2..33" fairseq --positions ${WORK_DIR}/fairseq.positions.npy)
# A single sequence: s is fitted against the named convention's encoding.
check(single 0 "tokens of a single sequence against the convention's encoding" single --convention vaswani)
check(json 1 "\"verdict\"" missing --json)
string(JSON match ERROR_VARIABLE problem GET "${last_output}" scale match name)
if(problem OR NOT match STREQUAL "sqrt(d) missing")
  set(failures "${failures}\n  json: scale.match.name is '${match}' (expected 'sqrt(d) missing') ${problem}")
endif()

# Bad inputs: exit 2, one line on stderr, naming what is wrong.
execute_process(COMMAND ${PYTHON} -c "
import numpy as np, sys
d = sys.argv[1]
ids = np.load(d + '/correct.ids.npy')
ids[1, 5] = 97
np.save(d + '/bad_ids.npy', ids)
np.save(d + '/float_ids.npy', ids.astype(np.float32))
np.save(d + '/int32.ids.npy', np.load(d + '/correct.ids.npy').astype(np.int32))
np.save(d + '/int32.output.npy', np.load(d + '/correct.output.npy'))
np.save(d + '/int32.vocab.npy', np.load(d + '/correct.vocab.npy'))
np.save(d + '/short.output.npy', np.load(d + '/correct.output.npy')[:, :31, :])
" ${WORK_DIR} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "numpy could not write the bad inputs")
endif()
set(correct --vocabulary ${WORK_DIR}/correct.vocab.npy)
include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)
expect_refused_matching("id out of range" "bad_ids.npy: id 97 at index \\(1, 5\\) is out of range" validate
           ${WORK_DIR}/correct.output.npy ${correct} --ids ${WORK_DIR}/bad_ids.npy)
expect_refused_matching("float ids" "float_ids.npy: dtype '<f4'" validate ${WORK_DIR}/correct.output.npy ${correct} --ids ${WORK_DIR}/float_ids.npy)
expect_refused_matching("short output" "short.output.npy: shape \\(4, 31, 64\\) does not match .*expected \\(4, 32, 64\\)" validate
           ${WORK_DIR}/short.output.npy ${correct} --ids ${WORK_DIR}/correct.ids.npy)
expect_refused_matching("single sequence" "single.output.npy: no position holds two tokens" validate
           ${WORK_DIR}/single.output.npy --vocabulary ${WORK_DIR}/single.vocab.npy --ids ${WORK_DIR}/single.ids.npy)
expect_refused_matching("no ids" "--vocabulary and --ids go together" validate ${WORK_DIR}/correct.output.npy ${correct})
expect_refused_matching("--offset" "--offset does not apply" validate ${WORK_DIR}/correct.output.npy ${correct}
           --ids ${WORK_DIR}/correct.ids.npy --offset 3)
expect_refused_matching("missing vocabulary" "nowhere.npy" validate ${WORK_DIR}/correct.output.npy --vocabulary ${WORK_DIR}/nowhere.npy
           --ids ${WORK_DIR}/correct.ids.npy)
# int32 ids read as well as int64.
check(int32 0 "conforms" int32)

# --output-dir writes the input layer's validation (validation.json and
# .txt, the recovered encoding nested in it), as `validate FILE --output-dir`
# writes a table's (no check report: its ULP budgets do not apply to an
# estimate).
set(report_dir ${WORK_DIR}/report)
check(output-dir 1 "scale: deviates" missing --output-dir ${report_dir})
foreach(name IN ITEMS validation.json validation.txt)
  if(NOT EXISTS ${report_dir}/${name})
    set(failures "${failures}\n  output-dir: no ${name} in ${report_dir}")
  endif()
endforeach()
if(EXISTS ${report_dir}/validation.json)
  # The scale deviates; the encoding recovered with the measured scale conforms.
  file(READ ${report_dir}/validation.json layer)
  foreach(expected IN ITEMS "verdict=deviates" "kind=input-layer" "encoding;verdict=conforms")
    string(REPLACE "=" ";" pair "${expected}")
    list(POP_BACK pair want)
    string(JSON got ERROR_VARIABLE problem GET "${layer}" ${pair})
    if(problem OR NOT got STREQUAL want)
      set(failures "${failures}\n  output-dir: validation.json ${pair} is '${got}' (expected ${want}) ${problem}")
    endif()
  endforeach()
  file(READ ${report_dir}/validation.txt validation_text)
  string(FIND "${validation_text}" "  recovered encoding: conforms" at)
  if(at EQUAL -1)
    set(failures "${failures}\n  output-dir: validation.txt does not show the recovered encoding:\n${validation_text}")
  endif()
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "validate --vocabulary:${failures}")
endif()
message(STATUS "input layers: the correct ones conform, each scale fault is named, bad inputs exit 2")
