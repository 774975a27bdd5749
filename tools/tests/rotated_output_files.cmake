# rotated(NAME ARGS...): NAME.in.npy, NAME.pos.npy and NAME.out.npy in
# WORK_DIR, written by examples/rotated_outputs.py ARGS; included by the
# rotated-output CLI tests, which also start from an empty WORK_DIR and no
# failures.
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
