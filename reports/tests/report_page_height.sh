#!/usr/bin/env bash
# Writes a quick report with its (smoke-test) performance section, as the
# default page has one, and measures it with scripts/page-height: exit 77
# (ctest: skipped) without Chromium, else the script's verdict.
# Usage: report_page_height.sh PECHECK PAGE_HEIGHT WORK_DIR
set -euo pipefail
pecheck=$1 page_height=$2 work=$3
if [ ! -x /usr/bin/chromium ]; then
  echo "Chromium is not installed: skipped"
  exit 77
fi
rm -rf "$work"
"$pecheck" report --quick --performance --output-dir "$work/report" >/dev/null
status=0
# Bounds derived in reports/tests/CMakeLists.txt.
"$page_height" "$work/report/report.html" --max-height 12900 --max-caption-lines 3 --min-label-px 11 || status=$?
rm -rf "$work"
exit "$status"
