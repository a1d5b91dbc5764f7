#!/usr/bin/env bash
# Disk full (it must read "no space left" and keep the checkpoint) on a small tmpfs in a private mount namespace (skipped, exit 77,
# where mounting is not allowed): exit 65 with "no space left", the step and the checkpoint kept;
# no temporary file left; the kept checkpoint and log continue (--restart after the disk grew)
# to the end, bitwise equal to a straight run. Once through a snapshot, once through the log and
# checkpoints on 1 rank, through a snapshot on 2 ranks.
if [ -z "${KIRCHHOFF_IN_NAMESPACE:-}" ]; then
  if ! unshare -m true 2>/dev/null; then echo "skipped: no mount namespace (unshare -m) here"; exit 77; fi
  KIRCHHOFF_IN_NAMESPACE=1 exec unshare -m --propagation private bash "$0" "$@"
fi
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
mkdir full
mount -t tmpfs -o size=1m tmpfs full 2>/dev/null || { echo "skipped: cannot mount a tmpfs here"; exit 77; }
trap 'umount full 2>/dev/null; rm -rf "$WORK"' EXIT
cat > snap.yaml <<'YAML'
model: fluidbody
time: {dt: 0.001, steps: 1500}
output: {checkpoint_interval: 100, snapshot_interval: 1, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
  - {position: [-0.3, 1.1], circulation: -0.4}
YAML
sed 's/snapshot_interval: 1/snapshot_interval: 0, keep_checkpoints: 40, flush_interval: 10/; s/steps: 1500/steps: 9000/; s/checkpoint_interval: 100/checkpoint_interval: 200/' snap.yaml > log.yaml
sed 's/steps: 1500/steps: 200/; s/checkpoint_interval: 100/checkpoint_interval: 20/' snap.yaml > snap2.yaml
# deck, ranks, tmpfs size (2 ranks write snapshots slowly here: a shorter run on a smaller disk)
for c in "snap 1 1m" "log 1 1m" "snap2 2 700k"; do
  read -r deck np size <<<"$c"
  (
    umount full; mount -t tmpfs -o size=$size tmpfs full
    expect_exit 0 run_np_t 120 $np $deck.yaml -o straight-$deck$np
    expect_exit 65 run_np_t 120 $np $deck.yaml -o full/run
    cat last.out
    expect_output "no space left on device"
    expect_output "step "
    expect_output "last good checkpoint kept: full/run/checkpoints/checkpoint_"
    grep -v "^error: step [0-9]*: " last.out | grep -q "^error" && { cat last.out; fail "an error message without the step"; }
    [ -z "$(find full -name '*.tmp')" ] || fail "temporary files left: $(find full -name '*.tmp')"
    mount -o remount,size=64m full
    expect_exit 0 run_np_t 120 $np $deck.yaml -o full/run --restart
    $CMP logs straight-$deck$np/invariants.h5 full/run/invariants.h5
    $CMP state straight-$deck$np/checkpoints full/run/checkpoints
    rm -rf full/run
  )
done
# Full at start-up (24 KiB: the log is created, its checkpoint copy is not): copying the log on
# tmpfs fails with "Input/output error", which was all the message said.
umount full; mount -t tmpfs -o size=24k tmpfs full
expect_exit 65 run_np_t 60 1 snap.yaml -o full/start
expect_output "no space left on device"
echo "disk full OK"
