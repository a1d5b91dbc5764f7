#!/usr/bin/env bash
# Symbolic links in OUTDIR are never written through, docs/running.md "One run per output folder":
# a link planted as the lock file, the log, its copy, the snapshots, an XDMF index,
# summary.json or the checkpoints folder is refused with exit 64 naming it, on a fresh run and on
# a restart, and its target (a scratch file of this test) keeps its contents. The run wrote and
# then emptied a linked lock file's target, and truncated a linked snapshots.h5's.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
three_vortex_deck "{dt: 0.01, steps: 20}" "{checkpoint_interval: 10, progress_interval: 0, snapshot_interval: 5}" > deck.yaml
printf 'precious\n' > victim
mkdir -p victimdir
check_victim() { [ "$(cat victim)" = precious ] || fail "$1: the link's target was written: $(head -c 80 victim)"; }
# plant NAME DIR: a link DIR/NAME -> the scratch file (or folder, for checkpoints)
plant() { rm -rf "$2/$1"; if [ "$1" = checkpoints ]; then ln -s "$WORK/victimdir" "$2/$1"; else ln -s "$WORK/victim" "$2/$1"; fi; }
for name in .kirchhoff.lock invariants.h5 invariants.h5.ckpt snapshots.h5 snapshots_vortices.xmf summary.json checkpoints; do
  rm -rf fresh && mkdir fresh && plant $name fresh
  expect_exit 64 run_np_t 60 1 deck.yaml -o fresh
  expect_output "fresh/$name is a symbolic link (to $WORK/victim"
  check_victim "fresh run, $name"
done
# A restart finds the links at its start too (the log and the snapshots are continued in place).
expect_exit 0 run_np_t 60 1 deck.yaml -o run --steps 10
for name in invariants.h5 snapshots.h5 .kirchhoff.lock; do
  mv "run/$name" "run/$name.real"
  plant $name run
  expect_exit 64 run_np_t 60 1 deck.yaml -o run --restart
  expect_output "run/$name is a symbolic link"
  check_victim "restart, $name"
  rm "run/$name" && mv "run/$name.real" "run/$name"
done
[ -z "$(ls victimdir)" ] || fail "files were written into a linked checkpoints folder: $(ls victimdir)"
expect_exit 0 run_np_t 60 1 deck.yaml -o run --restart  # the folder restored: the run continues
# The same on 2 ranks: every rank stops with rank 0's verdict.
rm -rf two && mkdir two && plant .kirchhoff.lock two
expect_exit 64 run_np_t 60 2 deck.yaml -o two
expect_output "two/.kirchhoff.lock is a symbolic link"
check_victim "2 ranks"
echo "outdir links OK"
