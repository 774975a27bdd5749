# pecheck_add_test_dir(LIBS...): every *_test.cpp in the calling directory
# becomes one GoogleTest executable whose tests are discovered into ctest.
function(pecheck_add_test_dir)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp)
  foreach(source IN LISTS test_sources)
    get_filename_component(stem ${source} NAME_WE)
    pecheck_add_test(${stem} SOURCES ${source} LIBS ${ARG_LIBS})
  endforeach()
endfunction()
