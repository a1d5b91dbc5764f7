#!/usr/bin/env bash
# Bad input through the driver (one clear line and a documented exit code): usage errors exit 64, bad decks 65 with file:line:col,
# corrupt checkpoints fall back with a warning, no usable checkpoint exits 65.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 100}
output: {checkpoint_interval: 20, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.0], circulation: 1.0}
YAML
expect_exit 64 "$BIN/$DRIVER"
expect_output "no deck given"
expect_exit 64 "$BIN/$DRIVER" deck.yaml --stepz 3
expect_output "unknown option --stepz"
expect_exit 64 "$BIN/$DRIVER" deck.yaml --steps -3
expect_exit 65 "$BIN/$DRIVER" missing.yaml
expect_output "missing.yaml: cannot open the deck"
sed 's/circulation: 1.0}/circulaton: 1.0}/' deck.yaml | sed '0,/circulaton/s//circulation/' > typo.yaml
expect_exit 65 "$BIN/$DRIVER" typo.yaml
expect_output "typo.yaml:6:"
expect_output "vortices[1].circulaton': unknown key (did you mean 'circulation'?)"
sed 's/dt: 0.01/dt: zero/' deck.yaml > badtype.yaml
expect_exit 65 mpirun -n 2 "$BIN/$DRIVER" badtype.yaml
expect_output "badtype.yaml:2:12: key 'time.dt': expected a real > 0, got 'zero'"
[ "$(grep -c "expected a real" last.out)" = 1 ] || fail "the deck error must be printed once (rank 0)"
sed 's/model: fluidbody/model: fluidbody\npetsc_options: "del_snes_rtol 1e-3"/' deck.yaml > badopts.yaml
expect_exit 65 "$BIN/$DRIVER" badopts.yaml
expect_output "petsc_options"
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o run -del_snes_monitr
expect_output "PETSc option -del_snes_monitr was not used"
# Corrupt the newest checkpoint: restart falls back to the previous one and says so.
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o run --restart --steps 100
newest=$(ls run/checkpoints/checkpoint_*.h5 | tail -1)
truncate -s 1000 "$newest"
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o run --restart --steps 120
expect_output "skipping checkpoint"
expect_output "restarting from run/checkpoints/checkpoint_0000000080.h5"
# Flip one byte in the data of the newest: the hash catches it.
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o flip --steps 40
newest=$(ls flip/checkpoints/checkpoint_*.h5 | tail -1)
$PY - "$newest" <<'PY'
import sys, h5py, numpy as np
path = sys.argv[1]
with h5py.File(path, "r") as f:
    off = f["state/q"].id.get_offset()
with open(path, "r+b") as f:
    f.seek(off + 3); b = f.read(1); f.seek(off + 3); f.write(bytes([b[0] ^ 0x10]))
PY
# The file seal (HDF5 user block) catches it before HDF5 parses the file.
cp "$newest" sealed_copy.h5
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o flip --restart --steps 60
expect_output "file hash mismatch"
expect_output "restarting from flip/checkpoints/checkpoint_0000000020.h5"
# Second line of defence: the same flipped byte under a re-computed (valid) seal reaches the
# state hash, which names the damaged field's checkpoint as unusable too.
mkdir -p reseal/checkpoints
$PY - sealed_copy.h5 reseal/checkpoints/checkpoint_0000000040.h5 <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
h = 1469598103934665603
for b in data[512:]:
    h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
head = ("kirchhoff-checkpoint-1 file-hash %016x size %d\n" % (h, len(data) - 512)).encode()
data[:512] = head + bytes(512 - len(head))
open(sys.argv[2], "wb").write(data)
PY
expect_exit 65 "$BIN/$DRIVER" deck.yaml -o reseal --restart --steps 60
expect_output "state hash mismatch"
# No usable checkpoint at all: exit 65, nothing overwritten.
for f in flip/checkpoints/checkpoint_*.h5; do truncate -s 10 "$f"; done
expect_exit 65 "$BIN/$DRIVER" deck.yaml -o flip --restart
expect_output "no usable checkpoint"
expect_exit 65 "$BIN/$DRIVER" deck.yaml -o empty --restart
expect_output "no checkpoint in empty/checkpoints"
echo "failures OK"
