# `pecheck validate OUT --input IN --positions POS` end to end, on outputs
# examples/rotated_outputs.py writes as transformers applies RoPE: a correct
# bfloat16 output conforms (exit 0) with the convention given or read from the
# data; a fault deviates (exit 1) naming its hazard; --output-dir writes the
# validation; bad inputs exit 2 with one line on stderr.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_rotated.cmake
include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/rotated_output_files.cmake)

rotated(good --preset llama2 --shape bshd --batch 1 --length 64 --heads 2 --dtype bfloat16 --first-position 3000)
rotated(angles --preset llama2 --shape ld --length 128 --first-position 5000 --angles float16)
check(given 0 "conforms" good --rope llama2)
check(detected 0 "conforms" good)
check(json 0 "\"kind\": \"rotated\"" good --rope llama2 --json)
check(fault 1 "hazard angle-precision" angles --rope llama2)
check(output-dir 0 "conforms" good --rope llama2 --output-dir ${WORK_DIR}/report)
if(NOT EXISTS ${WORK_DIR}/report/validation.json)
  set(failures "${failures}\n  --output-dir wrote no validation.json")
endif()
set(w ${WORK_DIR})
expect_refused("no positions" "--positions" validate ${w}/good.out.npy --input ${w}/good.in.npy)
expect_refused("a flag of another kind" "--sin" validate ${w}/good.out.npy --input ${w}/good.in.npy
               --positions ${w}/good.pos.npy --sin ${w}/good.in.npy)
expect_refused("another shape" "" validate ${w}/angles.out.npy --input ${w}/good.in.npy --positions ${w}/good.pos.npy)

if(failures)
  message(FATAL_ERROR "validate of rotated outputs:${failures}")
endif()
