#!/usr/bin/env bash
# SIGUSR1 mid-run (a batch system's pre-timeout signal): exit 75 with a readable checkpoint; resuming finishes with the same
# final state and log as an uninterrupted run. Also the wall-clock budget (--max-wall).
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
three_vortex_deck "{dt: 0.001, steps: 5000000}" \
  "{checkpoint_interval: 100000, log_interval: 50, progress_interval: 0}" > deck.yaml
for np in 1 2; do
  if [ $np = 1 ]; then "$BIN/$DRIVER" deck.yaml -o sig$np >sig.out 2>&1 & pid=$!
  else mpirun -n 2 "$BIN/$DRIVER" deck.yaml -o sig$np >sig.out 2>&1 & pid=$!; fi
  sleep 3
  kill -USR1 $pid
  set +e; wait $pid; code=$?; set -e
  cat sig.out
  [ $code = 75 ] || fail "signalled run exited $code, expected 75"
  grep -q "stopped at step" sig.out || fail "no stop message"
  k=$($CMP newest sig$np/checkpoints)
  [ "$k" -gt 0 ] || fail "no checkpoint after the signal"
  m=$((k + 777))
  expect_exit 0 run_np $np deck.yaml -o sig$np --restart --steps $m
  expect_exit 0 run_np $np deck.yaml -o ref$np --steps $m
  $CMP state ref$np/checkpoints sig$np/checkpoints
  $CMP logs ref$np/invariants.h5 sig$np/invariants.h5
done
# SIGTERM to mpirun: Open MPI's mpirun (4.1) ends the job and exits 1 whatever its ranks return,
# and refuses to forward SIGTERM as it does SIGUSR1. The ranks still checkpoint and exit 75: the
# message says where that exit code is, summary.json has it, and --restart continues.
mpirun -n 2 "$BIN/$DRIVER" deck.yaml -o term >term.out 2>&1 & pid=$!
for _ in $(seq 300); do [ -s term/checkpoints/checkpoint_0000000000.h5 ] && break; sleep 0.1; done
sleep 1
kill -TERM $pid
set +e; wait $pid; code=$?; set -e
cat term.out
[ $code = 1 ] || [ $code = 75 ] || fail "mpirun exited $code after SIGTERM"
grep -q "stopped at step .*(signal 15).*mpirun itself exits 1 after a SIGTERM; this run's exit code, 75, is in term/summary.json" term.out \
  || fail "no stop message naming mpirun's exit code and summary.json"
$PY -c "import json; s=json.load(open('term/summary.json')); assert (s['exit_status'], s['status']) == (75, 'stopped'), s"
k=$($CMP newest term/checkpoints)
[ "$k" -gt 0 ] || fail "no checkpoint after SIGTERM to mpirun"
expect_exit 0 run_np 2 deck.yaml -o term --restart --steps $((k + 10))
# Wall-clock budget: exits 75 before the budget ends, with a checkpoint.
start=$(date +%s)
expect_exit 75 run_np 1 deck.yaml -o wall --max-wall 3
expect_output "wall-clock budget of 3 s"
[ $(( $(date +%s) - start )) -lt 10 ] || fail "the budget was not kept"
$CMP newest wall/checkpoints
echo "signals OK"
