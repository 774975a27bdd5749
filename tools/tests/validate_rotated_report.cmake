# `pecheck validate OUT --input IN --positions POS --output-dir DIR` end to
# end, on outputs examples/rotated_outputs.py writes as transformers applies
# RoPE: the directory holds validation.json and .txt and the report files; the
# report's JSON parses and matches reports/schema, its JUnit XML is well formed
# with one testcase per check (reports/tests/check_report_files.py);
# validation.json is what --json prints. A correct output holds the comparison,
# the diagnosis and both checks on rotated outputs; the page shows the verdict
# and diagnosis, then the error against position, then the checks; cos and sin held in
# bfloat16 before a float32 rotation fail the pair-norm check (the pairs leave
# the circle), and positions held in bfloat16 fail the relative-position check
# while every pair keeps its norm (both in the JSON and the JUnit XML).
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DCHECKER=... -DSCHEMA=... -DWORK_DIR=... -P validate_rotated_report.cmake
include(${CMAKE_CURRENT_LIST_DIR}/report_checks.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/rotated_output_files.cmake)

# Validates NAME's output into WORK_DIR/NAME-report; checks the files, the
# schema, the agreement with --json, and the verdict of each check id given
# as ID=VERDICT in ARGN.
function(report name expected_status)
  set(dir ${WORK_DIR}/${name}-report)
  set(w ${WORK_DIR})
  execute_process(COMMAND ${PECHECK} validate ${w}/${name}.out.npy --input ${w}/${name}.in.npy
                          --positions ${w}/${name}.pos.npy --rope llama2 --json --output-dir ${dir}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  expect_validated_report(${name} ${dir} ${expected_status})
  file(READ ${dir}/report.json json)
  file(READ ${dir}/report.junit.xml junit)
  report_expectation_failures(problems ${name} "${json}" "${junit}" ${ARGN})
  string(APPEND failures "${problems}")
  set(failures "${failures}" PARENT_SCOPE)
  # The page: verdict and diagnosis first, then the error against position, then the checks.
  file(READ ${dir}/report.html html)
  string(FIND "${html}" "<section id=\"verdict\">" at_verdict)
  string(FIND "${html}" "<section id=\"figures\">" at_figures)
  string(FIND "${html}" "ULP error against position" at_figure)
  string(FIND "${html}" "<section id=\"checks\">" at_checks)
  if(at_verdict EQUAL -1 OR at_figures EQUAL -1 OR at_figure EQUAL -1 OR at_checks EQUAL -1 OR
     NOT at_verdict LESS at_figures OR NOT at_figures LESS at_checks)
    set(failures "${failures}\n  ${name}: report.html does not show the verdict and diagnosis, then the error "
        "against position, then the checks" PARENT_SCOPE)
  endif()
endfunction()

rotated(good --preset llama2 --shape bshd --batch 1 --length 128 --heads 2 --dtype bfloat16 --first-position 3000)
rotated(cache --preset llama2 --form float32 --shape lhd --length 128 --heads 2 --first-position 4000 --cache bfloat16)
rotated(positions --preset llama2 --shape lhd --length 128 --heads 2 --first-position 15900 --positions-in bfloat16)
report(good 0 rotary/rotated-comparison=held rotary/rotated-diagnosis=held rotary/rotated-pair-norm=held
       rotary/rotated-relative-position=held)
report(cache 1 rotary/rotated-comparison=failed rotary/rotated-diagnosis=failed rotary/rotated-pair-norm=failed
       rotary/rotated-relative-position=failed)
report(positions 1 rotary/rotated-comparison=failed rotary/rotated-diagnosis=failed rotary/rotated-pair-norm=held
       rotary/rotated-relative-position=failed)

if(failures)
  message(FATAL_ERROR "validate --output-dir on rotated outputs:${failures}")
endif()
