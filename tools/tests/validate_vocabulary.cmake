# `pecheck validate --vocabulary VOCAB --convention NAME [--scale S]` end to
# end, on a synthetic table whose statistics have closed forms: E = c I (one
# token per axis, V = d), so every row has ||s e||^2 = s^2 c^2 and the table
# is isotropic with alpha = s^2 c^2 / d. Then the energy ratio is 2 alpha
# (||PE||^2 = d/2 for the paper's even d), the subspace share k/d (the trace
# of a projection of rank k over d) and the logit shares alpha^2, alpha, 1/4
# over (alpha + 1/2)^2, up to float32's rounding of PE (relative 2^-23 in
# ||PE||^2: d entries, each squared with an error below 2^-24; tolerance 1e-6).
# Bad inputs exit 2 with one line on stderr naming the flag or file.
#
#   cmake -DPECHECK=... -DPYTHON=... -DWORK_DIR=... -P validate_vocabulary.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
execute_process(COMMAND ${PYTHON} -c "
import numpy as np, sys
d = sys.argv[1]
np.save(d + '/identity.npy', 0.25 * np.eye(64, dtype=np.float32))
np.save(d + '/ids.npy', np.zeros((4, 8), dtype=np.int64))
" ${WORK_DIR} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "numpy could not write the vocabulary")
endif()

foreach(scale IN ITEMS default 3)
  set(args --vocabulary ${WORK_DIR}/identity.npy --convention vaswani --json)
  set(s 8)  # sqrt(64)
  if(NOT scale STREQUAL "default")
    list(APPEND args --scale ${scale})
    set(s ${scale})
  endif()
  execute_process(COMMAND ${PECHECK} validate ${args} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  scale ${scale}: exit status ${status} (expected 0): ${err}")
    continue()
  endif()
  file(WRITE ${WORK_DIR}/out.json "${out}")
  execute_process(COMMAND ${PYTHON} -c "
import json, sys
r = json.load(open(sys.argv[1]))
s, c, d = float(sys.argv[2]), 0.25, 64
alpha = s * s * c * c / d
k = r['subspace_dimension']
expected = {'energy_ratio': 2 * alpha, 'subspace_share': k / d,
            'token_token_share': alpha ** 2 / (alpha + 0.5) ** 2,
            'cross_share': alpha / (alpha + 0.5) ** 2,
            'position_position_share': 0.25 / (alpha + 0.5) ** 2}
bad = [f'{name} {r[name]} (expected {value})' for name, value in expected.items()
       if abs(r[name]['value'] - value) > 1e-6 * value or abs(r[name]['isotropic'] - value) > 1e-6 * value]
# Beside them, the paper's setting (alpha = 1): energy ratio 2, shares 1, 1 and 1/4 over 9/4.
paper = {'energy_ratio': 2.0, 'token_token_share': 4 / 9, 'cross_share': 4 / 9, 'position_position_share': 1 / 9}
for name, value in paper.items():
    if abs(r[name]['paper'] - value) > 1e-12:
        bad.append(name + ' paper ' + str(r[name]['paper']) + ' (expected ' + str(value) + ')')
if r['verdict'] != 'info' or r['scale'] != s or not 0 < k <= d: bad.append('verdict, scale or k: ' + str(r))
print('; '.join(bad))
sys.exit(1 if bad else 0)
" ${WORK_DIR}/out.json ${s} RESULT_VARIABLE status OUTPUT_VARIABLE problems)
  if(NOT status EQUAL 0)
    set(failures "${failures}\n  scale ${scale}: ${problems}")
  endif()
endforeach()

execute_process(COMMAND ${PECHECK} validate --vocabulary ${WORK_DIR}/identity.npy --convention vaswani
                RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 0 OR NOT out MATCHES "energy ratio .*: 0.125 \\(isotropic 0.125" OR NOT out MATCHES "observations only")
  set(failures "${failures}\n  text: exit ${status}:\n${out}")
endif()

# --context P: the statistics are measured against positions 0..P-1 and say so.
execute_process(COMMAND ${PECHECK} validate --vocabulary ${WORK_DIR}/identity.npy --convention vaswani --context 64
                        --json RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(WRITE ${WORK_DIR}/context.json "${out}")
execute_process(COMMAND ${PYTHON} -c "
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if r['positions'] == 64 and 0 < r['subspace_dimension'] <= 64 else 1)
" ${WORK_DIR}/context.json RESULT_VARIABLE context_status)
if(NOT status EQUAL 0 OR NOT context_status EQUAL 0)
  set(failures "${failures}\n  --context 64: exit ${status}, positions not 64: ${out}${err}")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)
set(vocab --vocabulary ${WORK_DIR}/identity.npy)
expect_refused_matching("no convention" "--vocabulary alone needs --convention NAME" validate ${vocab})
expect_refused_matching("zero scale" "--scale" validate ${vocab} --convention vaswani --scale 0)
expect_refused_matching("scale with ids" "--scale applies only to --vocabulary alone" validate ${vocab} --ids ${WORK_DIR}/ids.npy
           --scale 2 ${WORK_DIR}/identity.npy)
expect_refused_matching("integer table" "ids.npy: dtype" validate --vocabulary ${WORK_DIR}/ids.npy --convention vaswani)
expect_refused_matching("context too short" "--context" validate ${vocab} --convention vaswani --context 1)
expect_refused_matching("context with ids" "--context applies only to --vocabulary alone" validate ${vocab} --ids ${WORK_DIR}/ids.npy
           --context 64 ${WORK_DIR}/identity.npy)
foreach(flag --max-ulp --max-abs-error --output-dir)
  expect_refused_matching("${flag}" "${flag} does not apply to --vocabulary alone" validate ${vocab} --convention vaswani
             ${flag} 2)
endforeach()

if(failures)
  message(FATAL_ERROR "validate --vocabulary:${failures}")
endif()
