# pecheck rope: caches written for presets and config.json files, with the
# shapes, layouts and values NumPy reads back; bad usage and bad config files
# exit 2 with one line naming the flag or the file and field.
#
#   cmake -DPECHECK=... -DPYTHON=... -DWORK_DIR=... -P rope_cli.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)

function(expect_written label)
  execute_process(COMMAND ${PECHECK} ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  ${label}: exit status ${status}: ${out}${err}" PARENT_SCOPE)
  endif()
endfunction()

# NumPy reads the pair back: the shape, cos^2 + sin^2 = a^2 within float32
# rounding (4 float32 ulps of 1: two roundings squared and summed), and row 0
# at position 0 is cos 1 = a, sin 0 = 0 exactly.
function(expect_cache label cos sin rows cols attention first)
  execute_process(COMMAND ${PYTHON} -c "
import numpy as np, sys
c, s = np.load('${cos}').astype(np.float64), np.load('${sin}').astype(np.float64)
assert c.shape == (${rows}, ${cols}) == s.shape, (c.shape, s.shape)
a = ${attention}
err = np.abs(c * c + s * s - a * a).max()
assert err <= 4 * 2.0**-23 * a * a, err
if ${first} == 0:
    assert (c[0] == np.float32(a)).all() and (s[0] == 0).all(), (c[0][:4], s[0][:4])
" RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  ${label}: ${err}" PARENT_SCOPE)
  endif()
endfunction()

set(out --cos ${WORK_DIR}/cos.npy --sin ${WORK_DIR}/sin.npy)
expect_written("llama3.1 fast" rope --preset llama3.1 --rows 16 ${out})
expect_cache("llama3.1 fast" ${WORK_DIR}/cos.npy ${WORK_DIR}/sin.npy 16 128 1.0 0)
expect_written("yarn reference" rope --preset yarn --rows 8 --first-position 16777200 --impl reference ${out})
expect_cache("yarn reference" ${WORK_DIR}/cos.npy ${WORK_DIR}/sin.npy 8 128 "0.1 * np.log(4) + 1" 16777200)
expect_written("gpt-neox hf-float32" rope --preset gpt-neox --rows 4 --computation hf-float32 ${out})
expect_cache("gpt-neox hf-float32" ${WORK_DIR}/cos.npy ${WORK_DIR}/sin.npy 4 24 1.0 0)
expect_written("complex bfloat16" rope --preset llama2-meta --rows 4 --dtype bfloat16 ${out})
execute_process(COMMAND ${PYTHON} -c "
import numpy as np
c = np.load('${WORK_DIR}/cos.npy')
assert c.shape == (4, 64) and c.dtype == np.float32, (c.shape, c.dtype)
assert (c.view(np.uint32) & 0xFFFF == 0).all(), 'not bfloat16 values'
" RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  set(failures "${failures}\n  complex bfloat16: ${err}")
endif()

# A config.json (Mistral-7B-v0.3's rope fields) read as the mistral preset reads.
file(WRITE ${WORK_DIR}/config.json
     "{\"hidden_size\": 4096, \"num_attention_heads\": 32, \"head_dim\": 128, \"rope_theta\": 1000000.0}")
expect_written("config" rope --config ${WORK_DIR}/config.json --rows 8 --first-position 3000 ${out})
file(READ ${WORK_DIR}/cos.npy from_config HEX)
expect_written("mistral" rope --preset mistral --rows 8 --first-position 3000 ${out})
file(READ ${WORK_DIR}/cos.npy from_preset HEX)
if(NOT from_config STREQUAL from_preset)
  set(failures "${failures}\n  the config.json cache differs from the mistral preset's")
endif()
expect_written("config interleaved" rope --config ${WORK_DIR}/config.json --layout interleaved --rows 2 ${out})

file(WRITE ${WORK_DIR}/bad.json "{\"hidden_size\": 4096, \"num_attention_heads\": 32, \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8}}")
expect_refused("config without llama3's fields" "bad.json: field 'rope_scaling.low_freq_factor'" rope --config ${WORK_DIR}/bad.json --rows 2 ${out})
file(WRITE ${WORK_DIR}/broken.json "{\"rope_theta\": ")
expect_refused("config not JSON" "broken.json: not JSON" rope --config ${WORK_DIR}/broken.json --rows 2 ${out})
expect_refused("config missing" "cannot be read" rope --config ${WORK_DIR}/none.json --rows 2 ${out})
expect_refused("unknown preset" "--preset 'llama9' is unknown" rope --preset llama9 --rows 2 ${out})
expect_refused("no convention" "--preset or --config" rope --rows 2 ${out})
expect_refused("both" "excludes" rope --preset llama2 --config ${WORK_DIR}/config.json --rows 2 ${out})
expect_refused("layout with a preset" "--layout" rope --preset llama2 --layout interleaved --rows 2 ${out})
expect_refused("unknown model" "--computation 'hf-float8' is unknown" rope --preset llama2 --rows 2 --computation hf-float8 ${out})
# The fast hf-float32 path is within 0.5 + 2^-20 ULP of the model
# (rotary_model_fast.cpp); on these rows up to 2^20 it writes the
# reference's bytes (measured; a midpoint case could differ by one ULP).
expect_written("hf-float32 fast" rope --preset llama3.1 --rows 64 --first-position 1048513 --computation hf-float32
               --impl fast ${out})
file(READ ${WORK_DIR}/cos.npy fast_model HEX)
expect_written("hf-float32 reference" rope --preset llama3.1 --rows 64 --first-position 1048513
               --computation hf-float32 ${out})
file(READ ${WORK_DIR}/cos.npy reference_model HEX)
if(NOT fast_model STREQUAL reference_model)
  set(failures "${failures}\n  the fast hf-float32 cache differs from the reference's")
endif()
expect_refused("other model with fast" "hf-float32 only" rope --preset llama2 --rows 2 --computation float64 --impl fast ${out})
expect_refused("rows 0" "--rows" rope --preset llama2 --rows 0 ${out})
expect_refused("past 2^24" "leave [0, 2^24)" rope --preset llama2 --rows 2 --first-position 16777215 ${out})

execute_process(COMMAND ${PECHECK} conventions OUTPUT_VARIABLE listing RESULT_VARIABLE status)
foreach(name llama2 llama3.1 qwen2 mistral gpt-neox gpt-j phi3-longrope yarn hf-float32 "source: meta-llama/Llama-3.1-8B")
  string(FIND "${listing}" "${name}" at)
  if(at EQUAL -1 OR NOT status EQUAL 0)
    set(failures "${failures}\n  pecheck conventions does not list '${name}'")
  endif()
endforeach()

if(failures)
  message(FATAL_ERROR "pecheck rope:${failures}")
endif()
