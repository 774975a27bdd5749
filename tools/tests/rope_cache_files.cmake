# cache(NAME ARGS...): NAME.cos.npy and NAME.sin.npy in WORK_DIR, written by
# examples/rope_caches.py ARGS; included by the rotary CLI tests, which also
# start from an empty WORK_DIR and no failures.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

function(cache name)
  execute_process(COMMAND ${PYTHON} ${EXAMPLES}/rope_caches.py ${ARGN} --cos ${WORK_DIR}/${name}.cos.npy
                          --sin ${WORK_DIR}/${name}.sin.npy
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "rope_caches.py ${ARGN} failed: ${err}")
  endif()
endfunction()
