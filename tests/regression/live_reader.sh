#!/usr/bin/env bash
# A live reader never stops a run (docs/output.md "Reading a live run"): while the run writes,
# h5py with default settings holds invariants.h5 and snapshots.h5 open, reads them again and
# again, and postprocess/invariants.py and kirchhoff.load read the folder; the rows seen grow.
# The run goes on (it exited 65, "cannot open invariants.h5", when a reader held the file), is
# stopped by SIGUSR1 (75) and restarted: its log has every step once (restarts stay bitwise:
# restart.sh, kill_loop.sh).
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
three_vortex_deck "{dt: 0.001, steps: 100000000}" \
  "{checkpoint_interval: 2000, log_interval: 20, flush_interval: 5, progress_interval: 0, snapshot_interval: 100}" > deck.yaml
"$BIN/$DRIVER" deck.yaml -o live >run.out 2>&1 & pid=$!
# Any checkpoint means step 2000 was passed: three vortices run ~70000 steps/s, so the first one
# may be rotated away (two kept) between two looks.
first_checkpoint() { compgen -G 'live/checkpoints/checkpoint_*.h5' >/dev/null; }
for _ in $(seq 300); do first_checkpoint && break; sleep 0.1; done
first_checkpoint || { cat run.out; fail "the run did not reach step 2000"; }
timeout 120 $PY - <<'PY' || { cat run.out; fail "a live reader failed"; }
import time, h5py
# The probe of the report: a default reader holds the log for a second, the run keeps writing.
f = h5py.File("live/invariants.h5", "r")
first = len(f["invariants/step"])
g = h5py.File("live/snapshots.h5", "r")
frames = len(g["step"])
time.sleep(1.0)
f.close(); g.close()
# Default readers again and again (each opening may meet a write: then h5py fails and we retry).
seen, failed, t0 = [], 0, time.time()
while time.time() - t0 < 2:
    try:
        with h5py.File("live/invariants.h5", "r") as f:
            seen.append(len(f["invariants/energy"][:]))
    except OSError:
        failed += 1
        time.sleep(0.01)
assert first > 0 and frames > 0, (first, frames)
assert len(seen) > 10 and seen[-1] > first, f"rows seen did not grow: first {first}, then {seen[-3:]}"
print(f"live reads: {first} rows at first, {seen[-1]} after {len(seen)} reads ({failed} met a write and were retried)")
PY
# The reader package and the script, with default settings (kirchhoff.load retries a read that
# meets a write).
timeout 120 $PY "$SRC/postprocess/invariants.py" live -o live.png --columns energy --dpi 40 >py.out 2>&1 || { cat py.out run.out; fail "invariants.py failed on the live run"; }
grep -q "rows, t = 0" py.out || { cat py.out; fail "invariants.py did not read the live log"; }
kill -USR1 $pid
set +e; wait $pid; code=$?; set -e
[ $code = 75 ] || { cat run.out; fail "the run with live readers exited $code, expected 75 (stopped by SIGUSR1)"; }
k=$($CMP newest live/checkpoints)
n=$(( (k / 20 + 25) * 20 ))  # on the log grid, past the stop
expect_exit 0 run_np_t 120 1 deck.yaml -o live --restart --steps $n
$PY - live/invariants.h5 $n <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    s = f["invariants/step"][:]
if not np.array_equal(s, np.arange(0, int(sys.argv[2]) + 1, 20)):
    sys.exit(f"the log's steps are not 0, 20, ..., {sys.argv[2]} once each ({len(s)} rows)")
PY
echo "live reader OK"
