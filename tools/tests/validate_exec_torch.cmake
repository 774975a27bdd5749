# examples/torch_tables.py against pecheck: tables from real PyTorch
# nn.Module buffers, one-shot and over the lines protocol (torch loads once).
# The default checks on a conforming module must take under 2 minutes with
# the lines protocol (issue 14); the tutorial's float32 module deviates.
# Skipped, with a message, when torch cannot be imported.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_exec_torch.cmake
execute_process(COMMAND ${PYTHON} -c "import torch" RESULT_VARIABLE status ERROR_QUIET)
if(NOT status EQUAL 0)
  message("pecheck-skip: ${PYTHON} cannot import torch (Debian 12: apt-get install python3-torch, as scripts/setup does)")
  return()
endif()
set(torch "${PYTHON} ${EXAMPLES}/torch_tables.py")
set(failures "")

include(${CMAKE_CURRENT_LIST_DIR}/expect_validate.cmake)

# The default checks (every encoding-bounds and conformance check) on a
# module computed in float64, all four formats, torch loaded once.
expect_validate(lines-default-checks 0 "conforms:" --exec "exec ${torch} --serve float64-module" --exec-protocol lines
                --convention vaswani --exec-dtype float64 --exec-dtype float32 --exec-dtype float16 --exec-dtype bfloat16)
if(last_seconds GREATER_EQUAL 120)
  set(failures "${failures}\n  lines-default-checks: took ${last_seconds} s (the target is under 2 minutes)")
endif()
# The tutorial's module (float32 angles) deviates, over either protocol.
expect_validate(lines-tutorial 1 "deviates:" --exec "exec ${torch} --serve pytorch-tutorial" --exec-protocol lines
                --convention vaswani --check conformance/any-position --cases 5)
expect_validate(one-shot-fairseq 0 "conforms: 1 check" --exec "${torch} fairseq {rows} {dim} {offset} {dtype} {output}"
                --convention fairseq --check encoding-bounds/unit-interval --cases 2)

# A table file from a module buffer, validated as a file: the convention is found.
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${PYTHON} ${EXAMPLES}/torch_tables.py float64-module 512 64 0 float32 ${WORK_DIR}/module.npy
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  set(failures "${failures}\n  module.npy: torch_tables.py failed:\n${err}")
else()
  expect_validate(file-from-module 0 "convention: vaswani" ${WORK_DIR}/module.npy)
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "torch_tables.py with pecheck:${failures}")
endif()
