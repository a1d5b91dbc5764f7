#!/usr/bin/env bash
# Restart equivalence (a restarted run must equal an uninterrupted one): N steps straight vs N/2, stop, --restart, N/2 more, on 1 and 2
# ranks: final state and the whole invariant log bitwise identical; two cold starts identical; also composed.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
three_vortex_deck "{dt: 0.01, steps: 400}" \
  "{checkpoint_interval: 50, log_interval: 1, flush_interval: 7, progress_interval: 0}" > deck.yaml
for np in 1 2; do
  expect_exit 0 run_np $np deck.yaml -o straight$np
  expect_exit 0 run_np $np deck.yaml -o cold$np
  $CMP logs straight$np/invariants.h5 cold$np/invariants.h5
  $CMP state straight$np/checkpoints cold$np/checkpoints
  expect_exit 0 run_np $np deck.yaml -o split$np --steps 200
  expect_exit 0 run_np $np deck.yaml -o split$np --restart --steps 400
  expect_output "restarting from split$np/checkpoints/checkpoint_0000000200.h5 (step 200"
  $CMP logs straight$np/invariants.h5 split$np/invariants.h5
  $CMP state straight$np/checkpoints split$np/checkpoints
  # Restart at an off-interval step (an end step that is not a checkpoint multiple).
  expect_exit 0 run_np $np deck.yaml -o odd$np --steps 123
  expect_exit 0 run_np $np deck.yaml -o odd$np --restart
  expect_output "(step 123"
  $CMP logs straight$np/invariants.h5 odd$np/invariants.h5
  $CMP state straight$np/checkpoints odd$np/checkpoints
done
# With a body (panel solves, lagged Jacobian kept in the state): restart at step 25, between two
# Jacobian refreshes (every 10 steps), is still bitwise identical.
one_body_deck "{dt: 0.05, steps: 60}" "{checkpoint_interval: 25, progress_interval: 0}" 32 > body.yaml
# restart_at_25 DECK PREFIX: on 1 and 2 ranks, the straight run vs one stopped at step 30 whose
# checkpoint 30 is removed and restarted from checkpoint 25: logs and states bitwise identical.
restart_at_25() {
  local deck=$1 p=$2 np
  for np in 1 2; do
    expect_exit 0 run_np $np "$deck" -o ${p}straight$np
    expect_exit 0 run_np $np "$deck" -o ${p}split$np --steps 30
    rm ${p}split$np/checkpoints/checkpoint_0000000030.h5
    expect_exit 0 run_np $np "$deck" -o ${p}split$np --restart
    expect_output "(step 25"
    $CMP logs ${p}straight$np/invariants.h5 ${p}split$np/invariants.h5
    $CMP state ${p}straight$np/checkpoints ${p}split$np/checkpoints
  done
}
restart_at_25 body.yaml b
# Composed (scheme.composition kahan_li6, 9 DEL sub-steps per step): a step is the whole
# composition, so a restart at step 25 is bitwise the straight run, on 1 and 2 ranks.
sed 's/^time:/scheme: {composition: kahan_li6}\ntime:/' body.yaml > composed.yaml
restart_at_25 composed.yaml c
# A fresh run refuses to overwrite checkpoints (exit 64), --overwrite starts afresh.
expect_exit 64 run_np 1 deck.yaml -o straight1
expect_output "already holds checkpoints"
expect_exit 0 run_np 1 deck.yaml -o straight1 --overwrite --steps 10
echo "restart equivalence OK"
