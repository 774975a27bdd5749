#!/usr/bin/env bash
# Writes past `ulimit -f` (issue 30): SIGXFSZ killed table, rope and validate
# --output-dir with nothing on stderr and left NAME.tmp-PID-N behind. Now
# each exits 2 with one line naming the file, leaves no temporary, and a
# later run removes the temporaries of runs that were killed (dead PIDs)
# while it leaves a live process's alone.
#   hostile_write_limits.sh PECHECK WORK_DIR
set -uo pipefail
# shellcheck source=cli_test_setup.sh
source "$(dirname "$0")/cli_test_setup.sh"
expect_no_temporaries() {  # name
  local left
  left=$(find "$work" -name '*.tmp-*')
  if [ -n "$left" ]; then
    echo "FAIL $1: temporaries left: $left"
    failures=$((failures + 1))
  fi
}

# 100 KiB allowed; the table and the caches are 2.5 MB.
expect_exit_2 table_efbig "table.npy: write: cannot write the temporary file: File too large" \
  bash -c "ulimit -f 100; exec '$pecheck' table --convention vaswani --rows 10000 --dim 64 --output '$work/table.npy'"
expect_no_temporaries table_efbig
expect_exit_2 rope_efbig "cos.npy: write: cannot write the temporary file: File too large" \
  bash -c "ulimit -f 100; exec '$pecheck' rope --preset llama2 --rows 10000 --cos '$work/cos.npy' --sin '$work/sin.npy'"
expect_no_temporaries rope_efbig
"$pecheck" table --convention vaswani --rows 4 --dim 8 --output "$work/small.npy"
expect_exit_2 report_efbig "File too large" \
  bash -c "ulimit -f 8; exec '$pecheck' validate '$work/small.npy' --output-dir '$work/report'"
expect_no_temporaries report_efbig

# A full file system (ENOSPC): a 64 KiB tmpfs in a mount namespace of the
# test's own, so nothing outside sees it. Creating one needs the privilege to
# mount (root, or user namespaces); where the system refuses, the case says
# so and is left out rather than failing.
full="$work/full"
mkdir -p "$full"
userns=()
mount_small() { unshare --mount "${userns[@]}" bash -c "mount -t tmpfs -o size=64k tmpfs '$full'" 2>/dev/null; }
mount_small || { userns=(--map-root-user); mount_small; }
if mount_small; then
  expect_exit_2 table_enospc "table.npy: write: cannot write the temporary file: No space left on device" \
    unshare --mount "${userns[@]}" bash -c "mount -t tmpfs -o size=64k tmpfs '$full' || exit 3
      '$pecheck' table --convention vaswani --rows 10000 --dim 64 --output '$full/table.npy'
      status=\$?
      # The file system goes with the namespace: look for temporaries now.
      if [ -n \"\$(find '$full' -name '*.tmp-*')\" ]; then exit 4; fi
      exit \$status"
else
  echo "skip table_enospc: this system does not let the test mount a small file system"
fi

# A killed run's temporary (its PID no longer runs) goes with the next write;
# a running process's stays.
sh -c 'exit 0' &
dead=$!
wait "$dead"
touch "$work/small.npy.tmp-$dead-0" "$work/small.npy.tmp-$$-0"
"$pecheck" table --convention vaswani --rows 4 --dim 8 --output "$work/small.npy"
if [ -e "$work/small.npy.tmp-$dead-0" ] || [ ! -e "$work/small.npy.tmp-$$-0" ]; then
  echo "FAIL stale temporaries: $(ls -a "$work" | tr '\n' ' ') (expected the dead PID $dead's removed, the live $$'s kept)"
  failures=$((failures + 1))
else
  echo "ok   stale temporaries: PID $dead's removed, $$'s kept"
fi

rm -rf "$work"
exit $((failures > 0))
