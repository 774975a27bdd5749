#!/usr/bin/env bash
# Inputs that would take memory without bound are refused from what can be
# seen first (issue 30):
#   hostile_memory.sh PECHECK WORK_DIR
# - a table whose header claims 2^26 rows, refused from the header under an
#   address-space limit smaller than its payload (it was read whole first);
# - tables of 2^24 + 1 and 2^25 - 1 rows, which the readers allow (a relative
#   table's length) but validate does not: refused from the header too, as
#   .npy and .safetensors, as a table and as a cache's sin (they were read
#   whole before validate's own refusal);
# - a config.json past its 4 MiB limit, refused from its size (a 100 MB one
#   took gigabytes);
# - a lines-protocol command that writes without a newline (cat /dev/zero),
#   refused once its reply passes 64 KiB (it was buffered without bound).
set -uo pipefail
# shellcheck source=cli_test_setup.sh
source "$(dirname "$0")/cli_test_setup.sh"

# limit_v KIB: the shell command setting the address-space limit; none in an
# ASan build, which cannot start under one (cmake/PecheckTests.cmake), where
# the refusals are still checked, without the limit.
limit_v() { [ -n "${PECHECK_SANITIZED:-}" ] || echo "ulimit -v $1;"; }

# sparse_npy FILE ROWS: a (ROWS, 1) float32 .npy whose payload is a hole.
sparse_npy() {
  local header="{'descr': '<f4', 'fortran_order': False, 'shape': ($2, 1), }"
  local pad=$((128 - 10 - ${#header} - 1))
  {
    printf '\x93NUMPY\x01\x00'
    printf '\x76\x00'
    printf '%s%*s\n' "$header" "$pad" ""
  } >"$1"
  truncate -s $((128 + 4 * $2)) "$1"
}
# sparse_safetensors FILE ROWS: the same as a .safetensors tensor "pe".
sparse_safetensors() {
  local header="{\"pe\":{\"dtype\":\"F32\",\"shape\":[$2,1],\"data_offsets\":[0,$((4 * $2))]}}"
  header=$(printf '%-120s' "$header")
  {
    printf '\x78\x00\x00\x00\x00\x00\x00\x00'
    printf '%s' "$header"
  } >"$1"
  truncate -s $((128 + 4 * $2)) "$1"
}

# (2^26, 1) float32: 256 MiB of (sparse) payload, under a 200 MB limit.
sparse_npy "$work/rows.npy" 67108864
expect_exit_2 rows_from_header "rows.npy: shape: 67108864 rows of 1 columns (0.25 GiB (268435456 bytes) of data) (expected at most 16777216 rows" \
  bash -c "$(limit_v 200000) exec '$pecheck' validate '$work/rows.npy'"
# 2^24 + 1 and 2^25 - 1 rows (64 and 128 MiB) under a 60 MB limit: what a
# read of the payload could not hold, so only a refusal from the header
# gives this message.
sparse_npy "$work/long.npy" 16777217
expect_exit_2 rows_past_positions "long.npy: shape: 16777217 rows of 1 columns (0.06 GiB (67108868 bytes) of data) (expected at most 16777216 rows, one per position float32 holds exactly)" \
  bash -c "$(limit_v 60000) exec '$pecheck' validate '$work/long.npy'"
sparse_safetensors "$work/relative.safetensors" 33554431
expect_exit_2 relative_length_safetensors "relative.safetensors: shape: 33554431 rows of 1 columns (0.12 GiB (134217724 bytes) of data) (expected at most 16777216 rows" \
  bash -c "$(limit_v 60000) exec '$pecheck' validate '$work/relative.safetensors'"
"$pecheck" rope --preset llama2 --rows 4 --cos "$work/cos4.npy" --sin "$work/sin4.npy"
expect_exit_2 rows_past_positions_sin "long.npy: shape: 16777217 rows of 1 columns" \
  bash -c "$(limit_v 60000) exec '$pecheck' validate '$work/cos4.npy' --sin '$work/long.npy' --rope llama2"

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
