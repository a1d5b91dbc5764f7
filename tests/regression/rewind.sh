#!/usr/bin/env bash
# A rewind (docs/running.md "Restart and wall-clock budgets"): --restart FILE from an older
# checkpoint moves the newer ones, of the abandoned continuation, to checkpoints/retired-<step>/
# (nothing deleted), so the next plain --restart continues the rewound run (it exited 65: "has
# no row for step 3000"), and its log equals a straight run's bit for bit. A final step before
# the checkpoint's is refused (it "finished" after 0 steps).
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
three_vortex_deck "{dt: 0.001, steps: 3000}" "{checkpoint_interval: 1000, keep_checkpoints: 5, progress_interval: 0}" > deck.yaml
expect_exit 0 run_np_t 60 1 deck.yaml -o rw
expect_exit 0 run_np_t 60 1 deck.yaml -o rw --restart rw/checkpoints/checkpoint_0000001000.h5 --steps 2500
expect_output "the newer checkpoints (not continued by this restart: a rewind, or unreadable) are moved to rw/checkpoints/retired-1000"
for k in 2000 3000; do
  [ -f rw/checkpoints/retired-1000/checkpoint_000000$k.h5 ] || fail "checkpoint $k not kept in retired-1000: $(ls -R rw/checkpoints)"
done
expect_exit 0 run_np_t 60 1 deck.yaml -o rw --restart
expect_output "restarting from rw/checkpoints/checkpoint_0000002500.h5"
expect_exit 0 run_np_t 60 1 deck.yaml -o straight
$CMP logs straight/invariants.h5 rw/invariants.h5
$CMP state straight/checkpoints rw/checkpoints
# --steps before the checkpoint's step: a usage error, and nothing in the folder changes.
before=$(ls -R rw | md5sum)
expect_exit 64 run_np_t 60 1 deck.yaml -o rw --restart --steps 100
expect_output "--steps 100 is before the checkpoint's step 3000"
[ "$(ls -R rw | md5sum)" = "$before" ] || fail "the refused restart changed the folder"
$CMP logs straight/invariants.h5 rw/invariants.h5
echo "rewind OK"
