#!/usr/bin/env bash
# kirchhoff-top end to end on the Kovalevskaya decks (docs/heavytop.md, Ohsawa 2019 Figs. 1-2):
# invariants of the collective and direct implicit midpoint runs (T = 100, dt = 1/50), bitwise
# restart and 1 vs 2 ranks, the --symplecticity and --convergence tools, a bad deck (exit 65).
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-top
IN=$SRC/input
expect_exit 0 run_np 1 "$IN/top_kovalevskaya.yaml" -o cim
expect_exit 0 run_np 1 "$IN/top_kovalevskaya_direct_implicit.yaml" -o dim
$PY - <<'PY'
import h5py, numpy as np, sys
def col(d, k):
    return np.asarray(h5py.File(d + "/invariants.h5", "r")["invariants"][k])
def rel(d, k):
    v = col(d, k)
    return np.max(np.abs(v - v[0])) / abs(v[0])
# Collective Lie–Poisson integrator: Casimirs to round-off, h and K bounded (measured 4.0e-5, 1.35e-3).
checks = [("cim f1", rel("cim", "f1"), 1e-13), ("cim f2", rel("cim", "f2"), 1e-13),
          ("cim J1", rel("cim", "J1"), 1e-13), ("cim J2", rel("cim", "J2"), 1e-13),
          ("cim energy", rel("cim", "energy"), 1e-4), ("cim K", rel("cim", "kovalevskaya"), 3e-3),
          ("dim energy", rel("dim", "energy"), 1e-13), ("dim f1", rel("dim", "f1"), 1e-13),
          ("dim f2", rel("dim", "f2"), 1e-13)]
for name, got, bound in checks:
    if not got < bound:
        sys.exit(f"{name}: max relative deviation {got:.3e} >= {bound:.0e}")
kc, kd = rel("cim", "kovalevskaya"), rel("dim", "kovalevskaya")
if not kd > 3 * kc:
    sys.exit(f"direct implicit K deviation {kd:.3e} not > 3x collective {kc:.3e}")
t, err = col("cim", "time"), col("cim", "error")
if not (t[-1] == 100.0 and 0.1 < err[-1] < 0.3):  # measured 0.2145 at t = 100
    sys.exit(f"final time {t[-1]} or error {err[-1]:.4e} off")
if col("cim", "newton_iterations").max() > 4:
    sys.exit("more than 4 Newton iterations per step")
print(f"cim: f1 {rel('cim', 'f1'):.1e} f2 {rel('cim', 'f2'):.1e} h {rel('cim', 'energy'):.2e} "
      f"K {kc:.2e}; dim: h {rel('dim', 'energy'):.1e} K {kd:.2e}")
PY
# Restart at step 2500 and two ranks reproduce the uninterrupted run bit for bit.
expect_exit 0 run_np 1 "$IN/top_kovalevskaya.yaml" -o split --steps 2500
expect_exit 0 run_np 1 "$IN/top_kovalevskaya.yaml" -o split --restart
expect_output "restarting from split/checkpoints/checkpoint_0000002500.h5 (step 2500"
$CMP logs cim/invariants.h5 split/invariants.h5
$CMP state cim/checkpoints split/checkpoints
expect_exit 0 run_np 2 "$IN/top_kovalevskaya.yaml" -o two
$CMP logs cim/invariants.h5 two/invariants.h5
# Tools.
expect_exit 0 run_np 1 "$IN/top_kovalevskaya.yaml" --symplecticity
expect_output "collective_implicit_midpoint"
$PY - <<'PY'
import sys
rows = [l.split() for l in open("last.out") if l.startswith("collective_")]
for r in rows:
    cs = float(r[2])
    if r[0] == "collective_implicit_midpoint" and not cs < 1e-13:
        sys.exit(f"symplecticity defect {cs:.3e} at step {r[1]}")
    if r[0] == "collective_explicit_midpoint" and not cs > 1e-6:
        sys.exit(f"explicit midpoint defect {cs:.3e} unexpectedly small")
print("symplecticity table ok:", len(rows), "rows")
PY
expect_exit 0 run_np 1 "$IN/top_kovalevskaya.yaml" --convergence
expect_output "direct_implicit_midpoint"
# A non-unit centre-of-mass direction is a deck error naming the key.
sed 's/center_of_mass: \[1.0, 0.0, 0.0\]/center_of_mass: [2.0, 0.0, 0.0]/' "$IN/top_kovalevskaya.yaml" > bad.yaml
expect_exit 65 run_np 1 bad.yaml -o bad
expect_output "center_of_mass"
echo "top regression ok"
