#!/usr/bin/env bash
# SLURM sweeps (jobscripts/README.md) on a real one-machine cluster (tests/slurm/fixture.sh): a 3-case sweep
# deck run as a job array (jobscripts/submit --array: task i runs `--case i`, each task its own
# chain) and as one chained job running all cases; every link stops at a short wall budget
# (exit 75) and the next resumes. Each case's final state and invariant log must equal a straight
# `--case i` run outside SLURM, bitwise (1 rank). Needs the driver's `--case N` (77 until then)
# and SLURM (77 where it cannot be installed). About 1-2 minutes.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
FIX=$SRC/tests/slurm/fixture.sh
JS=$SRC/jobscripts
T0=$(date +%s)

"$BIN/$DRIVER" --help | grep -q -- "--case N" ||
  { echo "SKIP: $DRIVER has no --case N option (job-array tasks need it; see jobscripts/README.md)"; exit 77; }
set +e; bash "$FIX" start "$WORK/cluster"; rc=$?; set -e
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "the SLURM fixture did not start (exit $rc)"
trap 'bash "$FIX" stop "$WORK/cluster"; rm -rf "$WORK"' EXIT
eval "$(bash "$FIX" env "$WORK/cluster")"

deck() {  # deck STEPS
  cat <<YAML
# SLURM sweep test: three point vortices, the first one's circulation swept.
model: fluidbody
time: {dt: 0.001, steps: $1}
output: {checkpoint_interval: 1000, log_interval: 10, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
  - {position: [-0.3, 1.1], circulation: -0.4}
sweep:
  ranks_per_case: 1
  parameters:
    - key: vortices[0].circulation
      values: [1.0, 1.25, 1.5]
YAML
}

# Calibrate: each case ~8 s of stepping, so a 5 s budget stops every task at least once.
deck 20000 > sweep.yaml
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
c0=$(now_ms); expect_exit 0 mpirun -n 1 "$BIN/$DRIVER" sweep.yaml --case 0 -o calib0 --steps 0
c1=$(now_ms); expect_exit 0 mpirun -n 1 "$BIN/$DRIVER" sweep.yaml --case 0 -o calib
c2=$(now_ms)
step_ms=$(( (c2 - c1) - (c1 - c0) ))
[ $step_ms -ge 100 ] || step_ms=100
M=$(( 20000 * 8000 / step_ms / 1000 * 1000 ))
[ $M -ge 20000 ] || M=20000
deck $M > sweep.yaml
echo "M = $M steps per case"

( for i in 0 1 2; do mpirun -n 1 "$BIN/$DRIVER" sweep.yaml --case $i -o ref || exit 1; done ) > ref.out 2>&1 & ref_pid=$!
out=$(bash "$JS/submit" sweep.yaml --array -o array -n 1 -t 5 --max-wall 5 --bin "$BIN" -J array)
echo "$out"
grep -q "tasks 0-2, one case each" <<<"$out" || fail "submit --array did not count 3 cases"
bash "$JS/submit" sweep.yaml -o whole -n 1 -t 5 --max-wall 12 --bin "$BIN" -J whole

deadline=$((T0 + 270))
while :; do
  set +e
  bash "$JS/status" -q array; ca=$?
  bash "$JS/status" -q whole; cw=$?
  set -e
  [ $ca != 3 ] && [ $cw != 3 ] && break
  [ "$(date +%s)" -lt $deadline ] || break
  sleep 2
done
wait $ref_pid || { cat ref.out; fail "the reference runs failed"; }
bash "$JS/status" array || true
bash "$JS/status" whole || true
[ $ca = 0 ] || { tail -n 40 array/slurm/*.out || true; fail "the job array did not finish (status $ca)"; }
[ $cw = 0 ] || { tail -n 40 whole/slurm/*.out || true; fail "the whole-sweep chain did not finish (status $cw)"; }

for i in 0 1 2; do
  c=$(printf case%03d $i)
  grep -qP '\t75\tstopped\t' array/$c/slurm/links.tsv || fail "array $c: no link stopped at its budget"
  grep -q "^$c: restarting from .*array/$c/checkpoints/" array/$c/slurm/*.out array/slurm/*.out 2>/dev/null ||
    fail "array $c: no link resumed with --restart"
  $CMP logs ref/$c/invariants.h5 array/$c/invariants.h5
  $CMP state ref/$c/checkpoints array/$c/checkpoints
  $CMP logs ref/$c/invariants.h5 whole/$c/invariants.h5
  $CMP state ref/$c/checkpoints whole/$c/checkpoints
done
[ "$(grep -c $'\t75\t' whole/slurm/links.tsv)" -ge 2 ] || fail "whole: fewer than two stops over three cases"
# jobscripts/status aggregated the cases' summary.json files (each from the case's last link).
bash "$JS/status" array > status.out || true
grep -q "^== sweep summary: .*array/summary.json (3 cases: 3 finished; exit 0)" status.out ||
  { cat status.out; fail "status printed no sweep summary"; }
$PY - array/summary.json <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
assert a["cases"] == 3 and a["status_counts"] == {"finished": 3} and a["exit_status"] == 0, a
for r in a["runs"]:
    assert r["last_step"] == r["final_step"] and r["exit_status"] == 0, r
# The worst relative energy change over the cases, recomputed from the cases' logs (the summary
# prints 6 significant digits); the run lengths follow the machine's speed, so no fixed bound.
import h5py, numpy as np, os
worst = 0.0
for c in sorted(d for d in os.listdir(os.path.dirname(sys.argv[1]) or ".") if d.startswith("case")):
    with h5py.File(os.path.join(os.path.dirname(sys.argv[1]) or ".", c, "invariants.h5"), "r") as f:
        e = f["invariants/energy"][:]
    worst = max(worst, float(np.max(np.abs(e - e[0]) / abs(e[0]))))
got = a["max_relative_change"]["energy"]
assert worst > 0 and abs(got - worst) <= 1e-5 * worst, (got, worst)
PY
echo "SLURM job array and whole-sweep chain OK in $(( $(date +%s) - T0 )) s"
