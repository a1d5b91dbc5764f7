#!/usr/bin/env bash
# Smaller failure paths of the run loop (each once exited with the wrong code or hung): SIGHUP and SIGQUIT stop with a
# checkpoint and exit 75 (not PETSc's 59); a stop right after a restart names the checkpoint it
# restarted from (no empty path); a FIFO named like a checkpoint does not block a restart.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.001, steps: 50000000}
output: {checkpoint_interval: 10000000, log_interval: 100, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
YAML
# wait_started DIR: until the run holds DIR's lock and wrote its step-0 checkpoint
wait_started() {
  for _ in $(seq 200); do
    [ -s "$1/.kirchhoff.lock" ] && [ -n "$(ls "$1"/checkpoints/checkpoint_*.h5 2>/dev/null)" ] && return 0
    sleep 0.1
  done
  fail "$1: the run did not start"
}
for sig in HUP QUIT; do
  "$BIN/$DRIVER" deck.yaml -o $sig >$sig.out 2>&1 & pid=$!
  wait_started $sig
  kill -$sig $pid
  set +e; timeout 60 tail --pid=$pid -f /dev/null; wait $pid; code=$?; set -e
  [ $code = 75 ] || { cat $sig.out; fail "SIG$sig: exit $code, expected 75"; }
  grep -q "stopped at step [0-9]* (signal" $sig.out || { cat $sig.out; fail "SIG$sig: no stop message"; }
done
# Restart, then a stop before the next checkpoint interval: the message names a real file.
"$BIN/$DRIVER" deck.yaml -o HUP --restart >re.out 2>&1 & pid=$!
for _ in $(seq 200); do grep -q "steps [0-9]*\.\." re.out && break; sleep 0.1; done
kill -USR1 $pid
set +e; wait $pid; code=$?; set -e
[ $code = 75 ] || { cat re.out; fail "restart + SIGUSR1: exit $code"; }
path=$(sed -n 's/.*; checkpoint \([^;]*\); continue with --restart.*/\1/p' re.out)
[ -n "$path" ] && [ -f "$path" ] || { cat re.out; fail "the stop message names no checkpoint file ('$path')"; }
# A FIFO named like the newest checkpoint: skipped, not opened (which would block).
mkfifo QUIT/checkpoints/checkpoint_9999999999.h5
expect_exit 75 timeout -k 5 60 "$BIN/$DRIVER" deck.yaml -o QUIT --restart --max-wall 2
expect_output "restarting from QUIT/checkpoints/checkpoint_"
echo "signal edge cases OK"
