#!/usr/bin/env bash
# validate under an address-space limit (issue 30): an additive table, a
# (2, L, d) rotary stack and a complex64 freqs_cis, each MIB MiB, are
#   - validated to their verdict under `ulimit -v` at twice the file (the
#     readers hold the values once, in the file's own format, and the
#     comparison streams the reference: what a 2x limit must allow);
#   - refused in one line naming the size under three quarters of the file
#     (checked before allocating, not a std::bad_alloc or a kill).
#   memory_limited_validate.sh PECHECK PYTHON WORK_DIR [MIB]
# MIB is 128 in ctest (about 10 s on 2 cores). docs/hostile-inputs.md has
# the result of a larger run by hand.
set -uo pipefail
# An ASan build cannot start under ulimit -v (cmake/PecheckTests.cmake).
if [ -n "${PECHECK_SANITIZED:-}" ]; then echo "pecheck-skip: every case runs under ulimit -v"; exit 77; fi
pecheck=$1
python=$2
work=$3
mib=${4:-128}
rm -rf "$work" && mkdir -p "$work"
failures=0
bytes=$((mib * 1048576))

# limited NAME KIB EXPECT COMMAND...: COMMAND under ulimit -v KIB. EXPECT
# "verdict": exit 0 or 1, a verdict on stdout, nothing on stderr; "refusal":
# exit 2 and one stderr line naming a size in GiB.
limited() {
  local name=$1 kib=$2 expect=$3
  shift 3
  bash -c 'ulimit -v "$0"; exec "$@"' "$kib" "$@" >"$work/$name.out" 2>"$work/$name.err"
  local status=$?
  local ok=0
  if [ "$expect" = verdict ]; then
    if { [ "$status" -eq 0 ] || [ "$status" -eq 1 ]; } && [ ! -s "$work/$name.err" ] &&
      head -n 1 "$work/$name.out" | grep -qE ': (conforms|deviates)'; then ok=1; fi
  else
    if [ "$status" -eq 2 ] && [ "$(wc -l <"$work/$name.err")" -eq 1 ] && grep -qF ' GiB (' "$work/$name.err"; then ok=1; fi
  fi
  if [ "$ok" -eq 1 ]; then
    echo "ok   $name (ulimit -v $kib KiB): exit $status, $(head -c 300 "$work/$name.err")$(head -n 1 "$work/$name.out")"
  else
    echo "FAIL $name (ulimit -v $kib KiB): exit $status (expected a $expect), stderr:"
    head -c 600 "$work/$name.err"
    echo
    failures=$((failures + 1))
  fi
}

# check_size FILE: the file is MIB MiB of payload (plus its header), so the
# limits below are the multiples of the file they claim to be.
check_size() {
  local size
  size=$(stat -c %s "$1")
  if [ "$size" -lt "$bytes" ] || [ "$size" -gt $((bytes + 4096)) ]; then
    echo "FAIL: $1 is $size bytes, expected $bytes and a header"
    failures=$((failures + 1))
  fi
}

# An additive float32 table of MIB MiB: 1024 columns.
rows=$((bytes / 4096))
"$pecheck" table --convention vaswani --rows "$rows" --dim 1024 --output "$work/table.npy" || exit 1
# A (2, L, 128) float32 stack of llama2's cos and sin, and llama2-meta's
# complex64 (L, 64) freqs_cis, each MIB MiB.
stack_rows=$((bytes / 1024))
"$pecheck" rope --preset llama2 --rows "$stack_rows" --cos "$work/cos.npy" --sin "$work/sin.npy" || exit 1
complex_rows=$((bytes / 512))
"$pecheck" rope --preset llama2-meta --rows "$complex_rows" --cos "$work/re.npy" --sin "$work/im.npy" || exit 1
"$python" - "$work" <<'EOF' || exit 1
import sys
import numpy as np
work = sys.argv[1]
np.save(f"{work}/stack.npy", np.stack([np.load(f"{work}/cos.npy"), np.load(f"{work}/sin.npy")]))
re, im = np.load(f"{work}/re.npy"), np.load(f"{work}/im.npy")
cis = np.empty(re.shape, np.complex64)
cis.real, cis.imag = re, im
np.save(f"{work}/cis.npy", cis)
EOF
rm -f "$work"/cos.npy "$work"/sin.npy "$work"/re.npy "$work"/im.npy
for file in table stack cis; do check_size "$work/$file.npy"; done

twice=$((2 * bytes / 1024))
three_quarters=$((3 * bytes / 4 / 1024))
limited table_2x "$twice" verdict "$pecheck" validate "$work/table.npy"
limited stack_2x "$twice" verdict "$pecheck" validate "$work/stack.npy" --rope llama2
limited complex_2x "$twice" verdict "$pecheck" validate "$work/cis.npy" --rope llama2-meta
limited table_short "$three_quarters" refusal "$pecheck" validate "$work/table.npy"
limited stack_short "$three_quarters" refusal "$pecheck" validate "$work/stack.npy" --rope llama2
limited complex_short "$three_quarters" refusal "$pecheck" validate "$work/cis.npy" --rope llama2-meta

rm -rf "$work"
exit $((failures > 0))
