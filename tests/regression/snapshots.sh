#!/usr/bin/env bash
# Snapshots (docs/output.md "Snapshots"): the final state is a frame even off the snapshot grid;
# a run stopped and continued with --restart (1 and 2 ranks, from its end-of-run checkpoint and
# from an interval checkpoint) leaves snapshots.h5 bitwise equal to an uninterrupted run's and
# complete .xmf indexes (one frame per stored frame, well-formed XML); a damaged snapshots.h5 is
# set aside with a warning and the run continues.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
sed -e 's/snapshot_interval: 2/snapshot_interval: 3/' -e 's/checkpoint_interval: 1000/checkpoint_interval: 5/' \
    "$SRC/input/fluidbody_disk_vortex_coarse.yaml" > deck.yaml
grep -q "snapshot_interval: 3" deck.yaml || fail "deck edit"
frames() {  # OUTDIR: the stored steps, end-of-run flags and per-mesh .xmf frame counts
  $PY -c "
import sys, h5py, xml.etree.ElementTree as ET
with h5py.File('$1/snapshots.h5', 'r') as f:
    steps, end = list(f['step'][()]), list(f['end_of_run'][()])
    meshes = f.attrs['meshes'].split(',')
counts = []
for m in meshes:
    root = ET.parse('$1/snapshots_%s.xmf' % m).getroot()
    counts.append(len(root.findall('./Domain/Grid/Grid')))
print(' '.join(map(str, steps)), '|', ' '.join(map(str, end)), '|', ' '.join(map(str, counts)))
"
}
for np in 1 2; do
  expect_exit 0 run_np $np deck.yaml -o straight$np --steps 23
  got=$(frames straight$np)
  want="0 3 6 9 12 15 18 21 23 | 0 0 0 0 0 0 0 0 1 | 9 9 9"
  [ "$got" = "$want" ] || fail "np $np frames: $got (want $want)"
  # Stopped at step 11 (an end-of-run frame), continued: the frame at 11 goes, 12.. follow.
  expect_exit 0 run_np $np deck.yaml -o split$np --steps 11
  [ "$(frames split$np)" = "0 3 6 9 11 | 0 0 0 0 1 | 5 5 5" ] || fail "np $np split frames: $(frames split$np)"
  expect_exit 0 run_np $np deck.yaml -o split$np --restart --steps 23
  expect_output "(step 11"
  $CMP snapshots straight$np/snapshots.h5 split$np/snapshots.h5
  [ "$(frames split$np)" = "$want" ] || fail "np $np restarted frames: $(frames split$np)"
  # From an older interval checkpoint (step 15; the newest is the end one, 17): frames after it are cut and written again.
  expect_exit 0 run_np $np deck.yaml -o older$np --steps 17
  expect_exit 0 run_np $np deck.yaml -o older$np --restart older$np/checkpoints/checkpoint_0000000015.h5 --steps 23
  $CMP snapshots straight$np/snapshots.h5 older$np/snapshots.h5
done
# A damaged file is set aside; the run goes on and writes the frames after the restart step.
expect_exit 0 run_np 1 deck.yaml -o damaged --steps 11
$PY -c "import os; os.truncate('damaged/snapshots.h5', 500)"
expect_exit 0 run_np 1 deck.yaml -o damaged --restart --steps 23
expect_output "damaged/snapshots.h5 is unreadable: kept aside as damaged/snapshots.h5.unreadable-11"
[ -f damaged/snapshots.h5.unreadable-11 ] || fail "damaged file not kept"
[ "$(frames damaged)" = "12 15 18 21 23 | 0 0 0 0 1 | 5 5 5" ] || fail "frames after the damage: $(frames damaged)"
echo "snapshots OK"
