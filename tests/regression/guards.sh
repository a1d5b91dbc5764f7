#!/usr/bin/env bash
# Numerical guards through the real fluidbody driver (never a silently wrong number), on 1 and 2 ranks:
# SNES divergence at step k stops with exit 1, names step k, keeps the last good checkpoint (and
# writes none of the failed step); a vortex reaching a body stops with exit 1 and a checkpoint
# of that very (valid) step. The NaN/Inf guards are tested with a test model in tests/run.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > snes.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 60}
output: {checkpoint_interval: 10, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
  - {position: [-0.3, 1.1], circulation: -0.4}
YAML
# A dipole (K = +-2, 0.6 apart) heading for a free disk of 16 panels: it comes closer than one
# panel length (0.398) after ~5.5 time units.
cat > near.yaml <<'YAML'
model: fluidbody
time: {dt: 0.05, steps: 400}
output: {checkpoint_interval: 20, progress_interval: 0}
fluid: {density: 1.0, min_distance_panels: 1.0}
bodies:
  - shape: {type: circle, radius: 1.0, edges: 16}
    density: 1.0
vortices:
  - {position: [-4.0, 0.3], circulation: 2.0}
  - {position: [-4.0, -0.3], circulation: -2.0}
YAML
# SNES that cannot converge (one iteration, unreachable tolerances) from step 31 on.
nosnes=(-del_snes_max_it 1 -del_snes_atol 1e-300 -del_snes_rtol 1e-300 -del_snes_stol 1e-300)
for np in 1 2; do
  expect_exit 0 run_np $np snes.yaml -o snes$np --steps 30
  expect_exit 1 run_np $np snes.yaml -o snes$np --restart "${nosnes[@]}"
  expect_output "step 31 failed: SNES (-del_) did not converge: DIVERGED_MAX_IT"
  expect_output "last good checkpoint kept: snes$np/checkpoints/checkpoint_0000000030.h5"
  [ "$(grep -c 'step 31 failed' last.out)" = 1 ] || fail "the failure must be printed once (rank 0)"
  [ "$($CMP newest snes$np/checkpoints)" = 30 ] || fail "newest checkpoint is not the last good one (30)"
  # The kept checkpoint is usable: the same run with a working solver finishes from it and
  # matches an uninterrupted run.
  expect_exit 0 run_np $np snes.yaml -o snes$np --restart
  expect_output "restarting from snes$np/checkpoints/checkpoint_0000000030.h5"
  expect_exit 0 run_np $np snes.yaml -o ref$np
  $CMP state ref$np/checkpoints snes$np/checkpoints
  $CMP logs ref$np/invariants.h5 snes$np/invariants.h5

  expect_exit 1 run_np $np near.yaml -o near$np
  expect_output "closer than one panel length"
  k=$(sed -n 's/.*error: step \([0-9]*\): vortex .*/\1/p' last.out | head -1)
  [ -n "$k" ] && [ "$k" -gt 20 ] || fail "no 'step k: vortex ...' message"
  expect_output "checkpoint written: near$np/checkpoints/$(printf 'checkpoint_%010d.h5' "$k")"
  [ "$($CMP newest near$np/checkpoints)" = "$k" ] || fail "the stop step $k was not checkpointed"
  [ $np = 1 ] && k1=$k
  [ "$k" = "$k1" ] || fail "stop step $k on $np ranks, $k1 on 1 rank"
done
echo "guards OK (SNES divergence at step 31, vortex stop at step $k1)"
