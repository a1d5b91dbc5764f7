#!/usr/bin/env bash
# Rank-0-only errors reach every rank (else the other ranks wait forever): on 2 ranks under `timeout`, so a
# hang fails the test: both logs unreadable (65, then --new-log continues), a damaged
# snapshots.h5 (kept aside with a warning), a read-only OUTDIR (64), --restart other/X.h5 into a
# new folder (65 without, 0 with --new-log), a frozen rank 0 (the watchdog of rank 1).
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 100}
output: {checkpoint_interval: 20, snapshot_interval: 10, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.0], circulation: 1.0}
YAML
T="timeout -k 5 60"
for np in 1 2; do
  expect_exit 0 run_np_t 60 $np deck.yaml -o ref$np
  expect_exit 0 run_np_t 60 $np deck.yaml -o logs$np --steps 60
  truncate -s 100 logs$np/invariants.h5 logs$np/invariants.h5.ckpt
  expect_exit 65 run_np_t 60 $np deck.yaml -o logs$np --restart
  expect_output "cannot continue the invariant log"
  expect_exit 0 run_np_t 60 $np deck.yaml -o logs$np --restart --new-log
  expect_output "--new-log: the old invariant log is kept as logs$np/invariants.h5.replaced-60"
  expect_output "--new-log: invariant log logs$np/invariants.h5 starts at step 60"
  $CMP state ref$np/checkpoints logs$np/checkpoints
  $PY - ref$np/invariants.h5 logs$np/invariants.h5 <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
    s = b["invariants/step"][:]
    if s[0] != 60 or s[-1] != 100:
        sys.exit(f"new log covers steps {s[0]}..{s[-1]}, expected 60..100")
    # The first row is the checkpoint's state (no step taken: solver statistics are zero);
    # the rows after it equal the straight run's bitwise.
    for k in a["invariants"]:
        if a["invariants"][k][61:].tobytes() != b["invariants"][k][1:].tobytes():
            sys.exit(f"new log column {k} differs from the straight run's rows 61..100")
    if b["invariants/energy"][0] != a["invariants/energy"][60]:
        sys.exit("the new log's first energy differs from the straight run's at step 60")
    if "checkpoint_0000000060.h5" not in str(b.attrs["started_from_checkpoint"]):
        sys.exit("started_from_checkpoint attribute missing")
PY
  # A damaged snapshots.h5: kept aside, the run continues.
  expect_exit 0 run_np_t 60 $np deck.yaml -o snap$np --steps 50
  truncate -s 300 snap$np/snapshots.h5
  expect_exit 0 run_np_t 60 $np deck.yaml -o snap$np --restart
  expect_output "snap$np/snapshots.h5 is unreadable: kept aside as snap$np/snapshots.h5.unreadable-50"
  [ "$(stat -c %s snap$np/snapshots.h5.unreadable-50)" = 300 ] || fail "the damaged file was not kept"
  # A checkpoint of another folder: refused without --new-log (no log to continue), then taken.
  expect_exit 65 run_np_t 60 $np deck.yaml -o other$np --restart ref$np/checkpoints/checkpoint_0000000080.h5 --steps 100
  expect_output "cannot continue the invariant log"
  expect_output "--new-log"
  expect_exit 0 run_np_t 60 $np deck.yaml -o other$np --restart ref$np/checkpoints/checkpoint_0000000080.h5 --new-log
  $CMP state ref$np/checkpoints other$np/checkpoints
done
# Read-only OUTDIR (a read-only bind mount: root ignores permission bits), in a private mount
# namespace so nothing outlives the test.
if unshare -m true 2>/dev/null; then
  expect_exit 0 run_np_t 60 1 deck.yaml -o ro --steps 40
  for np in 1 2; do
    set +e
    unshare -m bash -c "mount --bind ro ro && mount -o remount,bind,ro ro && \
      exec $T $( [ $np = 2 ] && echo mpirun -n 2 ) $BIN/$DRIVER deck.yaml -o ro --restart" >last.out 2>&1
    code=$?; set -e
    [ $code = 64 ] || { cat last.out; fail "restart in a read-only OUTDIR on $np rank(s) exited $code, expected 64"; }
    expect_output "output folder ro is not writable"
  done
else
  echo "skipped: the read-only OUTDIR case needs mount namespaces (unshare -m)"
fi
# Rank 0 frozen (SIGSTOP): rank 1 waits in a collective; its watchdog stops the run after
# output.stall_timeout (8 s) with a message instead of waiting forever.
cat > long.yaml <<'YAML'
model: fluidbody
time: {dt: 0.001, steps: 50000000}
output: {checkpoint_interval: 100000, progress_interval: 0, stall_timeout: 8}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.0], circulation: 1.0}
YAML
mpirun -n 2 "$BIN/$DRIVER" long.yaml -o hang >hang.out 2>&1 & pid=$!
for _ in $(seq 100); do [ -s hang/.kirchhoff.lock ] && break; sleep 0.1; done
sleep 1
r0=$(sed -n 's/^pid=//p' hang/.kirchhoff.lock)
kill -STOP "$r0"
start=$(date +%s)
set +e; timeout -k 5 60 tail --pid=$pid -f /dev/null; wait $pid; code=$?; set -e
kill -CONT "$r0" 2>/dev/null || true
cat hang.out
[ $code != 0 ] || fail "a rank whose partner stopped must not finish"
[ $(( $(date +%s) - start )) -lt 40 ] || fail "the watchdog took too long"
grep -q "rank 1: error: watchdog: no progress for" hang.out || fail "no watchdog message from rank 1"
echo "rank-0 errors OK"
