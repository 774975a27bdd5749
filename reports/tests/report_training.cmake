# `pecheck report --quick --training`: the training family runs in
# pecheck-training (the tiny plan under --quick), its checks are in the report
# with the family's name, its learning curves are a figure, and finding (d)
# answers beside the other three; the files stay valid against the schema.
include(${CMAKE_CURRENT_LIST_DIR}/quick_report.cmake)
file(REMOVE_RECURSE "${WORK_DIR}")
quick_report(trained --training --no-performance)
file(READ "${WORK_DIR}/trained/report.json" json)
foreach(id learning-curves unit-init-with-scale-lags scale-at-small-sigma concat-against-add
           nope-learns-with-causal-mask same-seed-same-run)
  string(FIND "${json}" "\"training/${id}\"" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "report.json has no check training/${id}")
  endif()
endforeach()
if(NOT EXISTS "${WORK_DIR}/trained/figures/training-learning-curves.svg")
  message(FATAL_ERROR "no figure of the learning curves in ${WORK_DIR}/trained/figures")
endif()
file(READ "${WORK_DIR}/trained/report.md" markdown)
string(FIND "${markdown}" "(d) What do the scale and adding versus concatenating do to learning?" answered)
if(answered EQUAL -1)
  message(FATAL_ERROR "report.md has no finding (d)")
endif()
