# `validate --exec` respects the model (issue 29): with --max-position and
# --dim, a module whose buffer covers only its length is never asked beyond
# it (examples/torch_model_length.py refuses, as an error reply, any position
# past MAX_LEN and logs every request); the first call is small; one progress
# line per call goes to stderr; the convention is detected from the first
# call when not given; a call that runs out of --memory-limit or past
# --timeout stops the run with exit 2 naming the call. Skipped, with a
# message, when torch cannot be imported (the memory and timeout cases need
# no torch and run first).
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_exec_limits.cmake
set(failures "")
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/expect_validate.cmake)
set(good "${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani {rows} {dim} {offset} {dtype} {output}")
set(good_shell "${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani")
set(one --check encoding-bounds/unit-interval --cases 2)

# The commands below hold ";", which a CMake list would split: each is a script.
file(WRITE ${WORK_DIR}/allocate.sh "${PYTHON} -c 'bytearray(2 << 30)'\n")
file(WRITE ${WORK_DIR}/allocate-later.sh
     "if [ -e ${WORK_DIR}/called ]; then exec sh ${WORK_DIR}/allocate.sh; fi\ntouch ${WORK_DIR}/called\nexec ${good_shell} \"$@\"\n")
file(WRITE ${WORK_DIR}/hang-later.sh
     "if [ -e ${WORK_DIR}/called ]; then exec sleep 3600; fi\ntouch ${WORK_DIR}/called\nexec ${good_shell} \"$@\"\n")

# A call past the memory limit (a 2 GiB bytearray under 300 MiB): exit 2,
# the call and the limit named, on the first call or any later one.
expect_validate(memory-first 2 "ran out of memory under the per-call limit of 0.29 GiB (314572800 bytes)"
                --exec "sh ${WORK_DIR}/allocate.sh {rows} {dim} {offset} {output}" --convention vaswani
                --memory-limit 300 ${one})
file(REMOVE ${WORK_DIR}/called)
expect_validate(memory-later 2 "stopped, since a call that times out or runs out of memory;--memory-limit;call 2: "
                --exec "sh ${WORK_DIR}/allocate-later.sh {rows} {dim} {offset} {dtype} {output}" --convention vaswani
                --memory-limit 300 ${one})
# Under the limit, the same command's good calls pass: the limit is what stopped it.
expect_validate(memory-enough 0 "conforms: 1 check" --exec "${good}" --convention vaswani --memory-limit 2000 ${one})
# A hang after good calls stops the run too, naming the call.
file(REMOVE ${WORK_DIR}/called)
expect_validate(timeout-later 2 "stopped, since a call that times out;did not finish within 3000 ms;the command `sh"
                --exec "sh ${WORK_DIR}/hang-later.sh {rows} {dim} {offset} {dtype} {output}" --convention vaswani
                --timeout 3 ${one})
# The convention detected from the first call, as file mode detects it.
expect_validate(detected 0 "detected from its first call: vaswani;conforms: 1 check" --exec "${good}" ${one})
# Flags of --exec refused for a file.
expect_validate(file-max-position 2 "--max-position applies only with --exec" ${EXAMPLES}/no-such.npy --max-position 10)

execute_process(COMMAND ${PYTHON} -c "import torch" RESULT_VARIABLE status ERROR_QUIET)
if(NOT status EQUAL 0)
  if(NOT failures STREQUAL "")
    message(FATAL_ERROR "validate --exec limits:${failures}")
  endif()
  message("pecheck-skip: ${PYTHON} cannot import torch (Debian 12: apt-get install python3-torch, as scripts/setup does)")
  return()
endif()

# The module of a model trained at 512 positions and width 64: every check
# held, nothing asked past position 511 or width 64, the first call small,
# a progress line per call.
set(log ${WORK_DIR}/asked.txt)
file(REMOVE ${log})
expect_validate(model-length 0 "conforms:;pecheck: call 1: ;positions 0..511 (--max-position), widths up to 64 (--dim)"
                --exec "exec ${PYTHON} ${EXAMPLES}/torch_model_length.py --serve 512 64 --log ${log}"
                --exec-protocol lines --convention vaswani --max-position 512 --dim 64 --cases 10 --quick)
file(STRINGS ${log} asked)
list(LENGTH asked calls)
set(largest_position -1)
set(largest_dim 0)
foreach(line IN LISTS asked)
  string(REPLACE " " ";" fields "${line}")
  list(GET fields 0 position)
  list(GET fields 1 dim)
  if(position GREATER largest_position)
    set(largest_position ${position})
  endif()
  if(dim GREATER largest_dim)
    set(largest_dim ${dim})
  endif()
endforeach()
list(GET asked 0 first)
message("model-length: ${calls} calls, largest position ${largest_position}, widest ${largest_dim}, first '${first}'")
if(largest_position GREATER 511 OR largest_dim GREATER 64)
  set(failures "${failures}\n  model-length: asked for position ${largest_position} at width ${largest_dim}")
endif()
# The limits are used, not shrunk to nothing: the last rows below 512 were asked for.
if(NOT largest_position EQUAL 511)
  set(failures "${failures}\n  model-length: the largest position asked was ${largest_position}, not 511")
endif()
string(REGEX MATCHALL "pecheck: call [0-9]+: " progress "${last_err}")
list(LENGTH progress progress_lines)
if(NOT progress_lines EQUAL calls)
  set(failures "${failures}\n  model-length: ${progress_lines} progress lines for ${calls} calls")
endif()
if(NOT first STREQUAL "63 64")
  set(failures "${failures}\n  model-length: the first call asked for '${first}', not 64 rows of width 64 (63 64)")
endif()

# Without the limits, the same module is asked past its length: the error
# reply is a reported failure (this is what --max-position prevents).
expect_validate(model-length-unbounded 1 "past the model's length 512"
                --exec "exec ${PYTHON} ${EXAMPLES}/torch_model_length.py --serve 512 64" --exec-protocol lines
                --convention vaswani --check conformance/any-position --cases 5)

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "validate --exec limits:${failures}")
endif()
