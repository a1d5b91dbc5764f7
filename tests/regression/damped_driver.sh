#!/usr/bin/env bash
# kirchhoff-damped end to end (docs/damped.md): the input/ decks run; pendulum energy against the
# DOP853 run, J3 and |r - r*| of the elastic pendulum, |M| of DDB, 1 vs 2 ranks, restart, the guard.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-damped
IN=$SRC/input

# Pendulum: Phi_2S and the DOP853 method on the same deck.
expect_exit 0 run_np 1 "$IN/damped_pendulum.yaml" -o p2s
sed 's/method: phi_2s .*/method: dop853/; /ordering:\|composition:/d' "$IN/damped_pendulum.yaml" > pref.yaml
expect_exit 0 run_np 1 pref.yaml -o pref
# Heun at dt = 0.5 is refused (exit 65, bound printed); 'warn' runs it with a warning.
sed 's/method: phi_2s .*/method: heun/; /ordering:\|composition:/d; s/dt: 0.1 *$/dt: 0.5/' "$IN/damped_pendulum.yaml" > heun.yaml
expect_exit 65 run_np 1 heun.yaml -o heun
expect_output "key 'time.dt': Heun at dt = 0.5 is linearly unstable"
expect_output "no stability interval on undamped modes"
sed 's/stability_guard: refuse /stability_guard: warn /' heun.yaml > heunw.yaml
expect_exit 0 run_np 1 heunw.yaml -o heunw
expect_output "warning: Heun at dt = 0.5"
$PY - <<'PY'
import sys, h5py, numpy as np
def col(d, k): return np.asarray(h5py.File(d + "/invariants.h5", "r")["invariants"][k])
ref, e = col("pref", "energy"), col("p2s", "energy")
# DOP853 per step against the published-style reference value H(500) = 6.707267e-3 (bench_damped).
if not abs(ref[-1] - 6.707267e-3) < 1e-9: sys.exit(f"DOP853 H(500) = {ref[-1]:.9e}")
err = np.max(np.abs(e - ref))
if not 1e-3 < err < 2e-3: sys.exit(f"Phi_2S h=0.1 max |H - H_ref| = {err:.3e}, measured 1.580e-3")
heun = col("heunw", "energy")
if not heun[-1] > heun[0]: sys.exit("Heun h=0.5 should gain energy (the documented failure)")
bal = col("p2s", "energy_balance")
if not np.max(np.abs(bal)) < 5e-3: sys.exit(f"energy balance H + W - H0 = {np.max(np.abs(bal)):.3e}")
PY

# Elastic pendulum at its relative equilibrium: J3 to 1e-12, |r - r*| = O(h^2) (2.3e-3 at h = 0.1).
expect_exit 0 run_np 1 "$IN/damped_elastic_pendulum.yaml" -o elastic
$PY - <<'PY'
import sys, h5py, numpy as np
g = h5py.File("elastic/invariants.h5", "r")["invariants"]
dj = np.max(np.abs(np.asarray(g["J3"]) - g["J3"][0]))
dr = np.max(np.abs(np.asarray(g["r_minus_rstar"])))
if not dj < 1e-12: sys.exit(f"J3 drift {dj:.3e}")
if not dr < 3e-3: sys.exit(f"max |r - r*| = {dr:.3e}")
PY

# Rigid body A: DDB keeps |M|; 1 vs 2 ranks bitwise equal (replicated state); restart equivalence.
expect_exit 0 run_np 1 "$IN/damped_rigid_body_A.yaml" -o rA1
expect_exit 0 run_np 2 "$IN/damped_rigid_body_A.yaml" -o rA2
$CMP logs rA1/invariants.h5 rA2/invariants.h5
expect_exit 0 run_np 1 "$IN/damped_rigid_body_A.yaml" -o rAs --steps 700
expect_exit 0 run_np 1 "$IN/damped_rigid_body_A.yaml" -o rAs --restart
expect_output "(step 700"
$CMP logs rA1/invariants.h5 rAs/invariants.h5
$CMP state rA1/checkpoints rAs/checkpoints
sed 's/method: ddb.*/method: lobatto_iiic/; /retraction:\|variant:/d' "$IN/damped_rigid_body_B.yaml" > lobB.yaml
expect_exit 0 run_np 1 "$IN/damped_rigid_body_B.yaml" -o rB
expect_exit 0 run_np 1 lobB.yaml -o lobB
$PY - <<'PY'
import sys, h5py, numpy as np
def col(d, k): return np.asarray(h5py.File(d + "/invariants.h5", "r")["invariants"][k])
for d, lo, hi in (("rA1", 0, 1e-13), ("rB", 0, 1e-13), ("lobB", 1e-11, 1e-6)):
    c = col(d, "casimir")
    drift = np.max(np.abs(c / c[0] - 1))
    if not lo <= drift < hi: sys.exit(f"{d}: Casimir drift {drift:.3e} not in [{lo}, {hi})")
if not col("rA1", "distance")[-1] < 1e-9: sys.exit("A does not reach the largest-inertia axis")
if not col("rB", "distance")[-1] < 1e-4: sys.exit("B does not reach the circle M3 = 0")
PY

# The chain deck is refused with the bound printed.
expect_exit 65 run_np 1 "$IN/damped_chain.yaml" -o chain
expect_output "h*omega < 2 (h < 0.2006)"

# The post-processing scripts run on these outputs.
for s in damped_energy damped_casimir damped_sphere; do [ -x "$SRC/postprocess/$s.py" ] || fail "$s.py"; done
expect_exit 0 $PY "$SRC/postprocess/damped_energy.py" pref p2s heunw -o energy.png
expect_output "| phi_2s dkd h=0.1 |"
expect_exit 0 $PY "$SRC/postprocess/damped_casimir.py" rA1 rB lobB -o casimir.png
expect_exit 0 $PY "$SRC/postprocess/damped_sphere.py" rA1 rB -o sphere.png
[ -s energy.png ] && [ -s casimir.png ] && [ -s sphere.png ] || fail "figures missing"
echo "damped driver OK"
