# Rotary parameters whose cache cannot be finite or meaningful (issue 30) are
# refused when config.json is read, naming the field and the accepted range:
# a linear factor of 1e-320 once wrote an all-NaN cache with exit 0 and sent
# validate's position search into a loop of 1/factor steps (44 s at 1e-5, for
# ever at 1e-320); an attention factor of 1e308 wrote infinities.
#
#   cmake -DPECHECK=... -DWORK_DIR=... -P hostile_rotary_parameters.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)

set(cache --cos ${WORK_DIR}/cos.npy --sin ${WORK_DIR}/sin.npy)
set(model "\"head_dim\": 64, \"rope_theta\": 10000")
function(config name scaling)
  file(WRITE ${WORK_DIR}/${name}.json "{${model}, \"max_position_embeddings\": 4096, \"rope_scaling\": {${scaling}}}")
endfunction()

config(tiny_factor "\"rope_type\": \"linear\", \"factor\": 1e-320")
config(small_factor "\"rope_type\": \"linear\", \"factor\": 1e-5")
config(huge_factor "\"rope_type\": \"linear\", \"factor\": 1e300")
config(huge_attention "\"rope_type\": \"yarn\", \"factor\": 4, \"original_max_position_embeddings\": 4096, \"attention_factor\": 1e308")

expect_refused("rope: factor 1e-320" "tiny_factor.json: rotary convention 'config" rope --config ${WORK_DIR}/tiny_factor.json --rows 4 ${cache})
expect_refused_matching("rope: factor 1e-320 names the field and range"
                        "rope_scaling.factor is 9.99989e-321: .*expected every inv_freq in \\[2\\^-126, pi\\].*a factor in \\[0.31831, "
                        rope --config ${WORK_DIR}/tiny_factor.json --rows 4 ${cache})
expect_refused("rope: factor 1e300" "rope_scaling.factor is 1e+300" rope --config ${WORK_DIR}/huge_factor.json --rows 4 ${cache})
expect_refused("rope: attention factor 1e308" "rope_scaling.attention_factor is 1e+308, expected a number in [2^-14, 65504]"
               rope --config ${WORK_DIR}/huge_attention.json --rows 4 ${cache})

# validate --config reads the config before it looks at the cache; the run is
# bounded here only so that a regression fails instead of hanging ctest.
execute_process(COMMAND ${PECHECK} rope --preset llama2 --rows 64 ${cache} RESULT_VARIABLE status)
foreach(name tiny_factor small_factor)
  execute_process(COMMAND ${PECHECK} validate ${WORK_DIR}/cos.npy --sin ${WORK_DIR}/sin.npy --config ${WORK_DIR}/${name}.json
                  TIMEOUT 60 RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${err}" "rope_scaling.factor" at)
  if(NOT status EQUAL 2 OR at EQUAL -1)
    set(failures "${failures}\n  validate --config ${name}.json: exit ${status} (expected 2 naming rope_scaling.factor): ${err}")
  endif()
endforeach()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "hostile rotary parameters:${failures}")
endif()
