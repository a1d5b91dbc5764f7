#!/usr/bin/env bash
# kill -9 loop (a 2-rank restart after kill -9 once hung): a disk + vortex run (checkpoint_interval 7, snapshot_interval 5)
# killed at random times (during steps, checkpoint and snapshot writes), each kill followed by
# --restart, on 1 and 2 ranks; every run under `timeout` (a hang fails); the log and the final
# state bitwise equal to a straight run's. On 2 ranks some kills hit mpirun only: its orphaned
# ranks live on for a moment, and the restart must be refused (64, folder in use) until they are
# gone, never run beside them. KILLS (default 10 per rank count) sets the number of kills.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
KILLS=${KILLS:-10}
deck() {
  cat <<YAML
model: fluidbody
time: {dt: 0.05, steps: $1}
output: {log_interval: 1, checkpoint_interval: 7, progress_interval: 0, snapshot_interval: 5, flush_interval: 3}
bodies:
  - name: disk
    shape: {type: circle, radius: 1.0, edges: 16}
    density: 1.0
    velocity: {omega: 0.0, linear: [0.0, 0.15]}
vortices:
  - position: [2.0, 0.0]
    circulation: 6.283185307179586
YAML
}
# A rank killed inside Open MPI OMPIO's MPI_File_open leaves the named semaphore
# /dev/shm/sem.OMPIO_<file name> taken (a 32-byte glibc semaphore of value 0), and every later
# OMPIO open of a file of that name on the node waited forever (the SLURM kill test hung the runs
# that reached its step). Planted here for the checkpoint of step 7: the drivers choose ROMIO
# (src/io/MpiIo.cpp), so every run below must pass step 7 (each is under `timeout`).
SEM=/dev/shm/sem.OMPIO_.checkpoint_0000000007.h5.tmp
planted=0
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ ! -e $SEM ]; then
  head -c 32 /dev/zero > $SEM && planted=1
  trap 'rm -f $SEM; rm -rf "$WORK"' EXIT
fi
RANDOM=2026  # reproducible kill times
for np in 1 2; do
  n=$(( np == 1 ? 240 : 90 ))
  deck $n > deck$np.yaml
  start=$(date +%s.%N)
  expect_exit 0 run_np_t 120 $np deck$np.yaml -o straight$np
  straight=$(echo "$(date +%s.%N) - $start" | bc)
  kills=0 refused=0 runs=0
  while :; do
    runs=$((runs + 1))
    [ $runs -le $((4 * KILLS + 10)) ] || fail "no end after $runs runs"
    args="deck$np.yaml -o loop$np"
    [ -n "$(ls loop$np/checkpoints/checkpoint_*.h5 2>/dev/null)" ] && args="$args --restart"
    if [ $np = 1 ]; then timeout -k 5 90 "$BIN/$DRIVER" $args >run.out 2>&1 & pid=$!
    else timeout -k 5 90 mpirun -n 2 "$BIN/$DRIVER" $args >run.out 2>&1 & pid=$!; fi
    if [ $kills -lt $KILLS ]; then
      # a random time within the straight run's length: set-up, steps, snapshots, checkpoints
      sleep "$(echo "scale=3; $straight * ($RANDOM % 1000) / 1000" | bc)"
      job=$(pgrep -P $pid | head -1 || true)  # the driver (1 rank) or mpirun (2 ranks)
      if [ -n "$job" ]; then
        ranks=$(pgrep -P "$job" | tr "\n" " " || true)
        if [ $np = 2 ] && [ $((RANDOM % 3)) = 0 ]; then kill -9 "$job"  # mpirun only: orphans
        else kill -9 "$job" $ranks 2>/dev/null || true; fi
        kills=$((kills + 1))
      fi
    fi
    set +e; wait $pid; code=$?; set -e
    case $code in
      0) break ;;
      124|137) [ $code = 137 ] || { cat run.out; fail "a run on $np rank(s) hung (timeout)"; } ;;
      64) grep -q "is in use by another kirchhoff run" run.out || { cat run.out; fail "exit 64 without a holder"; }
          refused=$((refused + 1)); sleep 0.5 ;;
      *) grep -q "watchdog" run.out && { cat run.out; fail "the watchdog stopped a run"; }
         [ $code = 1 ] && grep -q "mpirun noticed\|exited on signal 9\|killed" run.out || { cat run.out; fail "run exited $code"; } ;;
    esac
  done
  echo "$np rank(s): $kills kills, $refused restarts refused while orphans lived, $runs runs"
  $CMP logs straight$np/invariants.h5 loop$np/invariants.h5
  $CMP state straight$np/checkpoints loop$np/checkpoints
  [ -z "$(find loop$np -name '*.tmp')" ] || fail "temporary files left: $(find loop$np -name '*.tmp')"
done
[ $planted = 1 ] && echo "(with a taken OMPIO semaphore planted for step 7)"
echo "kill loop OK"
