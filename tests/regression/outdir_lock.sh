#!/usr/bin/env bash
# One run per output folder (two writers would corrupt it): a second run or restart on a folder in use is
# refused with exit 64 naming the holder, the first run's log is complete and equal to a lone
# run's; after kill -9 of the holder a --restart takes the stale lock over and ends bitwise equal.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.001, steps: 60000}
output: {checkpoint_interval: 5000, log_interval: 10, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
  - {position: [-0.3, 1.1], circulation: -0.4}
YAML
# wait_for_lock DIR: until DIR/.kirchhoff.lock names a holder (at most 20 s)
wait_for_lock() {
  for _ in $(seq 200); do [ -s "$1/.kirchhoff.lock" ] && return 0; sleep 0.1; done
  fail "no lock file in $1"
}
# gapless LOG N INTERVAL: steps 0, INTERVAL, ..., N exactly
gapless() {
  $PY - "$@" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    s = f["invariants/step"][:]
want = np.arange(0, int(sys.argv[2]) + 1, int(sys.argv[3]))
if s.shape != want.shape or (s != want).any():
    sys.exit(f"{sys.argv[1]}: steps are not 0..{sys.argv[2]} without gaps: {len(s)} rows, first gap near "
             f"{s[np.argmax(s[:len(want)] != want[:len(s)])] if len(s) else '-'}")
print(f"{sys.argv[1]}: {len(s)} rows, steps 0..{s[-1]} without gaps")
PY
}
# The holder runs until the concurrent attempts have been refused, then stops on SIGUSR1 (75,
# with a checkpoint) at whatever step it reached: the test does not depend on the machine's speed.
for np in 1 2; do
  rm -rf conc
  if [ $np = 1 ]; then "$BIN/$DRIVER" deck.yaml -o conc --steps 100000000 >first.out 2>&1 & pid=$!
  else mpirun -n 2 "$BIN/$DRIVER" deck.yaml -o conc --steps 100000000 >first.out 2>&1 & pid=$!; fi
  wait_for_lock conc
  holder=$(sed -n 's/^pid=//p' conc/.kirchhoff.lock)
  expect_exit 64 run_np_t 60 $np deck.yaml -o conc --restart
  expect_output "conc is in use by another kirchhoff run (host $(hostname), pid $holder"
  expect_exit 64 run_np_t 60 $np deck.yaml -o conc --overwrite
  expect_output "in use by another kirchhoff run"
  for _ in $(seq 600); do [ -n "$(ls conc/checkpoints/checkpoint_*.h5 2>/dev/null | sed -n 2p)" ] && break; sleep 0.1; done
  kill -USR1 $pid  # past the set-up (a second checkpoint exists): a stop with a checkpoint
  set +e; wait $pid; code=$?; set -e
  [ $code = 75 ] || { cat first.out; fail "the first run exited $code, expected 75 (stopped)"; }
  [ ! -s conc/.kirchhoff.lock ] || fail "the lock file still names a holder after the run ended"
  k=$($CMP newest conc/checkpoints)
  n=$(( (k / 10 + 50) * 10 ))  # on the log grid, past the stop
  expect_exit 0 run_np_t 120 $np deck.yaml -o conc --restart --steps $n
  expect_exit 0 run_np_t 120 $np deck.yaml -o lone$np --steps $n
  gapless conc/invariants.h5 $n 10
  $CMP logs lone$np/invariants.h5 conc/invariants.h5
  $CMP state lone$np/checkpoints conc/checkpoints
  [ ! -s conc/.kirchhoff.lock ] || fail "the lock file still names a holder after the run ended"
done
# kill -9 of the holder: the OS lock dies with it, the file still names it; --restart takes over.
expect_exit 0 run_np_t 120 1 deck.yaml -o lone --steps 30000
"$BIN/$DRIVER" deck.yaml -o killed --steps 30000 >killed.out 2>&1 & pid=$!
for _ in $(seq 300); do [ -n "$(ls killed/checkpoints/checkpoint_*.h5 2>/dev/null | sed -n 2p)" ] && break; sleep 0.1; done
kill -9 $pid
set +e; wait $pid; set -e
grep -q "^pid=$pid$" killed/.kirchhoff.lock || fail "the killed holder is not in the lock file"
expect_exit 0 run_np_t 120 1 deck.yaml -o killed --restart --steps 30000
expect_output "taking over the stale lock killed/.kirchhoff.lock"
expect_output "pid $pid"
gapless killed/invariants.h5 30000 10
$CMP logs lone/invariants.h5 killed/invariants.h5
$CMP state lone/checkpoints killed/checkpoints
# A holder on another host with a fresh heartbeat counts as alive even when the OS lock is free
# (parallel file systems without cluster-wide locks); an old heartbeat is stale.
printf 'host=elsewhere\npid=1\njob=999\nstarted=2026-01-01T00:00:00Z\nheartbeat=%s x\n' "$(date +%s)" > killed/.kirchhoff.lock
expect_exit 64 run_np_t 60 1 deck.yaml -o killed --restart
expect_output "in use by another kirchhoff run (host elsewhere, pid 1, job 999"
printf 'host=elsewhere\npid=1\njob=999\nstarted=2026-01-01T00:00:00Z\nheartbeat=%s x\n' "$(( $(date +%s) - 3600 ))" > killed/.kirchhoff.lock
expect_exit 0 run_np_t 60 1 deck.yaml -o killed --restart --steps 30010
expect_output "taking over the stale lock"
# A sweep case on a folder in use is refused too (its own folder OUTDIR/case000).
cat > sweep.yaml <<'YAML'
model: fluidbody
time: {dt: 0.001, steps: 10000}
output: {checkpoint_interval: 5000, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
sweep:
  parameters:
    - {key: "vortices[1].circulation", values: [0.7, 0.8]}
YAML
"$BIN/$DRIVER" sweep.yaml -o sw --case 0 --steps 100000000 >case.out 2>&1 & pid=$!  # stopped below
wait_for_lock sw/case000
expect_exit 64 timeout 60 "$BIN/$DRIVER" sweep.yaml -o sw
expect_output "case000: error: sw/case000 is in use by another kirchhoff run"
for _ in $(seq 600); do [ -n "$(ls sw/case000/checkpoints/checkpoint_*.h5 2>/dev/null | sed -n 2p)" ] && break; sleep 0.1; done
kill -USR1 $pid
set +e; wait $pid; code=$?; set -e
[ $code = 75 ] || { cat case.out; fail "the sweep case exited $code, expected 75 (stopped)"; }
echo "outdir lock OK"
