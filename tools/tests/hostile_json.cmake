# Hostile JSON inputs (issue 30): a config.json or a sweep part whose values
# nest 100000 deep, run 1 MB long or overflow a double is refused with exit 2
# and one short line naming the file (and the field when it is read), never a
# crash: such a value once overflowed the stack while its error message was
# being written. Also a --first-position whose sum with --rows passes INT64_MAX.
#
#   cmake -DPECHECK=... -DWORK_DIR=... -P hostile_json.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)

set(cache --cos ${WORK_DIR}/cos.npy --sin ${WORK_DIR}/sin.npy)
set(model "\"hidden_size\": 4096, \"num_attention_heads\": 32")

# 100000 opening brackets in a number field.
string(REPEAT "[" 100000 deep)
file(WRITE ${WORK_DIR}/deep.json "{${model}, \"head_dim\": ${deep}")
expect_refused("rope: a number field nested 100000 deep" "deep.json" rope --config ${WORK_DIR}/deep.json --rows 4 ${cache})
# The same, well formed (closed): the parser would build it.
string(REPEAT "]" 100000 closing)
file(WRITE ${WORK_DIR}/deep_closed.json "{${model}, \"head_dim\": ${deep}${closing}}")
expect_refused("rope: a closed value nested 100000 deep" "deep_closed.json: arrays and objects nest deeper than 64"
               rope --config ${WORK_DIR}/deep_closed.json --rows 4 ${cache})
# Shallow nesting reaches the field's check, which names the field and the type, not the value.
file(WRITE ${WORK_DIR}/nested.json "{${model}, \"head_dim\": [[[[1, 2, 3]]]]}")
expect_refused("rope: an array in head_dim" "nested.json: field 'head_dim': expected a whole number, found an array of 1 values"
               rope --config ${WORK_DIR}/nested.json --rows 4 ${cache})

# validate --config reads the config the same way (before the cache).
execute_process(COMMAND ${PECHECK} rope --preset llama2 --rows 4 ${cache} RESULT_VARIABLE status)
expect_refused("validate --config: nested 100000 deep" "deep_closed.json"
               validate ${WORK_DIR}/cos.npy --sin ${WORK_DIR}/sin.npy --config ${WORK_DIR}/deep_closed.json)

# A 1 MB string where a number belongs, and a number past a double's range:
# the line stays short and names the file.
string(REPEAT "x" 1000000 long_text)
file(WRITE ${WORK_DIR}/long.json "{${model}, \"head_dim\": \"${long_text}\"}")
expect_refused("rope: a 1 MB string in head_dim" "long.json: field 'head_dim': expected a whole number, found the string 'xxx"
               rope --config ${WORK_DIR}/long.json --rows 4 ${cache})
file(WRITE ${WORK_DIR}/long_type.json "{${model}, \"rope_scaling\": {\"rope_type\": \"${long_text}\", \"factor\": 2}}")
expect_refused("rope: a 1 MB rope_type" "(1000000 bytes)" rope --config ${WORK_DIR}/long_type.json --rows 4 ${cache})
file(WRITE ${WORK_DIR}/huge_number.json "{${model}, \"rope_theta\": 1e400}")
expect_refused("rope: 1e400" "huge_number.json: not JSON" rope --config ${WORK_DIR}/huge_number.json --rows 4 ${cache})
file(WRITE ${WORK_DIR}/unsigned.json "{${model}, \"max_position_embeddings\": 18446744073709551615}")
expect_refused("rope: 2^64 - 1" "field 'max_position_embeddings': expected a whole number below 2^63"
               rope --config ${WORK_DIR}/unsigned.json --rows 4 ${cache})

# A sweep part nested 100000 deep, and one with a deep value in a number field.
execute_process(COMMAND ${PECHECK} sweep --convention vaswani --dim 4 --positions 0:3 --output ${WORK_DIR}/part.json
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pecheck sweep could not write a part (exit ${status})")
endif()
file(READ ${WORK_DIR}/part.json part)
string(REPLACE "\"entries\": 16," "\"entries\": ${deep}${closing}," deep_part "${part}")
file(WRITE ${WORK_DIR}/deep_part.json "${deep_part}")
expect_refused("merge: a part nested 100000 deep" "deep_part.json: arrays and objects nest deeper than 64"
               merge ${WORK_DIR}/deep_part.json --output ${WORK_DIR}/merged.json)
string(REPLACE "\"entries\": 16," "\"entries\": [[[16]]]," nested_part "${part}")
file(WRITE ${WORK_DIR}/nested_part.json "${nested_part}")
expect_refused("merge: an array in entries" "nested_part.json: field 'entries': expected a whole number below 2^63, got an array of 1 values"
               merge ${WORK_DIR}/nested_part.json --output ${WORK_DIR}/merged.json)
string(REPLACE "\"dtype\": \"float32\"" "\"dtype\": \"${long_text}\"" long_part "${part}")
file(WRITE ${WORK_DIR}/long_part.json "${long_part}")
expect_refused("merge: a 1 MB dtype" "(1000000 bytes)" merge ${WORK_DIR}/long_part.json --output ${WORK_DIR}/merged.json)
string(REPLACE "\"entries\": 16," "\"entries\": 1e400," overflow_part "${part}")
file(WRITE ${WORK_DIR}/overflow_part.json "${overflow_part}")
expect_refused("merge: 1e400" "overflow_part.json: not JSON" merge ${WORK_DIR}/overflow_part.json --output ${WORK_DIR}/merged.json)

# --first-position near INT64_MAX: first + rows overflowed before the range check.
expect_refused("rope --first-position 2^63 - 2" "leave [0, 2^24)"
               rope --preset llama2 --rows 4 --first-position 9223372036854775806 ${cache})

# Under ulimit -v a config.json of 1.2 million values (3.6 MB) runs out of
# memory at some step, whichever the limit: each run exits 0 or 2 with at most
# one line on stderr, never aborts (std::bad_alloc once escaped a destructor
# as two lines and SIGABRT).
string(REPEAT "1," 59999 ones)
set(row "[${ones}1]")
string(REPEAT "${row}," 19 rows)
file(WRITE ${WORK_DIR}/large.json
     "{${model}, \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 2, \"x\": [${rows}${row}]}, \"y\": [${rows}${row}]}")
set(limits 20000 25000 30000 35000 40000 50000 60000)
if(DEFINED ENV{PECHECK_SANITIZED})
  set(limits)  # an ASan build cannot start under ulimit -v (PecheckTests.cmake)
endif()
foreach(limit IN LISTS limits)
  execute_process(COMMAND sh -c "ulimit -v ${limit}; exec '${PECHECK}' rope --config '${WORK_DIR}/large.json' --rows 4 --cos '${WORK_DIR}/c.npy' --sin '${WORK_DIR}/s.npy'"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "\n$" "" line "${err}")
  if(NOT (status EQUAL 0 OR status EQUAL 2) OR line MATCHES "\n")
    set(failures "${failures}\n  ulimit -v ${limit}: exit ${status}, stderr: ${err}")
  endif()
endforeach()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "hostile JSON inputs:${failures}")
endif()
