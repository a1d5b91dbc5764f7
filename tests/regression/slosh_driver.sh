#!/usr/bin/env bash
# kirchhoff-slosh end to end (docs/slosh.md): 1 vs 2 ranks agree (1e-12), restart is bitwise
# equivalent, a bore stops the run with a checkpoint (exit 1), the CFL guard and bad decks exit 65.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-slosh
deck() {  # deck AMPLITUDE DT QUADRATURE
  cat <<YAML
model: slosh
time: {dt: $2, steps: 600}
output: {checkpoint_interval: 100, log_interval: 1, flush_interval: 7, progress_interval: 0, snapshot_interval: 100}
physics: {gravity: 9.81, density: 1000.0}
tank: {length: 1.0}
vehicle: {mass: 100.0, stiffness: 1000.0, q0: 0.002, qdot0: 0.0}
fluid:
  points: 61
  quadrature: $3
  depth:
    - {type: constant, value: 0.1}
    - {type: cosine, amplitude: $1, mode: 1}
    - {type: gaussian, amplitude: 0.0002, center: 0.3, width: 0.1}
YAML
}
deck 0.0001 0.004 trapezoid > small.yaml
for np in 1 2; do
  expect_exit 0 run_np $np small.yaml -o straight$np
  expect_output "stability bound"
done
$PY - <<'PY'
import h5py, numpy as np, sys
a = h5py.File("straight1/invariants.h5", "r")["invariants"]
b = h5py.File("straight2/invariants.h5", "r")["invariants"]
for k in ("energy", "q", "qdot", "momentum_balance", "min_depth"):
    x, y = np.asarray(a[k]), np.asarray(b[k])
    d = np.max(np.abs(x - y)) / max(np.max(np.abs(x)), 1e-300)
    if not d <= 1e-12:
        sys.exit(f"1 vs 2 ranks: {k} differs by {d:.3e} (relative)")
e = np.asarray(a["energy"])
rel = np.max(np.abs(e - e[0])) / e[0]
if not rel < 1e-2:
    sys.exit(f"energy error {rel:.3e}")
print(f"1 vs 2 ranks agree; energy error {rel:.3e}")
PY
expect_exit 0 run_np 2 small.yaml -o split --steps 300
expect_exit 0 run_np 2 small.yaml -o split --restart
expect_output "restarting from split/checkpoints/checkpoint_0000000300.h5 (step 300"
$CMP logs straight2/invariants.h5 split/invariants.h5
$CMP state straight2/checkpoints split/checkpoints
# A 30 % wave steepens into a bore: physical stop, checkpoint of the stopping state.
deck 0.03 0.004 trapezoid > bore.yaml
expect_exit 1 run_np 2 bore.yaml -o bore
expect_output "stop.max_jump"
expect_output "checkpoint written"
# dt above the wave CFL bound da/sqrt(g h_max) = 0.0164/0.990 s: refused with the bound printed.
deck 0.0001 0.02 trapezoid > fast.yaml
expect_exit 65 run_np 1 fast.yaml -o fast
expect_output "exceeds the Stormer-Verlet stability bound"
deck 0.0001 0.004 midpoint > bad.yaml
expect_exit 65 run_np 1 bad.yaml -o bad
expect_output "quadrature"
expect_exit 0 run_np 1 small.yaml --frequencies
expect_output "0  1.978"  # first coupled root, 1.97835 rad/s for the flat 0.1 m state
echo "slosh driver OK"
