# `pecheck sweep` and `pecheck merge` from the command line: shards merged
# give the bytes of the unsharded run, whatever the order of the files; the
# refusals exit 2 with one line naming the file and field or the flag.
#
#   cmake -DPECHECK=... -DWORK_DIR=... -P sweep_cli.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

# pecheck ARGS...: exit `expected`, and stderr containing `needle` on one line when exiting 2.
function(expect_status label expected needle)
  execute_process(COMMAND ${PECHECK} ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "\n$" "" line "${err}")
  string(FIND "${err}" "${needle}" at)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected}): ${out}${err}" PARENT_SCOPE)
  elseif(expected EQUAL 2 AND (line MATCHES "\n" OR at EQUAL -1))
    set(failures "${failures}\n  ${label}: stderr is not one line with '${needle}': ${err}" PARENT_SCOPE)
  endif()
endfunction()

set(work --convention fairseq --dim 6:10:2 --dtype bfloat16 --positions 3:49)
expect_status("unsharded" 0 "" sweep ${work} --output ${WORK_DIR}/whole.json)
foreach(k 0 1 2 3)
  expect_status("shard ${k}/4" 0 "" sweep ${work} --shard ${k}/4 --output ${WORK_DIR}/part${k}.json)
endforeach()
set(parts ${WORK_DIR}/part2.json ${WORK_DIR}/part0.json ${WORK_DIR}/part3.json ${WORK_DIR}/part1.json)
expect_status("merge" 0 "" merge ${parts} --output ${WORK_DIR}/merged.json)
file(READ ${WORK_DIR}/whole.json whole)
file(READ ${WORK_DIR}/merged.json merged)
if(NOT whole STREQUAL merged)
  set(failures "${failures}\n  the merged result differs from the unsharded run:\n${merged}\n---- unsharded:\n${whole}")
endif()
if(NOT whole MATCHES "\"verdict\": \"held\"" OR NOT whole MATCHES "\"entries\": 1128,")  # 47 rows x (6 + 8 + 10)
  set(failures "${failures}\n  the unsharded result is not 1128 entries held:\n${whole}")
endif()

# Refusals: missing, overlapping and foreign parts; bad flags.
expect_status("a missing shard" 2 "part3.json: field 'shard.positions' starts at row 38: rows 26:37 are in no part"
              merge ${WORK_DIR}/part0.json ${WORK_DIR}/part1.json ${WORK_DIR}/part3.json --output ${WORK_DIR}/m.json)
expect_status("a shard twice" 2 "overlaps" merge ${parts} ${WORK_DIR}/part1.json --output ${WORK_DIR}/m.json)
expect_status("other work" 0 "" sweep --convention fairseq --dim 6:10:2 --dtype float16 --positions 3:49 --shard 1/4
              --output ${WORK_DIR}/other.json)
expect_status("a part of other work" 2 "other.json: work.dtype is float16 where the first part has bfloat16"
              merge ${WORK_DIR}/part0.json ${WORK_DIR}/other.json ${WORK_DIR}/part2.json ${WORK_DIR}/part3.json
              --output ${WORK_DIR}/m.json)
file(WRITE ${WORK_DIR}/broken.json "{\"pecheck_sweep\": 2}")
expect_status("a part that is not a result" 2 "broken.json: field 'work.convention': missing"
              merge ${WORK_DIR}/broken.json --output ${WORK_DIR}/m.json)
if(EXISTS ${WORK_DIR}/m.json)
  set(failures "${failures}\n  a refused merge wrote its output")
endif()
expect_status("--shard 4/4" 2 "--shard: expected K/N with 0 <= K < N" sweep ${work} --shard 4/4 --output ${WORK_DIR}/x.json)
expect_status("--positions past 2^24" 2 "--positions: expected rows below 2^24" sweep --convention vaswani --dim 8
              --positions 0:16777216 --output ${WORK_DIR}/x.json)
expect_status("--dim 8:4" 2 "--dim: expected D, FIRST:LAST" sweep --convention vaswani --dim 8:4 --positions 0:9
              --output ${WORK_DIR}/x.json)
expect_status("an odd width tf-tutorial rejects" 2 "tf-tutorial" sweep --convention tf-tutorial --dim 7:8
              --positions 0:9 --output ${WORK_DIR}/x.json)
expect_status("more shards than rows" 2 "would leave some empty" sweep --convention vaswani --dim 8 --positions 0:2
              --shard 3/4 --output ${WORK_DIR}/x.json)
if(EXISTS ${WORK_DIR}/x.json)
  set(failures "${failures}\n  a refused sweep wrote its output")
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "pecheck sweep and merge:${failures}")
endif()
