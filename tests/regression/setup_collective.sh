#!/usr/bin/env bash
# Every set-up verdict is collective (docs/running.md "Restart and wall-clock budgets"): an MPMD
# launch whose ranks read different files (a node-local vertex file, a deck with another
# override) ends every rank with the failing rank's message and exit 65 at once. It hung, and
# with output.stall_timeout the watchdog ended it with 75, which makes a SLURM chain requeue a
# deck that can never work.
source "$(dirname "$0")/lib.bash"
B="$BIN/kirchhoff-fluidbody"
mkdir a b
for d in a b; do
  cat > $d/deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 5}
output: {progress_interval: 0, stall_timeout: 5}
bodies:
  - shape: {type: polygon, file: square.txt}
    density: 1.0
vortices:
  - {position: [0.0, 8.0], circulation: 1.0}
YAML
done
printf '1 1\n-1 1\n-1 -1\n1 -1\n' > a/square.txt
printf '1 1\n-1 oops\n' > b/square.txt
# Rank 1's vertex file is bad, then rank 0's: exit 65 and the bad file named, well before the watchdog.
expect_exit 65 timeout -k 5 60 mpirun -n 1 "$B" a/deck.yaml -o v1 : -n 1 "$B" b/deck.yaml -o v1
expect_output "b/square.txt:2: expected two numbers 'x y'"
! grep -q watchdog last.out || fail "the watchdog ended the set-up: $(grep watchdog last.out)"
expect_exit 65 timeout -k 5 60 mpirun -n 1 "$B" b/deck.yaml -o v2 : -n 1 "$B" a/deck.yaml -o v2
expect_output "b/square.txt:2: expected two numbers 'x y'"
# An override that only rank 1 was given.
expect_exit 65 timeout -k 5 60 mpirun -n 1 "$B" a/deck.yaml -o v3 : -n 1 "$B" a/deck.yaml -o v3 --set time.dt=-1
expect_output "--set time.dt=-1: key 'time.dt'"
expect_exit 0 timeout -k 5 60 mpirun -n 2 "$B" a/deck.yaml -o v4  # the good deck runs
echo "collective set-up OK"
