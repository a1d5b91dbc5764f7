#!/usr/bin/env bash
# Hostile input through the drivers (no wrap-around, no unbounded read or run): integer keys beyond their range,
# decks and vertex files that are devices, directories or FIFOs, a second YAML document, a huge
# particle count: each refused with exit 65 and a message naming file, key and limit, at once.
# SIGHUP and SIGQUIT stop a run like SIGTERM (checkpoint, exit 75).
source "$(dirname "$0")/lib.bash"
quick() { timeout 20 "$@"; }  # a hang (reading a FIFO, an O(N) set-up) fails as exit 124

# --- integer keys wrap no more (item 2) --------------------------------------------------------
sed 's/points: 200 /points: 4294967298 /' "$SRC/input/slosh_small.yaml" > wrap_points.yaml
expect_exit 65 quick "$BIN/kirchhoff-slosh" wrap_points.yaml -o out
expect_output "wrap_points.yaml:26:11: key 'fluid.points': value 4294967298 out of range, expected integer [2, 10000000]"
sed 's/max_iterations: 50/max_iterations: 4294967296/' "$SRC/input/top_kovalevskaya.yaml" > wrap_newton.yaml
expect_exit 65 quick "$BIN/kirchhoff-top" wrap_newton.yaml -o out
expect_output "key 'newton.max_iterations': value 4294967296 out of range, expected integer [1, 2147483647]"
sed 's/steps: 10}/steps: 99999999999999999999}/' > wrap_steps.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 10}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
YAML
expect_exit 65 quick "$BIN/kirchhoff-fluidbody" wrap_steps.yaml -o out
expect_output "key 'time.steps': value 99999999999999999999 out of range, expected integer [0, 9007199254740992]"

# --- huge sizes are refused before any O(N) work (item 4) --------------------------------------
sed 's/points: 200 /points: 1000000000 /' "$SRC/input/slosh_small.yaml" > huge.yaml
expect_exit 65 quick "$BIN/kirchhoff-slosh" huge.yaml -o out
expect_output "key 'fluid.points': value 1000000000 out of range"
# At the largest allowed N the deck's dt is 25000 times the CFL bound: refused from 1025 sampled
# grid points (building the grid alone took 36 s and 3.5 GB).
sed 's/points: 200 /points: 10000000 /' "$SRC/input/slosh_small.yaml" > big.yaml
start=$(date +%s)
expect_exit 65 quick "$BIN/kirchhoff-slosh" big.yaml -o out
expect_output "time.dt = 0.0025 s exceeds the Stormer-Verlet stability bound: wave CFL"
[ $(( $(date +%s) - start )) -le 3 ] || fail "the CFL refusal of N = 10^7 took more than 3 s"

# --- decks that are not regular files (items 3, 10) --------------------------------------------
expect_exit 65 quick "$BIN/kirchhoff-top" /dev/zero
expect_output "/dev/zero: cannot open the deck: is a character device, not a regular file"
mkdir deckdir.yaml
expect_exit 65 quick "$BIN/kirchhoff-top" deckdir.yaml
expect_output "deckdir.yaml: cannot open the deck: is a directory, not a regular file"
mkfifo fifo.yaml
expect_exit 65 quick "$BIN/kirchhoff-top" fifo.yaml
expect_output "fifo.yaml: cannot open the deck: is a FIFO (named pipe), not a regular file"
expect_exit 65 quick mpirun -n 2 "$BIN/kirchhoff-top" fifo.yaml
expect_output "fifo.yaml: cannot open the deck: is a FIFO"
{ cat "$SRC/input/top_kovalevskaya.yaml"; printf -- '---\nscheme: direct_implicit_midpoint\n'; } > two_docs.yaml
expect_exit 65 quick "$BIN/kirchhoff-top" two_docs.yaml -o out
expect_output "two_docs.yaml:$(( $(wc -l < "$SRC/input/top_kovalevskaya.yaml") + 2 )):1: a second YAML document"

# --- vertex files (item 3) ---------------------------------------------------------------------
poly() {
  cat > "$1" <<YAML
model: fluidbody
time: {dt: 0.01, steps: 2}
bodies:
  - shape: {type: polygon, file: $2}
    density: 1.0
YAML
}
printf '1 0\n0 1\n-1 0\n0 -1\n' > square.txt
poly poly_ok.yaml square.txt
expect_exit 0 quick "$BIN/kirchhoff-fluidbody" poly_ok.yaml -o poly_ok
for bad in /dev/zero vertexdir vertex.fifo; do
  case $bad in vertexdir) mkdir vertexdir ;; vertex.fifo) mkfifo vertex.fifo ;; esac
  poly poly_bad.yaml "$bad"
  expect_exit 65 quick "$BIN/kirchhoff-fluidbody" poly_bad.yaml -o poly_bad
  expect_output "poly_bad.yaml:4:"
  expect_output "key 'bodies[0].shape.file': "
  expect_output "cannot open the vertex file: is a"
done
head -c 5000000 /dev/zero | tr '\0' '1' > vertex_big.txt
poly poly_big.yaml vertex_big.txt
expect_exit 65 quick "$BIN/kirchhoff-fluidbody" poly_big.yaml -o poly_big
expect_output "is 5000000 bytes, more than the 4 MiB an input file may have"

# --- output folders and checkpoints that cannot be used (item 10) -----------------------------
expect_exit 64 quick "$BIN/kirchhoff-top" "$SRC/input/top_kovalevskaya.yaml" -o /proc/kirchhoff-out
expect_output "cannot create output folder /proc/kirchhoff-out"
expect_exit 64 quick "$BIN/kirchhoff-top" "$SRC/input/top_kovalevskaya.yaml" -o /proc
expect_output "output folder /proc is not writable"
sed 's/end_time: 100.0 /end_time: 1.0 /' "$SRC/input/top_kovalevskaya.yaml" > top_short.yaml
expect_exit 0 quick "$BIN/kirchhoff-top" top_short.yaml -o ck
mkfifo ck/checkpoints/checkpoint_0000000099.h5  # newer than the real one (step 50)
expect_exit 0 quick "$BIN/kirchhoff-top" top_short.yaml -o ck --restart --steps 60
expect_output "skipping checkpoint ck/checkpoints/checkpoint_0000000099.h5"
expect_output "not a regular file"
expect_output "restarting from ck/checkpoints/checkpoint_0000000050.h5"
# A stop before the first step after a restart names the checkpoint (it printed "checkpoint ;").
expect_exit 75 quick "$BIN/kirchhoff-top" top_short.yaml -o ck --restart --steps 70 --max-wall 0.001
expect_output "stopped at step 60 (wall-clock budget of 0.001 s); checkpoint ck/checkpoints/checkpoint_0000000060.h5; continue with --restart"

# --- a non-finite initial state names the deck's initial data (item 10) ------------------------
sed 's/Pi: \[2.0, 0.0, 4.0\]/Pi: [1.0e200, 0.0, 4.0]/' "$SRC/input/top_kovalevskaya.yaml" > top_inf.yaml
expect_exit 1 quick "$BIN/kirchhoff-top" top_inf.yaml -o inf
expect_output "top_inf.yaml:$(( $(grep -n '^initial:' top_inf.yaml | cut -d: -f1) + 1 )):3: "  # its first key
expect_output "key 'initial': the initial state: invariant 'energy' is not finite"

# --- SIGHUP and SIGQUIT stop a run like SIGTERM: checkpoint, exit 75 (item 10; they exited 59) --
cat > long.yaml <<'YAML'
model: fluidbody
time: {dt: 0.001, steps: 5000000}
output: {checkpoint_interval: 100000, log_interval: 50, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
YAML
for sig in HUP QUIT TERM; do
  "$BIN/kirchhoff-fluidbody" long.yaml -o sig_$sig > sig.out 2>&1 & pid=$!
  sleep 2
  kill -$sig $pid
  set +e; timeout 20 tail --pid=$pid -f /dev/null; wait $pid; code=$?; set -e
  [ $code = 75 ] || { cat sig.out >&2; fail "SIG$sig: exit $code, expected 75"; }
  grep -q "stopped at step .* (signal $(kill -l $sig)); checkpoint sig_$sig/checkpoints/checkpoint_" sig.out ||
    { cat sig.out >&2; fail "SIG$sig: no stop message naming the checkpoint"; }
done
echo "hostile input OK"
