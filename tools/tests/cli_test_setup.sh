# What every shell CLI test starts with, sourced after `set -uo pipefail`
# with the test's own arguments (PECHECK WORK_DIR): $pecheck, an empty $work,
# $failures at 0, and expect_exit_2.
pecheck=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
failures=0

# expect_exit_2 NAME TEXT COMMAND...: COMMAND must exit 2 with one line on stderr
# holding TEXT (a fixed string); counts into $failures.
expect_exit_2() {  # name, expected text, command...
  local name=$1 text=$2
  shift 2
  "$@" >"$work/$name.out" 2>"$work/$name.err"
  local status=$?
  if [ "$status" -ne 2 ] || ! grep -qF -- "$text" "$work/$name.err" || [ "$(wc -l <"$work/$name.err")" -ne 1 ]; then
    echo "FAIL $name: status $status (expected 2 and '$text'), stderr:"; head -c 600 "$work/$name.err"; echo
    failures=$((failures + 1))
  else
    echo "ok   $name: $(cat "$work/$name.err")"
  fi
}
