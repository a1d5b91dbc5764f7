#!/usr/bin/env bash
# A valid deck over 64 KiB (HDF5 attributes cannot hold it): a 70 KiB comment block with UTF-8 text runs on 1
# and 2 ranks; invariants.h5, snapshots.h5 and the checkpoints hold the exact deck text in the
# dataset /deck (docs/output.md); --restart with the same deck continues bitwise and the deck
# comparison still refuses a changed time.dt.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.05, end_time: 1.0}
output: {checkpoint_interval: 5, snapshot_interval: 5, progress_interval: 0}
bodies:
  - shape: {type: ellipse, a: 1.0, b: 0.6, edges: 24}
    density: 1.0
vortices:
  - {position: [0.0, 1.8], circulation: 2.0}   # Γ = 2, ρ = 1
YAML
for i in $(seq 1 1000); do
  printf '# note %04d: ellipse a = 1.0, b = 0.6; vortex at (0, 1.8), Γ = 2 — comment padding\n' "$i"
done >> deck.yaml
size=$(stat -c %s deck.yaml)
[ "$size" -gt 70000 ] || fail "deck.yaml has $size bytes, wanted > 70000"
sed 's/dt: 0.05/dt: 0.025/' deck.yaml > dt.yaml
check_deck() {  # check_deck OUTDIR: /deck of the log, its copy, the snapshots, each checkpoint
  $PY - "$1" deck.yaml <<'PY'
import glob, sys, h5py
out, deck = sys.argv[1], open(sys.argv[2], "rb").read()
files = [out + "/invariants.h5", out + "/invariants.h5.ckpt", out + "/snapshots.h5"]
ckpts = sorted(glob.glob(out + "/checkpoints/checkpoint_*.h5"))
assert ckpts, "no checkpoint in " + out
for path in files + ckpts:
    with h5py.File(path, "r") as f:
        assert "deck" in f, f"{path}: no dataset /deck"
        d = f["deck"]
        if path in files:
            assert d.shape == () and h5py.check_string_dtype(d.dtype).encoding == "utf-8", (path, d.dtype)
            assert "deck" not in f.attrs, f"{path}: a deck attribute besides the dataset"
            text = d[()]
        else:  # checkpoint: 1-D char
            text = d[:].astype("u1").tobytes()
        assert text == deck, f"{path}: /deck has {len(text)} bytes, not the deck's {len(deck)} bytes"
print(f"{out}: /deck = the {len(deck)}-byte deck in {len(files) + len(ckpts)} files")
PY
}
for np in 1 2; do
  expect_exit 0 run_np_t 120 $np deck.yaml -o straight$np
  check_deck straight$np
  expect_exit 0 run_np_t 120 $np deck.yaml -o run$np --steps 10
  expect_output "steps 0..10"
  expect_exit 0 run_np_t 120 $np deck.yaml -o run$np --restart
  expect_output "restarting from run$np/checkpoints/checkpoint_0000000010.h5"
  expect_output "finished at step 20"
  check_deck run$np
  $CMP logs straight$np/invariants.h5 run$np/invariants.h5
  $CMP state straight$np/checkpoints run$np/checkpoints
  $CMP snapshots straight$np/snapshots.h5 run$np/snapshots.h5
  expect_exit 65 run_np_t 60 $np dt.yaml -o run$np --restart
  expect_output "time.dt: 0.05 -> 0.025"
done
echo "large deck OK ($size bytes)"
