# `pecheck validate COS --sin SIN [--config config.json | --rope PRESET]` end
# to end, on caches examples/rope_caches.py writes with the Hugging Face
# formulas: a correct cache conforms (exit 0) with the convention read from a
# config.json or a preset; a fault deviates (exit 1) naming its hazard; one
# file holding both (a complex64 freqs_cis, a (2, L, d) stack) is read; bad
# inputs exit 2 with one line on stderr naming the file or flag.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_rotary.cmake
include(${CMAKE_CURRENT_LIST_DIR}/rope_cache_files.cmake)

function(check label expected pattern)
  execute_process(COMMAND ${PECHECK} validate ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  elseif(NOT "${out}${err}" MATCHES "${pattern}")
    set(failures "${failures}\n  ${label}: the output does not match '${pattern}':\n${out}${err}" PARENT_SCOPE)
  elseif(expected EQUAL 2)
    string(REGEX MATCHALL "\n" lines "${err}")
    list(LENGTH lines count)
    if(NOT count EQUAL 1)
      set(failures "${failures}\n  ${label}: expected one line on stderr:\n${err}" PARENT_SCOPE)
    endif()
  endif()
endfunction()

cache(llama31 --preset llama3.1 --rows 256 --first-position 9000)
cache(base --preset llama2 --rows 256 --base 500000)
cache(short --preset llama2 --rows 100)
# Gemma 3 (examples/model_configs): sliding layers at rope_local_base_freq, unscaled.
set(gemma ${EXAMPLES}/model_configs/gemma-3-4b.json)
cache(sliding --config ${gemma} --layer-type sliding_attention --rows 128)
cache(global --config ${gemma} --layer-type full_attention --rows 128)
file(WRITE ${WORK_DIR}/llama31.json [=[{"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0,
  "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
  "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}]=])
file(WRITE ${WORK_DIR}/broken.json "{\"rope_theta\": \"ten thousand\"}")
# Meta's precompute_freqs_cis as one complex64 file, and cos and sin stacked in one array.
execute_process(COMMAND ${PYTHON} -c "
import numpy as np, sys
d, rows = 128, 64
freqs = 1.0 / (10000.0 ** (np.arange(0, d, 2)[: d // 2].astype(np.float32) / d))
angles = np.outer(np.arange(rows, dtype=np.float32), freqs).astype(np.float32)
np.save(sys.argv[1] + '/complex.npy', (np.cos(angles) + 1j * np.sin(angles)).astype(np.complex64))
np.save(sys.argv[1] + '/stacked.npy', np.stack([np.load(sys.argv[1] + '/short.cos.npy'), np.load(sys.argv[1] + '/short.sin.npy')]))
np.save(sys.argv[1] + '/ids.npy', np.arange(6, dtype=np.int32).reshape(2, 3))
np.save(sys.argv[1] + '/odd.npy', np.ones((4, 3), dtype=np.float32))
" ${WORK_DIR} RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "writing the one-file caches failed: ${err}")
endif()

set(w ${WORK_DIR})
check(config 0 "conforms.*scaling llama3.*position 9000" ${w}/llama31.cos.npy --sin ${w}/llama31.sin.npy --config ${w}/llama31.json)
check(preset-json 0 "\"verdict\": \"conforms\"" ${w}/llama31.cos.npy --sin ${w}/llama31.sin.npy --rope llama3.1 --json)
check(wrong-base 1 "deviates.*hazard wrong-base: the frequencies follow base 500000" ${w}/base.cos.npy --sin ${w}/base.sin.npy --rope llama2)
check(complex 0 "conforms.*layout: complex" ${w}/complex.npy --rope llama2-meta)
check(stacked 0 "conforms" ${w}/stacked.npy --rope llama2)
check(shapes 2 "short.sin.npy: cos is 256 x 128, sin is 100 x 128" ${w}/llama31.cos.npy --sin ${w}/short.sin.npy --rope auto)
check(unknown-preset 2 "--rope 'nope': not a rotary preset" ${w}/short.cos.npy --sin ${w}/short.sin.npy --rope nope)
check(broken-config 2 "broken.json" ${w}/short.cos.npy --sin ${w}/short.sin.npy --config ${w}/broken.json)
check(integer-file 2 "ids.npy: dtype <i4: expected a float or complex cache" ${w}/ids.npy --rope auto)
check(one-table 2 "odd.npy: shape \\(4, 3\\)" ${w}/odd.npy --rope auto)
check(config-and-rope 2 "--config and --rope exclude each other" ${w}/short.cos.npy --sin ${w}/short.sin.npy --rope llama2 --config ${w}/llama31.json)
check(layer-found 0 "conforms.*follows the config's sliding_attention rule" ${w}/sliding.cos.npy --sin ${w}/sliding.sin.npy --config ${gemma})
check(layer-named 0 "conforms" ${w}/sliding.cos.npy --sin ${w}/sliding.sin.npy --config ${gemma} --layer-type sliding_attention)
check(layer-mismatch 1 "deviates.*hazard layer-type: the cache follows the config's full_attention rule" ${w}/global.cos.npy --sin ${w}/global.sin.npy --config ${gemma} --layer-type sliding_attention)
check(layer-unknown 2 "--layer-type 'chunked': expected one of the config's layer types: full_attention, sliding_attention" ${w}/global.cos.npy --sin ${w}/global.sin.npy --config ${gemma} --layer-type chunked)
check(layer-without-config 2 "--layer-type applies with --config" ${w}/global.cos.npy --sin ${w}/global.sin.npy --rope llama2 --layer-type full_attention)
check(model-without-rotary 2 "--model applies only to rotary caches" ${w}/short.cos.npy --model float64)
check(exec-with-rotary 2 "--convention does not apply to rotary caches" ${w}/short.cos.npy --sin ${w}/short.sin.npy --convention vaswani)
# A rotary cache producer over --exec (the torch example runs in
# validate_rotary_exec_torch.cmake): bad input exits 2 before any call, and a
# command that writes one table instead of a cache fails its blocks (exit 1).
set(writes_one_table "${PYTHON} -c \"__import__('numpy').save(__import__('sys').argv[1], __import__('numpy').zeros((3, 4)))\" {output} {rows} {dim} {offset}")
check(exec-rope-auto 2 "--exec with rotary caches needs the convention" --rope auto --exec "${writes_one_table}")
check(exec-placeholders 2 "lacks \\{dim\\}, \\{offset\\}, \\{output\\}" --rope llama2 --exec "true {rows}")
check(exec-and-file 2 "give the cache FILE or --exec, not both" ${w}/short.cos.npy --rope llama2 --exec "${writes_one_table}")
check(exec-and-sin 2 "--sin does not apply to a rotary cache producer" --sin ${w}/short.sin.npy --rope llama2 --exec "${writes_one_table}")
check(exec-unknown-model 2 "--model 'nope': not a computation model" --rope llama2 --model nope --exec "${writes_one_table}")
# Two blocks: llama2's 4096 positions hold the first rows and the last, not the long context.
check(exec-one-table 1 "wrote a file pecheck cannot read.*shape \\(3, 4\\).*deviates: 2 blocks" --rope llama2 --exec "${writes_one_table}")

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "validate --sin:${failures}")
endif()
message(STATUS "rotary caches: correct ones conform from a config.json or a preset, a wrong base is named, one-file caches are read, bad inputs exit 2")
