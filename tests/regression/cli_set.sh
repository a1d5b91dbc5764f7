#!/usr/bin/env bash
# The command line for users (docs/running.md "Running a driver"): --set KEY=VALUE overrides deck values with
# the file's checks and is recorded in the log; another driver's deck names its driver; --version
# names the libraries.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-damped
DECK=$SRC/input/damped_pendulum.yaml
# The deck's own advice ("rerun with scheme.method heun"): the phi_2s-only keys are dropped.
expect_exit 0 "$BIN/$DRIVER" "$DECK" -o heun --steps 50 --set rayleigh.scheme.method=heun --set time.dt=0.05
expect_output "note: --set rayleigh.scheme.method=heun: removed rayleigh.scheme.ordering, rayleigh.scheme.composition (they apply only to method phi_2s)"
expect_output "steps 0..50, dt 0.05"
$PY - heun <<'PY'
import json, sys, h5py, yaml
out = sys.argv[1]
with h5py.File(out + "/invariants.h5", "r") as f:
    ov = f.attrs["overrides"]
    ov = ov.decode() if isinstance(ov, bytes) else ov
    assert ov.split("\n") == ["rayleigh.scheme.method=heun", "time.dt=0.05"], ov
    deck = f["deck"][()]
    deck = yaml.safe_load(deck.decode() if isinstance(deck, bytes) else deck)
    assert deck["rayleigh"]["scheme"] == {"method": "heun"}, deck["rayleigh"]["scheme"]
    assert deck["time"]["dt"] == 0.05
    t = f["invariants/time"][:]
    assert abs(t[-1] - 2.5) < 1e-12, t[-1]
s = json.load(open(out + "/summary.json"))
assert s["overrides"] == ["rayleigh.scheme.method=heun", "time.dt=0.05"], s["overrides"]
print("log and summary record the overrides")
PY
# Heun differs from the deck's phi_2s: the energy balance after 50 steps is not the same.
expect_exit 0 "$BIN/$DRIVER" "$DECK" -o phi --steps 50 --set time.dt=0.05
$PY - heun phi <<'PY'
import sys, h5py
a, b = (h5py.File(d + "/invariants.h5", "r")["invariants/energy_balance"][-1] for d in sys.argv[1:])
assert abs(a - b) > 1e-8, (a, b)
PY
# Bad values: the file's messages, exit 65, nothing run.
expect_exit 65 "$BIN/$DRIVER" "$DECK" -o bad --set rayleigh.scheme.method=hen
expect_output "error: --set rayleigh.scheme.method=hen: key 'rayleigh.scheme.method': unknown choice 'hen', expected one of {phi_2s, phi_3s, phi_rks, heun, explicit_midpoint, rk4, dop853}"
expect_exit 65 "$BIN/$DRIVER" "$DECK" -o bad --set time.dt=0
expect_output "key 'time.dt': value 0 out of range, expected real > 0"
expect_exit 65 "$BIN/$DRIVER" "$DECK" -o bad --set scheme.method=heun
expect_output "key 'scheme': unknown key (did you mean 'rayleigh.scheme.method'?)"
expect_exit 65 "$BIN/$DRIVER" "$DECK" -o bad --set rayleigh.eps=-1
expect_output "key 'rayleigh.eps'"
[ ! -e bad ] || fail "a rejected --set must not create the output folder"
# Cross-key checks still apply to the overridden deck: Heun at dt 0.5 is refused by the guard.
expect_exit 65 "$BIN/$DRIVER" "$DECK" -o bad --set rayleigh.scheme.method=heun --set time.dt=0.5
expect_output "Heun at dt = 0.5 is linearly unstable"
expect_exit 64 "$BIN/$DRIVER" "$DECK" --set time.dt
expect_output "--set needs KEY=VALUE"
# A fluidbody list item.
DRIVER=kirchhoff-fluidbody
expect_exit 0 "$BIN/$DRIVER" "$SRC/input/fluidbody_disk_vortex_coarse.yaml" -o fb --steps 2 --set bodies[0].density=2.5
$PY - fb <<'PY'
import sys, h5py, yaml
with h5py.File(sys.argv[1] + "/invariants.h5", "r") as f:
    deck = f["deck"][()]
    assert yaml.safe_load(deck.decode() if isinstance(deck, bytes) else deck)["bodies"][0]["density"] == 2.5
PY
expect_exit 65 "$BIN/$DRIVER" "$SRC/input/fluidbody_disk_vortex_coarse.yaml" -o bad --set bodies[3].density=2
expect_output "key 'bodies': no item [3] (the deck has 1)"
# Another driver's deck: the model is named first, whatever keys follow.
expect_exit 65 "$BIN/kirchhoff-top" "$SRC/input/fluidbody_disk_vortex.yaml"
expect_output "key 'model': this deck is for kirchhoff-fluidbody (model: fluidbody), not kirchhoff-top"
expect_exit 65 "$BIN/kirchhoff-fluidbody" "$SRC/input/slosh_small.yaml"
expect_output "this deck is for kirchhoff-slosh (model: slosh), not kirchhoff-fluidbody"
# --version: the libraries and the build.
for d in fluidbody top damped slosh; do
  expect_exit 0 "$BIN/kirchhoff-$d" --version
  for w in "kirchhoff-$d " "PETSc     Petsc Release Version 3." "HDF5      1." "MPI       " "Eigen     3." "yaml-cpp  " "build     "; do
    expect_output "$w"
  done
done
grep -qE "KIRCHHOFF_NATIVE=(ON|OFF)" last.out || fail "--version lacks the build options"
# The revision is the source's at build time, not at configure time (a stale stamp mislabels checkpoints).
if head=$(git -C "$SRC" rev-parse --short=12 HEAD 2>/dev/null); then
  expect_output "(git $head"
fi
echo "command line OK"
