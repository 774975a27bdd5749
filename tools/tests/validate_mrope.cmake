# `pecheck validate OUT --input IN --positions POS --config CONFIG` under
# M-RoPE (POS of shape (3, L) or (3, B, L)) and the proportional partial form,
# end to end on outputs examples/rotated_outputs.py writes from the model
# configs of examples/model_configs: correct ones conform (exit 0), faults
# deviate (exit 1) naming their hazard, and POS's rows against the convention
# exit 2 with one line naming POS.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_mrope.cmake
include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/rotated_output_files.cmake)

set(configs ${EXAMPLES}/model_configs)

rotated(qwen2vl --config ${configs}/qwen2-vl-7b.json --heads 2 --length 128 --first-position 30)
rotated(qwen3vl --config ${configs}/qwen3-vl-8b.json --shape bshd --batch 2 --heads 2 --length 64 --dtype bfloat16)
rotated(perbatch --config ${configs}/qwen2-vl-7b.json --shape bshd --batch 3 --heads 2 --length 64 --mrope-batch-ids)
rotated(offbyone --config ${configs}/qwen2-vl-7b.json --heads 2 --length 128 --mrope-fault ids-off-by-one)
rotated(fullhead --config ${configs}/qwen3.5-35b-a3b.json --heads 2 --length 128 --rotary-width 256)
rotated(gemma4 --config ${configs}/gemma-4-e2b.json --heads 2 --length 128 --first-position 9000)
rotated(pie603 --config ${configs}/qwen3.5-35b-a3b.json --heads 2 --length 128 --proportional)
rotated(text --preset qwen2 --heads 2 --length 64)

check(qwen2-vl 0 "conforms" qwen2vl --config ${configs}/qwen2-vl-7b.json)
check(qwen3-vl-batch 0 "conforms" qwen3vl --config ${configs}/qwen3-vl-8b.json)
check(qwen3-vl-preset 0 "conforms" qwen3vl --rope qwen3-vl)
check(per-batch-ids 0 "conforms" perbatch --config ${configs}/qwen2-vl-7b.json --qkv-format bshd)
check(off-by-one 1 "hazard position-offset: the kernel rotates by the height and width ids \\+ 1" offbyone
      --config ${configs}/qwen2-vl-7b.json)
check(partial-ignored 1 "hazard partial-width" fullhead --config ${configs}/qwen3.5-35b-a3b.json)
check(proportional 0 "conforms" gemma4 --config ${configs}/gemma-4-e2b.json --layer-type full_attention)
check(proportional-json 0 "\"kind\": \"rotated\"" gemma4 --rope gemma4-global --json)
check(pie-603 1 "pie-project/pie PR 603" pie603 --config ${configs}/qwen3.5-35b-a3b.json)

# The report's checks on rotated outputs turn each pair by its own section's id:
# the relative-position property holds on a correct image output.
check(report 0 "conforms" qwen2vl --config ${configs}/qwen2-vl-7b.json --output-dir ${WORK_DIR}/report)
file(READ ${WORK_DIR}/report/report.json report_json)
string(JSON checks_count LENGTH "${report_json}" checks)
set(relative "")
math(EXPR last "${checks_count} - 1")
foreach(k RANGE ${last})
  string(JSON id GET "${report_json}" checks ${k} id)
  if(id STREQUAL "rotary/rotated-relative-position")
    string(JSON relative GET "${report_json}" checks ${k} verdict)
  endif()
endforeach()
if(NOT relative STREQUAL "held")
  set(failures "${failures}\n  report: rotary/rotated-relative-position is '${relative}', expected held")
endif()

# Caches (pecheck validate COS --sin SIN): Gemma 4's proportional cache as NumPy
# writes it from the config conforms and is read as the full-attention rule; a
# truncated partial cache whose exponent runs over head_dim (pie PR 603) deviates.
function(cache name)
  execute_process(COMMAND ${PYTHON} ${EXAMPLES}/rope_caches.py ${ARGN} --rows 512 --cos ${WORK_DIR}/${name}.cos.npy
                          --sin ${WORK_DIR}/${name}.sin.npy RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "rope_caches.py ${ARGN} failed: ${err}")
  endif()
endfunction()
function(check_cache label expected pattern name)
  execute_process(COMMAND ${PECHECK} validate ${WORK_DIR}/${name}.cos.npy --sin ${WORK_DIR}/${name}.sin.npy ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL expected OR NOT "${out}${err}" MATCHES "${pattern}")
    set(failures "${failures}\n  ${label}: exit ${status} (expected ${expected}, '${pattern}'):\n${out}${err}"
        PARENT_SCOPE)
  endif()
endfunction()
cache(gemma4cache --config ${configs}/gemma-4-e2b.json)
cache(pie603cache --config ${configs}/qwen3.5-35b-a3b.json --partial-over-head-dim)
check_cache(proportional-cache 0 "follows the config's full_attention rule" gemma4cache
            --config ${configs}/gemma-4-e2b.json)
check_cache(proportional-cache-preset 0 "64 of 256 pairs turn" gemma4cache --rope gemma4-global)
check_cache(pie-603-cache 1 "hazard wrong-scaling" pie603cache --config ${configs}/qwen3.5-35b-a3b.json)

set(w ${WORK_DIR})
expect_refused("3-row POS without sections" "mrope_section" validate ${w}/qwen2vl.out.npy
               --input ${w}/qwen2vl.in.npy --positions ${w}/qwen2vl.pos.npy --rope qwen2)
expect_refused("1-row POS under M-RoPE" "(3, L)" validate ${w}/text.out.npy --input ${w}/text.in.npy
               --positions ${w}/text.pos.npy --config ${configs}/qwen2-vl-7b.json)
expect_refused("3-row POS with no convention" "no convention is given" validate ${w}/qwen2vl.out.npy
               --input ${w}/qwen2vl.in.npy --positions ${w}/qwen2vl.pos.npy)

if(failures)
  message(FATAL_ERROR "validate under M-RoPE and the proportional form:${failures}")
endif()
