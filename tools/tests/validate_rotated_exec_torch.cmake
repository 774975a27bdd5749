# `pecheck validate --kernel --rope PRESET --exec ...` on examples/rope_kernels.py:
# RoPE kernels written in PyTorch as transformers, Meta's reference and a
# float32 kernel apply the rotation, driven over the one-shot and the lines
# protocols. pecheck writes IN and POS, the kernel writes OUT; each call is
# validated as a rotated output file is. The correct forms conform in
# float32 and bfloat16, each fault deviates naming its hazard, positions stay
# below --max-position, --output-dir writes each call's checks on rotated
# outputs into a report, and a kernel that fails its first call exits 2.
# Skipped, with a message, when torch cannot be imported.
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DCHECKER=... -DSCHEMA=... -DWORK_DIR=... -P validate_rotated_exec_torch.cmake
execute_process(COMMAND ${PYTHON} -c "import torch" RESULT_VARIABLE status ERROR_QUIET)
if(NOT status EQUAL 0)
  message("pecheck-skip: ${PYTHON} cannot import torch (Debian 12: apt-get install python3-torch, as scripts/setup does)")
  return()
endif()
file(MAKE_DIRECTORY ${WORK_DIR})
set(kernel "${PYTHON} ${EXAMPLES}/rope_kernels.py")
set(failures "")

include(${CMAKE_CURRENT_LIST_DIR}/expect_validate.cmake)

# The correct forms: every call conforms, in both formats (3 blocks of
# positions x 2 shapes x 2 dtypes), the progress on stderr one line a call.
expect_validate(hf-lines 0 "conforms: 12 calls;[12/12] positions 3968..4095, shape (2, 128, 4, 128), bfloat16: conforms"
                --kernel --rope llama2 --exec "exec ${kernel} --preset llama2 --serve" --exec-protocol lines
                --exec-dtype float32 --exec-dtype bfloat16)
expect_validate(meta-lines 0 "conforms: 12 calls" --kernel --rope llama2-meta
                --exec "exec ${kernel} --preset llama2 --form meta --serve" --exec-protocol lines
                --exec-dtype float32 --exec-dtype bfloat16)
# One shell (and one torch import) per call: one block of positions, two calls.
expect_validate(float32-compute-one-shot 0 "conforms: 2 calls;call: " --kernel --rope llama2 --max-position 128
                --exec "${kernel} --preset llama2 --form float32 {input} {positions} {output} {dtype}")

# Positions never beyond --max-position, and the JSON says what was asked.
execute_process(COMMAND ${PECHECK} validate --kernel --rope llama2 --max-position 1000 --json --exec-protocol lines
                --exec "exec ${kernel} --preset llama2 --serve"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(WRITE ${WORK_DIR}/kernel.json "${out}")
execute_process(COMMAND ${PYTHON} -c "
import json, sys
r = json.load(open(sys.argv[1]))
calls = r['calls']
bad = [] if r['verdict'] == 'conforms' and len(calls) == 6 and r['max_position'] == 1000 else [
    'verdict ' + r['verdict'] + ', ' + str(len(calls)) + ' calls, max_position ' + str(r['max_position'])]
bad += ['call at ' + str(c['first_position']) + ' reaches ' + str(c['last_position'])
        for c in calls if c['last_position'] > 999 or not c['passed']]
print('; '.join(bad))
sys.exit(1 if bad else 0)
" ${WORK_DIR}/kernel.json RESULT_VARIABLE json_status OUTPUT_VARIABLE problems)
if(NOT status EQUAL 0 OR NOT json_status EQUAL 0)
  set(failures "${failures}\n  --json: exit ${status}: ${problems}${err}")
endif()

# Each fault deviates, diagnosed (CONVENTIONS.md, "Applying the rotation").
foreach(case IN ITEMS "positions-bfloat16 position-precision" "angles-float16 angle-precision"
                      "inv-freq-bfloat16 inv-freq-precision" "cache-bfloat16 cache-precision"
                      "accumulate frequency-accumulation" "reverse direction" "interleaved layout-mismatch")
  separate_arguments(case)
  list(GET case 0 fault)
  list(GET case 1 hazard)
  expect_validate(${fault} 1 "deviates: 6 calls;${hazard}" --kernel --rope llama2 --exec-protocol lines
                  --exec "exec ${kernel} --preset llama2 --fault ${fault} --serve")
endforeach()

# --output-dir: validation.json is what --json prints, and the report holds each
# call's checks on rotated outputs: held for the correct kernel; for cos and
# sin held in bfloat16 by a float32 kernel, the pair norm fails in its float32
# calls (a bfloat16 output's own rounding allows it).
foreach(case IN ITEMS "correct;held;held" "cache-bfloat16;failed;held")
  list(GET case 0 name)
  list(GET case 1 float32_verdict)
  list(GET case 2 bfloat16_verdict)
  set(fault_flags "")
  if(NOT name STREQUAL "correct")
    set(fault_flags "--fault ${name}")
  endif()
  set(dir ${WORK_DIR}/${name}-report)
  execute_process(COMMAND ${PECHECK} validate --kernel --rope llama2 --max-position 4096 --json --output-dir ${dir}
                  --exec-protocol lines --exec-dtype float32 --exec-dtype bfloat16
                  --exec "exec ${kernel} --preset llama2 --form float32 ${fault_flags} --serve"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT EXISTS ${dir}/report.json OR NOT EXISTS ${dir}/report.junit.xml OR NOT EXISTS ${dir}/validation.txt)
    set(failures "${failures}\n  --output-dir ${name}: exit ${status}, no report files in ${dir}\n${err}")
    continue()
  endif()
  file(READ ${dir}/validation.json written)
  if(NOT written STREQUAL out)
    set(failures "${failures}\n  --output-dir ${name}: validation.json differs from --json's output")
  endif()
  execute_process(COMMAND ${PYTHON} ${CHECKER} ${dir} ${SCHEMA} RESULT_VARIABLE checked ERROR_VARIABLE err)
  if(NOT checked EQUAL 0)
    set(failures "${failures}\n  --output-dir ${name}: the report files do not check out: ${err}")
  endif()
  execute_process(COMMAND ${PYTHON} -c "
import json, sys
checks = json.load(open(sys.argv[1]))['checks']
want = {'float32': sys.argv[2], 'bfloat16': sys.argv[3]}
norms = [c for c in checks if c['id'] == 'rotary/rotated-pair-norm']
bad = [] if len(norms) == 12 else [str(len(norms)) + ' pair-norm results for 12 calls']
for c in norms:
    # The message names the call first: 'positions 0..127, shape (128, 4, 128), bfloat16: ...'.
    dtype = 'bfloat16' if 'bfloat16:' in c['message'].split(' pairs')[0] else 'float32'
    if c['verdict'] != want[dtype]:
        bad.append(c['message'][:80] + ': ' + c['verdict'] + ', expected ' + want[dtype])
print('; '.join(bad))
sys.exit(1 if bad else 0)
" ${dir}/report.json ${float32_verdict} ${bfloat16_verdict} RESULT_VARIABLE json_status OUTPUT_VARIABLE problems)
  if(NOT json_status EQUAL 0)
    set(failures "${failures}\n  --output-dir ${name}: ${problems}")
  endif()
endforeach()

# A kernel that cannot run is broken, not deviating; a template without its placeholders is bad usage.
expect_validate(broken 2 "failed on its first call" --kernel --rope llama2
                --exec "${kernel} --no-such-option {input} {positions} {output}")
expect_validate(no-placeholders 2 "must hold {positions}" --kernel --rope llama2 --exec "${kernel} {input} {output}")

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "rope_kernels.py with pecheck validate --kernel --exec:${failures}")
endif()
