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
