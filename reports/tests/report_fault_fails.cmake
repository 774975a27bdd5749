# A fault subject fails the run through the accuracy table: `pecheck report
# --fault float32-angles` (the tutorials' float32 angles) exits 1, its
# conformance/accuracy-by-position check failed, and a row of the headline
# accuracy table is beyond its budget. The files are still valid.
# Invoked by ctest with -DPECHECK=<the pecheck binary> -DWORK_DIR=<scratch>
# -DPYTHON=<python3> -DCHECKER=<check_report_files.py> -DSCHEMA=<schema file>.
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND "${PECHECK}" report --quick --fault float32-angles --output-dir "${WORK_DIR}/faulty"
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "pecheck report --fault float32-angles exited with ${status}, expected 1:\n${output}\n${errors}")
endif()
execute_process(COMMAND "${PYTHON}" "${CHECKER}" "${WORK_DIR}/faulty" "${SCHEMA}" RESULT_VARIABLE invalid
                ERROR_VARIABLE problems)
if(invalid)
  message(FATAL_ERROR "the faulty run's files are not valid:\n${problems}")
endif()
execute_process(
  COMMAND "${PYTHON}" -c [=[
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
accuracy = [c for c in report["checks"] if c["id"] == "conformance/accuracy-by-position"]
assert accuracy and accuracy[0]["verdict"] == "failed", "the accuracy check did not fail"
rows = report["accuracy"][0]["rows"]
assert any(not r["measurement"]["within_budget"] for r in rows), "no accuracy row beyond its budget"
assert report["configuration"]["subject"] == "fault:float32-angles", report["configuration"]["subject"]
]=] "${WORK_DIR}/faulty/report.json"
  RESULT_VARIABLE wrong ERROR_VARIABLE why)
if(wrong)
  message(FATAL_ERROR "the faulty run's report.json: ${why}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
