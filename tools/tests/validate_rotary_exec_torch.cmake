# `pecheck validate --rope llama2 --exec ...` on examples/torch_rope.py: rotary
# caches built in PyTorch as Hugging Face's LlamaRotaryEmbedding builds them,
# driven over the same command protocol as additive tables, one-shot and with
# the lines protocol. A correct cache conforms (every block, both rotary
# checks); positions held in bfloat16 and angles rounded to float16 deviate,
# each naming its hazard; a command that fails its first call exits 2.
# Skipped, with a message, when torch cannot be imported.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_rotary_exec_torch.cmake
execute_process(COMMAND ${PYTHON} -c "import torch" RESULT_VARIABLE status ERROR_QUIET)
if(NOT status EQUAL 0)
  message("pecheck-skip: ${PYTHON} cannot import torch (Debian 12: apt-get install python3-torch, as scripts/setup does)")
  return()
endif()
file(MAKE_DIRECTORY ${WORK_DIR})
set(rope "${PYTHON} ${EXAMPLES}/torch_rope.py")
set(placeholders "{rows} {dim} {offset} {dtype} {output}")
set(failures "")

include(${CMAKE_CURRENT_LIST_DIR}/expect_validate.cmake)

# A correct cache: every block conforms and both rotary checks hold, the far
# block by the computation model's bound (its float32 angles err by up to 2^-4 rad).
# By default the blocks stay within llama2's max_position_embeddings (4096):
# the first rows and the last; --max-position 1048576 reaches the long context.
expect_validate(one-shot-correct 0 "conforms: 2 blocks;rows 3584..4095;positions 0..4095 (--max-position);rotary/relative-position: held;the computation model hf-float32's bound"
                --rope llama2 --exec "${rope} ${placeholders}")
set(long --max-position 1048576)
expect_validate(lines-correct-two-formats 0 "conforms: 6 blocks;in bfloat16" --rope llama2 --exec "exec ${rope} --serve"
                --exec-protocol lines --exec-dtype float32 --exec-dtype bfloat16 ${long})
# --json: one object, every block conforming, each with both rotary checks held.
execute_process(COMMAND ${PECHECK} validate --rope llama2 --json --exec "${rope} ${placeholders}" ${long}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(WRITE ${WORK_DIR}/exec.json "${out}")
execute_process(COMMAND ${PYTHON} -c "
import json, sys
r = json.load(open(sys.argv[1]))
blocks = r['blocks']
bad = [] if r['verdict'] == 'conforms' and len(blocks) == 3 else ['verdict ' + r['verdict'] + ', blocks ' + str(len(blocks))]
for b in blocks:
    held = sorted(c['check'] for c in b['checks'] if c['verdict'] == 'held')
    if not b['passed'] or held != ['rotary/pair-norm', 'rotary/relative-position']:
        bad.append('block at ' + str(b['first_position']) + ': passed ' + str(b['passed']) + ', held ' + str(held))
print('; '.join(bad))
sys.exit(1 if bad else 0)
" ${WORK_DIR}/exec.json RESULT_VARIABLE json_status OUTPUT_VARIABLE problems)
if(NOT status EQUAL 0 OR NOT json_status EQUAL 0)
  set(failures "${failures}\n  --json: exit ${status}: ${problems}${err}")
endif()

# The faults real code has (CONVENTIONS.md): each deviates, diagnosed.
expect_validate(bfloat16-positions 1 "deviates: 3 blocks;position-precision;rotary/relative-position: failed"
                --rope llama2 --exec "${rope} --fault bfloat16-positions ${placeholders}" ${long})
expect_validate(float16-angles 1 "deviates: 3 blocks;angle-precision;rotary/relative-position: failed"
                --rope llama2 --exec "exec ${rope} --fault float16-angles --serve" --exec-protocol lines ${long})
# The wrong convention: the cache is Llama 2's (base 10000), checked as Llama 3's.
expect_validate(wrong-base 1 "deviates:;wrong-base" --rope llama3 --exec "${rope} ${placeholders}")
# A command that cannot run is broken, not deviating.
expect_validate(broken 2 "failed on its first call" --rope llama2 --exec "${rope} --no-such-option ${placeholders}")

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "torch_rope.py with pecheck validate --exec:${failures}")
endif()
