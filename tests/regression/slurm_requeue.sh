#!/usr/bin/env bash
# SLURM integration (jobscripts/README.md) on a real one-machine cluster (tests/slurm/fixture.sh): one
# fluidbody deck of M steps (M calibrated to ~45 s of this machine) run four ways, at once:
#   ref      straight, outside SLURM;
#   chain    jobscripts/submit, chain mode: each job stops at its wall budget (--max-wall, exit 75)
#            and the next link, submitted with --dependency=afterany, resumes with --restart;
#   requeue  plain sbatch of jobscripts/fluidbody.sbatch, requeue mode, 1-minute limit: SLURM's
#            --signal=B:USR1 reaches the batch shell, which forwards it; the driver checkpoints,
#            exits 75, the job requeues itself (the test releases SLURM's 2-minute hold);
#   kill     jobscripts/submit, chain mode: the rank is SIGKILLed in the middle of a checkpoint
#            write (tests/slurm/kill_midwrite.py); the next link resumes from the last complete one.
# Then `scancel` of a running link must end its run (successor cancelled, state "stopped").
# Every SLURM run must end with the final state and the whole invariant log bitwise equal to ref
# (1 rank each). Skips (77) only where SLURM cannot be installed. Takes about 2.5 minutes.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
FIX=$SRC/tests/slurm/fixture.sh
JS=$SRC/jobscripts
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }

set +e; bash "$FIX" start "$WORK/cluster"; rc=$?; set -e
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "the SLURM fixture did not start (exit $rc)"
trap 'bash "$FIX" stop "$WORK/cluster"; rm -rf "$WORK"' EXIT
eval "$(bash "$FIX" env "$WORK/cluster")"
[ "$(sinfo -h -o %T)" = idle ] || fail "the node is not idle"

deck() {  # deck STEPS
  cat <<YAML
# SLURM test: three point vortices (1, 0.7, -0.4), frequent checkpoints (kill target).
model: fluidbody
time: {dt: 0.001, steps: $1}
output: {checkpoint_interval: 500, log_interval: 10, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
  - {position: [-0.3, 1.1], circulation: -0.4}
YAML
}

# Calibrate: M steps take ~45 s of wall clock here when the four runs share the machine (well
# above SLURM's 30 s signal granularity);
# the start-up (MPI, PETSc, step-0 checkpoint) is timed apart and taken off.
deck 20000 > deck.yaml
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
c0=$(now_ms); expect_exit 0 mpirun -n 1 "$BIN/$DRIVER" deck.yaml -o calib0 --steps 0
c1=$(now_ms); expect_exit 0 mpirun -n 1 "$BIN/$DRIVER" deck.yaml -o calib
c2=$(now_ms)
step_ms=$(( (c2 - c1) - (c1 - c0) ))
[ $step_ms -ge 100 ] || step_ms=100
# Four runs share the cores below: aim at ~45 s of wall clock each, i.e. 45 s x cores / 4 of
# single-run stepping (the requeue run needs > 30 s to meet SLURM's pre-timeout signal).
cores=$(nproc); [ "$cores" -le 4 ] || cores=4
M=$(( 20000 * 45000 * cores / 4 / step_ms / 1000 * 1000 ))
[ $M -ge 20000 ] || M=20000
deck $M > deck.yaml
echo "M = $M steps (start-up $((c1 - c0)) ms, 20000 steps $step_ms ms more)"

mpirun -n 1 "$BIN/$DRIVER" deck.yaml -o ref > ref.out 2>&1 & ref_pid=$!
bash "$JS/submit" deck.yaml -o chain -n 1 -t 5 --max-wall 15 --bin "$BIN" -J chain
mkdir -p requeue/slurm
KIRCHHOFF_MODE=requeue KIRCHHOFF_BIN=$BIN KIRCHHOFF_WALL_MARGIN=5 KIRCHHOFF_MAX_STALLS=8 \
  sbatch -n 1 -t 1 --signal=B:USR1@50 -J requeue -o "$WORK/requeue/slurm/%x-%j.out" \
  "$JS/fluidbody.sbatch" deck.yaml requeue
bash "$JS/submit" deck.yaml -o kill -n 1 -t 5 --bin "$BIN" -J kill

newest() { ls "$1"/checkpoints/checkpoint_*.h5 2>/dev/null | sed 's/.*_0*\([0-9][0-9]*\)\.h5$/\1/' | sort -n | tail -1; }
catcher=""
deadline=$((T0 + 280))
while :; do
  # The kill: once the first link of `kill` has written a checkpoint past step 0.
  if [ -z "$catcher" ] && [ -s kill/slurm/app.pid ] && [ "$(newest kill || true)" -gt 0 ] 2>/dev/null; then
    ranks=$(pgrep -P "$(cat kill/slurm/app.pid)" -f "$DRIVER" | tr '\n' ' ')
    [ -n "$ranks" ] || fail "no rank process under the launcher of the kill job"
    $PY "$SRC/tests/slurm/kill_midwrite.py" kill/checkpoints 60 $ranks > catcher.out 2>&1 & catcher=$!
  fi
  bash "$JS/status" --release -q requeue || true
  done=1
  for r in chain requeue kill; do
    set +e; bash "$JS/status" -q $r; c=$?; set -e
    [ $c = 3 ] && done=0
  done
  [ $done = 1 ] && break
  if [ "$(date +%s)" -gt $deadline ]; then
    for r in chain requeue kill; do bash "$JS/status" $r || true; tail -n 30 $r/slurm/*.out || true; done
    fail "the SLURM runs did not end within $((deadline - T0)) s"
  fi
  sleep 1
done
wait $ref_pid || { cat ref.out; fail "the reference run failed"; }
echo "all runs ended after $(elapsed) s"
for r in chain requeue kill; do bash "$JS/status" $r || fail "$r did not finish"; done

# chain: at least one stop at the wall budget (exit 75) before the final link (exit 0).
n=$(grep -c $'\t75\tstopped\t' chain/slurm/links.tsv || true)
[ "$n" -ge 1 ] || fail "chain: no link stopped at its wall budget (links.tsv above)"
grep -q "wall-clock budget of 15 s" chain/slurm/*.out || fail "chain: the driver never reported its budget"
[ "$(tail -1 chain/slurm/links.tsv | cut -f6)" = finished ] || fail "chain: the last link did not finish"
$CMP logs ref/invariants.h5 chain/invariants.h5
$CMP state ref/checkpoints chain/checkpoints

# requeue: SLURM's signal was forwarded, the driver stopped (75), the job came back as a restart.
grep -q "received SIGUSR1" requeue/slurm/*.out || { cat requeue/slurm/*.out; fail "requeue: no SIGUSR1 from SLURM"; }
grep -qP '\t75\tstopped by SIGUSR1\t' requeue/slurm/links.tsv || fail "requeue: no link stopped by SIGUSR1 with exit 75"
grep -q "requeueing job" requeue/slurm/*.out || fail "requeue: the job did not requeue itself"
grep -q "restart count [1-9]" requeue/slurm/*.out || fail "requeue: no run with SLURM_RESTART_COUNT > 0"
grep -q "restarting from .*requeue/checkpoints/checkpoint_" requeue/slurm/*.out || fail "requeue: no --restart"
$CMP logs ref/invariants.h5 requeue/invariants.h5
$CMP state ref/checkpoints requeue/checkpoints

# kill: caught in mid-write, the link saw the signal death, the next resumed from the last complete one.
wait "$catcher" || { cat catcher.out; fail "kill: no checkpoint write was caught"; }
cat catcher.out
read -r _ tmpname _ _ good _ < catcher.out
grep -qP '\t137\tkilled\t' kill/slurm/links.tsv || fail "kill: no link ended killed (exit 137)"
grep -q "restarting from .*kill/checkpoints/checkpoint_$(printf %010d "$good").h5" kill/slurm/*.out ||
  { cat kill/slurm/*.out; fail "kill: did not resume from the last complete checkpoint (step $good, killed in $tmpname)"; }
$CMP logs ref/invariants.h5 kill/invariants.h5
$CMP state ref/checkpoints kill/checkpoints

# cancel: `scancel` of the running link ends the run; its successor is cancelled, not started.
bash "$JS/submit" deck.yaml -o cancel -n 1 -t 5 --bin "$BIN" -J cancel
for _ in $(seq 300); do [ -s cancel/slurm/app.pid ] && break; sleep 0.1; done
[ -s cancel/slurm/app.pid ] || fail "cancel: the job did not start"
j=$(cut -d' ' -f2 cancel/slurm/state)
scancel "$j"
for _ in $(seq 60); do bash "$JS/status" -q cancel && break; [ $? = 3 ] || break; sleep 0.5; done
set +e; bash "$JS/status" cancel; c=$?; set -e
[ $c = 1 ] || fail "cancel: status $c, expected 1 (stopped)"
grep -q "^stopped: job $j was cancelled" cancel/slurm/state || fail "cancel: state is '$(cat cancel/slurm/state)'"
[ -z "$(squeue -h -o %j | grep -x cancel)" ] || fail "cancel: a job of the cancelled run is still queued"

for r in chain requeue kill; do echo "$r links:"; cat $r/slurm/links.tsv; done
echo "SLURM requeue/chain/kill OK in $(elapsed) s"
