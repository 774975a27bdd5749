# Installs the pecheck build into a temporary prefix, then configures, builds
# and runs examples/cpp-consumer against the installed package.
#   cmake -DPECHECK_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=... [-DCONSUMER_LINK_FLAGS=...]
#         -P install_and_build.cmake
# CONSUMER_LINK_FLAGS: what the consumer links with beside the package (the
# sanitizers' runtimes when the package is instrumented).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${step} failed (${status}):\n${out}\n${err}")
  endif()
endfunction()
run(install ${CMAKE_COMMAND} --install ${PECHECK_BUILD_DIR} --prefix ${prefix})
# Where the training family was built, its executable is installed beside
# pecheck (which looks for it there) and starts from the prefix: bad usage is
# its exit 2, after libtorch has loaded.
if(EXISTS ${PECHECK_BUILD_DIR}/tools/pecheck-training)
  execute_process(COMMAND ${prefix}/bin/pecheck-training --no-such-flag RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 2)
    message(FATAL_ERROR "the installed pecheck-training did not start as expected (${status}):\n${err}")
  endif()
endif()
run(configure ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_LINK_FLAGS}")
run(build ${CMAKE_COMMAND} --build ${WORK_DIR}/build -j1)
run(test ${WORK_DIR}/build/my_encoding_test)
message(STATUS "the consumer found, built against and ran the installed pecheck from ${prefix}")
