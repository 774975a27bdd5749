#!/usr/bin/env bash
# Inputs and requests that need more than the machine has are refused with
# exit 2 and a message, before the memory or threads are taken:
#   resource_limits.sh PECHECK WORK_DIR
# Each case runs under a ulimit far below what the naive behaviour needs,
# so reading a whole file first, allocating a header's shape, or aborting on a
# thread that will not start all fail this test.
set -uo pipefail
# shellcheck source=cli_test_setup.sh
source "$(dirname "$0")/cli_test_setup.sh"

# A 1 GiB file (sparse) that is not an .npy: judged by its first bytes, with
# 300 MB of address space, far less than the file.
printf 'GARBAGE!' >"$work/garbage.npy"
truncate -s 1G "$work/garbage.npy"
expect_exit_2 bad_magic "magic" bash -c "ulimit -v 300000; exec '$pecheck' validate '$work/garbage.npy'"

# A well-formed header whose shape (2^20 x 2^11 float32, 8 GiB) matches the
# (sparse) file: refused before allocating, naming the size, under a 4 GB limit.
header="{'descr': '<f4', 'fortran_order': False, 'shape': (1048576, 2048), }"
pad=$((128 - 10 - ${#header} - 1))
{
  printf '\x93NUMPY\x01\x00'
  printf "\\x$(printf %02x $((118)))\\x00"
  printf '%s%*s\n' "$header" "$pad" ""
} >"$work/huge.npy"
if [ "$(stat -c %s "$work/huge.npy")" -ne 128 ]; then echo "FAIL: the test's header is $(stat -c %s "$work/huge.npy") bytes"; exit 1; fi
truncate -s $((128 + 8589934592)) "$work/huge.npy"
expect_exit_2 huge_shape "8.00 GiB (8589934592 bytes)" bash -c "ulimit -v 4000000; exec '$pecheck' validate '$work/huge.npy'"

# Far more threads than the address space allows stacks for: an error, not SIGABRT.
# (bench's progress lines are set aside: the error must be one line of its own.)
expect_exit_2 too_many_threads "could not start thread" bash -c "set -o pipefail; ulimit -v 2000000; \
  '$pecheck' bench --quick --no-reference --threads 100000 2>&1 >/dev/null | grep -v '^pecheck bench: ' >&2"

rm -rf "$work"
exit $((failures > 0))
