# Relative encodings end to end: `pecheck table` writes the table of a
# relative preset for its length (2L-1 rows for espnet-rel, an even count
# refused naming --rows), and `pecheck validate` names the convention, the
# position file row 0 holds and the direction, and conforms; a table NumPy
# computes as ESPnet does in float32 at L = 10000 deviates with
# angle-precision; a given relative convention is placed by the table's length.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_relative.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

include(${CMAKE_CURRENT_LIST_DIR}/validate_json_checks.cmake)

# name rows dtype impl: the first position is (rows - 1) / 2 or rows - 1.
foreach(spec IN ITEMS "espnet-rel;599;float32;fast;299" "transformer-xl;300;bfloat16;reference;299"
                      "nemo-rel;41;float16;reference;20")
  list(GET spec 0 name)
  list(GET spec 1 rows)
  list(GET spec 2 dtype)
  list(GET spec 3 impl)
  list(GET spec 4 first)
  set(file ${WORK_DIR}/${name}.npy)
  execute_process(COMMAND ${PECHECK} table --convention ${name} --rows ${rows} --dim 64 --dtype ${dtype}
                          --impl ${impl} --output ${file} RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  table ${name}: exit status ${status}: ${err}")
  endif()
  validate(${name} 0 ${file} --json)
  expect_json(${name} verdict conforms)
  expect_json(${name} first_position ${first})
  expect_json(${name} position_step -1)
  # ESPnet, NeMo and SpeechBrain build one table: detection names the first.
  if(name STREQUAL "transformer-xl")
    expect_json(${name} convention transformer-xl)
  else()
    expect_json(${name} convention espnet-rel)
  endif()
  validate(${name}-given 0 ${file} --json --convention ${name})
  expect_json(${name}-given convention ${name})
  expect_json(${name}-given first_position ${first})
endforeach()

execute_process(COMMAND ${PECHECK} table --convention espnet-rel --rows 10 --dim 8 --output ${WORK_DIR}/even.npy
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 2 OR NOT err MATCHES "--rows 10")
  set(failures "${failures}\n  an even row count for espnet-rel: exit status ${status} (expected 2 naming --rows): ${err}")
endif()

if(PYTHON)
  set(file ${WORK_DIR}/espnet_float32.npy)
  execute_process(COMMAND ${PYTHON} ${EXAMPLES}/numpy_tables.py espnet-rel 19999 64 0 float32 ${file} --angles float32)
  validate(espnet-float32 1 ${file} --json)
  expect_json(espnet-float32 verdict deviates)
  expect_json(espnet-float32 convention espnet-rel)
  expect_json(espnet-float32 first_position 9999)
  expect_json(espnet-float32 position_step -1)
  expect_json(espnet-float32 "hazards;0;kind" angle-precision)
endif()

if(failures)
  message(FATAL_ERROR "validate on relative encodings:${failures}")
endif()
