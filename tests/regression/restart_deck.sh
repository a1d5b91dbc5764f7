#!/usr/bin/env bash
# Restart with a changed deck (it must not continue a different run silently): a change of the state's meaning (time.dt, a
# body) is refused with exit 65 naming the keys; a longer end_time continues bitwise and the
# change is recorded in the log's attribute restart_changes. On 1 and 2 ranks.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
one_body_deck "{dt: 0.05, end_time: 2.0}" "{checkpoint_interval: 10, progress_interval: 0}" 24 > deck.yaml
sed 's/end_time: 2.0/end_time: 4.0/' deck.yaml > longer.yaml
sed 's/dt: 0.05/dt: 0.025/' deck.yaml > dt.yaml
sed 's/density: 1.0/density: 2.0/; s/edges: 24/edges: 32/' deck.yaml > body.yaml
sed 's/end_time: 2.0/end_time: 4.0/; s/progress_interval: 0/progress_interval: 0, log_interval: 1/' deck.yaml > allowed.yaml
for np in 1 2; do
  expect_exit 0 run_np_t 120 $np longer.yaml -o straight$np
  expect_exit 0 run_np_t 120 $np deck.yaml -o run$np
  expect_exit 65 run_np_t 60 $np dt.yaml -o run$np --restart
  expect_output "cannot change these keys"
  expect_output "time.dt: 0.05 -> 0.025"
  expect_exit 65 run_np_t 60 $np body.yaml -o run$np --restart
  expect_output "bodies[0].density: 1.0 -> 2.0"
  expect_output "bodies[0].shape.edges: 24 -> 32"
  expect_exit 0 run_np_t 120 $np longer.yaml -o run$np --restart
  expect_output "deck changes since the checkpoint (allowed): time.end_time: 2.0 -> 4.0"
  $CMP logs straight$np/invariants.h5 run$np/invariants.h5
  $CMP state straight$np/checkpoints run$np/checkpoints
  $PY - run$np/invariants.h5 <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    rc = f.attrs["restart_changes"]
    rc = rc.decode() if isinstance(rc, bytes) else str(rc)
if "step 40: time.end_time: 2.0 -> 4.0" not in rc:
    sys.exit(f"restart_changes does not record the end_time change: {rc!r}")
PY
done
# Allowed keys together (end time and an output interval): accepted and both recorded.
expect_exit 0 run_np_t 60 1 deck.yaml -o both
expect_exit 0 run_np_t 60 1 allowed.yaml -o both --restart
expect_output "output.log_interval: (absent) -> 1"
echo "restart deck checks OK"
