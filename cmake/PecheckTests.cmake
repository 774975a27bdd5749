# pecheck_add_test_dir(LIBS...): every *_test.cpp in the calling directory
# (<part>/tests/) becomes one GoogleTest executable, named <part>_<file>,
# whose tests are discovered into ctest.
function(pecheck_add_test_dir)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp)
  get_filename_component(part_dir ${CMAKE_CURRENT_SOURCE_DIR} DIRECTORY)
  get_filename_component(part ${part_dir} NAME)
  foreach(source IN LISTS test_sources)
    get_filename_component(stem ${source} NAME_WE)
    pecheck_add_test(${part}_${stem} SOURCES ${source} LIBS ${ARG_LIBS})
  endforeach()
endfunction()

# pecheck_add_cli_test(NAME SCRIPT [SKIPPABLE] [TIMEOUT S] [SERIAL] [DEFINES -DX=Y...] [ARGS ...]):
# a test of the pecheck command line, `tools_<NAME>`, that runs SCRIPT (under
# tools/tests/: a .cmake script run with `cmake -P`, a .sh run with bash, a
# .py run with /usr/bin/python3) with what every such test needs: the
# pecheck binary, Python, the examples and a work directory of its own
# (-DPECHECK -DPYTHON -DEXAMPLES -DWORK_DIR for a .cmake script; the same as
# --pecheck --examples --work for a .py; PECHECK, ARGS, WORK_DIR as the
# arguments of a .sh). SKIPPABLE: a line "pecheck-skip: why" (or exit 77 from a .sh) marks
# it skipped, as where PyTorch cannot be imported.
#
# In a sanitizer build (PECHECK_SANITIZE) every such test sees
# PECHECK_SANITIZED=1 and leaves out its runs under `ulimit -v`: AddressSanitizer
# reserves terabytes of address space for its shadow memory at start, so an
# instrumented pecheck cannot start under any address-space limit.
function(pecheck_add_cli_test name script)
  cmake_parse_arguments(ARG "SKIPPABLE;SERIAL" "TIMEOUT" "DEFINES;ARGS" ${ARGN})
  set(source ${PROJECT_SOURCE_DIR}/tools/tests/${script})
  set(work ${PROJECT_BINARY_DIR}/tools/${name})
  if(script MATCHES "\\.cmake$")
    set(command ${CMAKE_COMMAND} -DPECHECK=$<TARGET_FILE:pecheck> -DPYTHON=${PECHECK_TEST_PYTHON}
                -DEXAMPLES=${PROJECT_SOURCE_DIR}/examples -DWORK_DIR=${work} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                ${ARG_DEFINES} -P ${source})
  elseif(script MATCHES "\\.py$")
    set(command ${PECHECK_TEST_PYTHON} ${source} --pecheck $<TARGET_FILE:pecheck>
                --examples ${PROJECT_SOURCE_DIR}/examples --work ${work})
  else()
    set(command bash ${source} $<TARGET_FILE:pecheck> ${ARG_ARGS} ${work})
  endif()
  add_test(NAME tools_${name} COMMAND ${command})
  if(PECHECK_SANITIZE)
    set_tests_properties(tools_${name} PROPERTIES ENVIRONMENT PECHECK_SANITIZED=1)
  endif()
  if(ARG_SKIPPABLE)
    set_tests_properties(tools_${name} PROPERTIES SKIP_REGULAR_EXPRESSION "pecheck-skip:" SKIP_RETURN_CODE 77)
  endif()
  if(ARG_TIMEOUT)
    set_tests_properties(tools_${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  endif()
  if(ARG_SERIAL)
    set_tests_properties(tools_${name} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()
