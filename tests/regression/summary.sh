#!/usr/bin/env bash
# OUTDIR/summary.json (docs/output.md "summary.json"): written at the end of every run, finished, failed or stopped;
# its numbers agree with the invariant log, the checkpoint and the command line; a restarted run
# counts the whole log; jobscripts/summarize aggregates a sweep's cases.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 40}
output: {progress_interval: 0, checkpoint_interval: 20}
bodies:
  - shape: {type: circle, radius: 1.0, edges: 32}
    density: 1.0
    pose: {theta: 0.0, position: [0.0, 0.0]}
vortices:
  - {position: [2.5, 0.0], circulation: 1.0}
YAML
# check OUTDIR NP EXIT FIRST LAST: the summary against the log, the newest checkpoint and the run.
check() {
  $PY - "$@" <<'PY'
import glob, json, sys, h5py, numpy as np
out, np_, code, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
s = json.load(open(out + "/summary.json"))
status = {0: "finished", 1: "failed", 75: "stopped"}[code]
assert (s["model"], s["ranks"], s["exit_status"], s["status"]) == ("fluidbody", np_, code, status), s
assert (s["first_step"], s["last_step"], s["final_step"]) == (first, last, 40), s
assert s["steps"] == last - first and s["wall_seconds"] > 0, s
if last > first:
    assert abs(s["steps_per_second"] - s["steps"] / s["wall_seconds"]) <= 1e-5 * s["steps_per_second"], s
assert (s["message"] == "") == (code == 0), s["message"]
with h5py.File(out + "/invariants.h5", "r") as f:
    attr = lambda k: f.attrs[k].decode() if isinstance(f.attrs[k], bytes) else f.attrs[k]
    assert s["git_sha"] == attr("git_sha") and s["deck_file"] == attr("deck_file"), s
    g = f["invariants"]
    # Conserved here (a body and a vortex): energy and the momentum maps, not the vortex impulses.
    want = ["energy", "momentum_x", "momentum_y", "angular_momentum",
            "c2_momentum_x", "c2_momentum_y", "c2_angular_momentum"]
    assert list(s["max_relative_change"]) == want, list(s["max_relative_change"])
    for k in want:
        v = g[k][:]
        scale = abs(v[0]) if abs(v[0]) > 1e-12 else 1.0
        ref = np.max(np.abs(v - v[0])) / scale
        assert abs(s["max_relative_change"][k] - ref) <= 1e-5 * ref + 1e-300, (k, s["max_relative_change"][k], ref)
    assert g["step"][-1] == last, g["step"][-1]
ck = sorted(glob.glob(out + "/checkpoints/checkpoint_*.h5"))[-1]
with h5py.File(ck, "r") as f:
    h = f.attrs["deck_hash"]
    assert s["deck_hash"] == (h.decode() if isinstance(h, bytes) else h), (s["deck_hash"], h)
print(out, "summary OK:", s["status"], s["steps"], "steps")
PY
}
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o run
check run 1 0 0 40
expect_exit 0 mpirun -n 2 "$BIN/$DRIVER" deck.yaml -o run2
check run2 2 0 0 40
# Stopped by its wall budget (exit 75), then continued: the restart counts from its checkpoint,
# its largest changes cover the whole log.
expect_exit 75 "$BIN/$DRIVER" deck.yaml -o stop --max-wall 0.01
check stop 1 75 0 0
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o stop --restart
check stop 1 0 0 40
# A run killed before its end (kill -9) leaves no summary.json, not the one of the run before it in the folder.
"$BIN/$DRIVER" deck.yaml -o stop --restart --steps 100000000 > killed.log 2>&1 &
killed=$!
for _ in $(seq 100); do [ -f stop/summary.json ] || break; sleep 0.1; done
sleep 0.5
kill -9 $killed 2>/dev/null || fail "the run to kill ended by itself: $(cat killed.log)"
wait $killed 2>/dev/null || true
[ ! -e stop/summary.json ] || fail "a killed run left the summary of the run before it: $(cat stop/summary.json)"
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o part --steps 20
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o part --restart
check part 1 0 20 40
# A failed step (exit 1) still leaves its summary with the message.
expect_exit 1 "$BIN/$DRIVER" deck.yaml -o fail -del_snes_max_it 1 -del_snes_rtol 1e-30 -del_snes_atol 1e-30
check fail 1 1 0 0
grep -q '"message": "step 1 failed: SNES' fail/summary.json || fail "the failure message is not in the summary"
# A sweep: one summary per case, and jobscripts/summarize aggregates them (worst change, counts).
cat > sweep.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 20}
output: {progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
sweep:
  parameters:
    - key: vortices[1].circulation
      values: [0.7, 0.5, 0.3]
YAML
expect_exit 0 "$BIN/$DRIVER" sweep.yaml -o sweep
rm sweep/case002/summary.json  # as if case 2 of a job array had not ended yet
set +e; "$SRC/jobscripts/summarize" sweep > last.out 2>&1; rc=$?; set -e
[ $rc = 3 ] || { cat last.out; fail "summarize with a missing case exited $rc, expected 3"; }
expect_output "case002   no summary.json yet"
expect_exit 0 "$BIN/$DRIVER" sweep.yaml -o sweep --case 2 --overwrite  # the job-array task of case 2
expect_exit 0 "$SRC/jobscripts/summarize" sweep
expect_output "sweep summary: sweep/summary.json (3 cases, 3 finished)"
$PY - sweep <<'PY'
import json, sys
d = sys.argv[1]
a = json.load(open(d + "/summary.json"))
cases = [json.load(open("%s/case%03d/summary.json" % (d, i))) for i in range(3)]
assert a["kind"] == "sweep" and a["cases"] == 3 and a["exit_status"] == 0 and a["missing"] == [], a
assert a["steps"] == sum(c["steps"] for c in cases) == 60, a["steps"]
# No bodies: the vortex impulses are conserved too.
for k in ("energy", "impulse_x", "angular_impulse"):
    assert a["max_relative_change"][k] == max(c["max_relative_change"][k] for c in cases), k
print("sweep summary OK")
PY
# jobscripts/status on the sweep as a job array would leave it (each case's slurm/ bookkeeping):
# one summary line per case and the sweep summary, written afresh.
for i in 0 1 2; do c=$(printf sweep/case%03d $i); mkdir -p $c/slurm; echo "finished at step 20" > $c/slurm/state; : > $c/slurm/jobs.tsv; done
rm sweep/summary.json
expect_exit 0 bash "$SRC/jobscripts/status" sweep
expect_output "summary:    $PWD/sweep/case001/summary.json (finished, exit 0, steps 0..20,"
expect_output "== sweep summary: $PWD/sweep/summary.json (3 cases: 3 finished; exit 0)"
[ -s sweep/summary.json ] || fail "status did not write the sweep summary"
expect_exit 66 "$SRC/jobscripts/summarize" nowhere
expect_output "summarize: no folder nowhere"
echo "summary OK"
