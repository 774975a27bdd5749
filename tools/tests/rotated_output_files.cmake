# rotated(NAME ARGS...): NAME.in.npy, NAME.pos.npy and NAME.out.npy in
# WORK_DIR, written by examples/rotated_outputs.py ARGS; check(LABEL STATUS
# PATTERN NAME ARGS...): `pecheck validate` of them with ARGS exits STATUS
# with PATTERN in its output, else a line is added to `failures`. Included
# by the rotated-output CLI tests, which also start from an empty WORK_DIR
# and no failures.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

function(rotated name)
  execute_process(COMMAND ${PYTHON} ${EXAMPLES}/rotated_outputs.py ${ARGN} --input ${WORK_DIR}/${name}.in.npy
                          --positions ${WORK_DIR}/${name}.pos.npy --output ${WORK_DIR}/${name}.out.npy
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "rotated_outputs.py ${ARGN} failed: ${err}")
  endif()
endfunction()

function(check label expected pattern name)
  set(w ${WORK_DIR})
  execute_process(COMMAND ${PECHECK} validate ${w}/${name}.out.npy --input ${w}/${name}.in.npy
                          --positions ${w}/${name}.pos.npy ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  elseif(NOT "${out}${err}" MATCHES "${pattern}")
    set(failures "${failures}\n  ${label}: the output does not match '${pattern}':\n${out}${err}" PARENT_SCOPE)
  endif()
endfunction()
