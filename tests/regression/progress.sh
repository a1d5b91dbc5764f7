#!/usr/bin/env bash
# The progress line prints the running maximum of |dE/E0| (docs/running.md "Running a driver"),
# not a sample: on the disk + vortex dance the energy error oscillates, and the sample rose and
# fell like a drift. Every printed value equals the maximum over the log's rows up to that step
# (to its 4 printed digits), never decreases, is summary.json's max_relative_change.energy at the
# end, and a restart continues it from the rows before the restart.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
sed 's/end_time: 100.0/end_time: 20.0/; s/progress_interval: 400/progress_interval: 20/; s/snapshot_interval: 20/snapshot_interval: 0/' \
  "$SRC/input/fluidbody_disk_vortex.yaml" > deck.yaml
expect_exit 0 run_np_t 120 1 deck.yaml -o run --steps 400
cp last.out first.out
expect_exit 0 run_np_t 120 1 deck.yaml -o run --restart
cat first.out last.out > all.out
$PY - all.out run <<'PY'
import json, re, sys, h5py, numpy as np
lines = re.findall(r"^step (\d+)/\d+ .* max\|dE/E0\| (\S+) ", open(sys.argv[1]).read(), re.M)
assert len(lines) == 40, f"expected 40 progress lines, got {len(lines)}"
with h5py.File(sys.argv[2] + "/invariants.h5", "r") as f:
    step, E = f["invariants/step"][:], f["invariants/energy"][:]
rel = np.abs(E - E[0]) / abs(E[0])
running = np.maximum.accumulate(rel)
printed = [float(v) for _, v in lines]
assert all(b >= a for a, b in zip(printed, printed[1:])), f"the printed maximum decreased: {printed}"
for s, v in lines:
    want = running[np.searchsorted(step, int(s))]
    assert abs(float(v) - want) <= 5e-4 * want, f"step {s}: printed {v}, running max of the log {want:.4e}"
samples = rel[np.searchsorted(step, [int(s) for s, _ in lines])]
assert np.any(np.diff(samples) < 0), "the deck's sampled error never falls: it cannot tell max from sample"
summary = json.load(open(sys.argv[2] + "/summary.json"))["max_relative_change"]["energy"]
assert abs(summary - printed[-1]) <= 5e-4 * summary, (summary, printed[-1])
print(f"progress: 40 lines, running max {printed[0]:.3e} .. {printed[-1]:.3e}, samples fall {int(np.sum(np.diff(samples) < 0))} times")
PY
echo "progress OK"
