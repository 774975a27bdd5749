#!/usr/bin/env bash
# Inputs that would take memory without bound are refused from what can be
# seen first (issue 30):
#   hostile_memory.sh PECHECK WORK_DIR
# - a table whose header claims 2^26 rows, refused from the header under an
#   address-space limit smaller than its payload (it was read whole first);
# - a config.json past its 4 MiB limit, refused from its size (a 100 MB one
#   took gigabytes);
# - a lines-protocol command that writes without a newline (cat /dev/zero),
#   refused once its reply passes 64 KiB (it was buffered without bound).
set -uo pipefail
# shellcheck source=cli_test_setup.sh
source "$(dirname "$0")/cli_test_setup.sh"

# (2^26, 1) float32: 256 MiB of (sparse) payload, under a 200 MB limit.
header="{'descr': '<f4', 'fortran_order': False, 'shape': (67108864, 1), }"
pad=$((128 - 10 - ${#header} - 1))
{
  printf '\x93NUMPY\x01\x00'
  printf '\x76\x00'
  printf '%s%*s\n' "$header" "$pad" ""
} >"$work/rows.npy"
truncate -s $((128 + 268435456)) "$work/rows.npy"
expect_exit_2 rows_from_header "67108864 rows (expected at most 2^25 - 1" \
  bash -c "ulimit -v 200000; exec '$pecheck' validate '$work/rows.npy'"

# A 5 MB config.json: refused from its size, naming the limit.
{
  printf '{"head_dim": 64, "pad": "'
  head -c 5000000 /dev/zero | tr '\0' 'x'
  printf '"}'
} >"$work/config.json"
"$pecheck" rope --preset llama2 --rows 4 --cos "$work/cos.npy" --sin "$work/sin.npy"
expect_exit_2 config_size "5000027 bytes, more than the 4194304 bytes a config.json may have" \
  "$pecheck" rope --config "$work/config.json" --rows 4 --cos "$work/c.npy" --sin "$work/s.npy"

# A lines-protocol command that floods stdout: one line, soon. (timeout only
# keeps a regression from hanging the test; it is no timing assertion.)
expect_exit_2 reply_without_newline "bytes on stdout without a newline" \
  timeout 120 "$pecheck" validate --exec 'cat /dev/zero' --exec-protocol lines --convention vaswani \
  --check encoding-bounds/unit-interval --cases 2

rm -rf "$work"
exit $((failures > 0))
