#!/usr/bin/env bash
# Contact through the driver (docs/fluidbody.md "Contact"): the head-on deck, shortened (128 nodes,
# contact distance 0.1, dt 0.01, gap 0.2 at the start, 120 steps, one impact at step 51), on 1 and 2 ranks:
# one impact logged, the gap never below the contact distance, the momentum maps kept, 1 and 2 ranks
# agree; a run restarted from a checkpoint before the impact is bitwise the straight run; bad contact keys
# and bodies starting too close exit 65 naming them; contact.law none stops at the overlap (exit 1).
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
sed -e 's/edges: 256/edges: 128/' -e 's/distance: 0.001/distance: 0.1/' -e 's/dt: 0.005/dt: 0.01/' -e 's/\[-2.0, 0.0\]/[-0.6, 0.0]/' \
    -e 's/\[2.0, 0.0\]/[0.6, 0.0]/' -e 's/end_time: 32.0/end_time: 1.2/' -e 's/checkpoint_interval: 1000/checkpoint_interval: 10/' \
    -e 's/progress_interval: 500/progress_interval: 0/' -e 's/snapshot_interval: 10/snapshot_interval: 0/' \
    "$SRC/input/fluidbody_contact_headon.yaml" > deck.yaml
grep -q "distance: 0.1" deck.yaml && grep -q "\[0.6, 0.0\]" deck.yaml || fail "deck edit"
check_log() {  # OUTDIR: one impact at step 51, gap >= 0.1 - 1e-12, momentum maps within 1e-13
  $PY - "$1/invariants.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    g = f["invariants"]
    impacts, gap = g["impacts"][:], g["min_body_body_distance"][:]
    first = int(np.argmax(impacts > 0))
    assert impacts[-1] == 1 and first == 51, (impacts[-1], first)
    assert gap.min() >= 0.1 - 1e-12, gap.min()
    for c in ("momentum_x", "momentum_y", "angular_momentum"):
        v = g[c][:]
        assert np.abs(v - v[0]).max() < 1e-13, (c, np.abs(v - v[0]).max())
    assert abs(g["impact_energy_loss"][-1]) < 3e-12 * g["energy"][0]  # elastic, to the root tolerance
    print("one impact at step", first, "min gap", gap.min())
PY
}
for np in 1 2; do
  expect_exit 0 run_np $np deck.yaml -o straight$np
  check_log straight$np || fail "np $np: contact log"
done
# Stopped at step 55 (after the impact), its checkpoint 50 (before it) kept: the restart crosses it.
expect_exit 0 run_np 1 deck.yaml -o split --steps 55
rm split/checkpoints/checkpoint_0000000055.h5
expect_exit 0 run_np 1 deck.yaml -o split --restart
expect_output "(step 50"
$CMP logs straight1/invariants.h5 split/invariants.h5
$CMP state straight1/checkpoints split/checkpoints
$PY - straight1/invariants.h5 straight2/invariants.h5 <<'PY' || fail "1 vs 2 ranks"
import sys, h5py, numpy as np
a, b = (h5py.File(p, "r")["invariants"] for p in sys.argv[1:])
for c in ("energy", "min_body_body_distance", "momentum_x"):
    d = np.abs(a[c][:] - b[c][:]).max()
    assert d < 1e-10, (c, d)
PY
# Bad input: exit 65, one line naming the key or the bodies.
sed 's/restitution: 1.0/restitution: 1.5/' deck.yaml > bad_e.yaml
expect_exit 65 run_np 1 bad_e.yaml -o bad_e
expect_output "contact.restitution"
sed 's/distance: 0.1/distance: 0.25/' deck.yaml > bad_d.yaml
expect_exit 65 run_np 1 bad_d.yaml -o bad_d
expect_output "key 'contact.distance': bodies 'left' and 'right' start 0.2 apart, not farther than the contact distance 0.25"
# contact.law none: today's stop when the bodies overlap (exit 1, a checkpoint of that step).
sed -e 's/law: impact/law: none/' -e '/restitution:/d' -e '/  distance:/d' -e '/approach_fraction:/d' -e 's/end_time: 1.2/end_time: 3.0/' deck.yaml > none.yaml
expect_exit 1 run_np 1 none.yaml -o none
expect_output "overlap"
echo "contact OK"
