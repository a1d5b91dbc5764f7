#!/usr/bin/env bash
# A sweep locks its OUTDIR as a whole (docs/running.md "Sweeps"): a second sweep on the same
# folder is refused (64, naming the holder) before it touches any case; the first finishes every
# case. It was refused for case000 only, ran case001, and the first then failed there (64).
# The first sweep is held (SIGSTOP) while the second tries: without that, a fast machine finished
# the first sweep before the second had started, and the second then met a free folder.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > sweep.yaml <<'YAML'
model: fluidbody
time: {dt: 0.001, steps: 100000000}
output: {progress_interval: 0, checkpoint_interval: 10000}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
sweep:
  parameters:
    - {key: "vortices[1].circulation", values: [0.7, 0.8]}
YAML
"$BIN/$DRIVER" sweep.yaml -o sw --steps 40000 >first.out 2>&1 & pid=$!
for _ in $(seq 200); do [ -s sw/.kirchhoff.lock ] && break; sleep 0.05; done
[ -s sw/.kirchhoff.lock ] || fail "the sweep does not lock its folder sw (no sw/.kirchhoff.lock)"
holder=$(sed -n 's/^pid=//p' sw/.kirchhoff.lock)
[ "$holder" = "$pid" ] || fail "the sweep folder is not locked by the first sweep (lock names '$holder')"
kill -STOP $pid || fail "the first sweep ended before the second could try (first.out: $(cat first.out))"
set +e; run_np_t 60 1 sweep.yaml -o sw --steps 40000 >last.out 2>&1; got=$?; set -e
kill -CONT $pid
[ $got = 64 ] || { cat last.out >&2; fail "the second sweep exited $got, expected 64"; }
expect_output "sw is in use by another kirchhoff run (host $(hostname), pid $pid"
! grep -q "case00" last.out || fail "the refused sweep started a case: $(cat last.out)"
set +e; wait $pid; code=$?; set -e
[ $code = 0 ] || { cat first.out; fail "the first sweep exited $code"; }
for c in case000 case001; do
  [ "$($CMP newest sw/$c/checkpoints)" = 40000 ] || fail "$c did not finish"
done
[ ! -s sw/.kirchhoff.lock ] || fail "the sweep's lock still names a holder"
# --case N of a job array locks only its case: two tasks run side by side.
expect_exit 0 run_np_t 60 1 sweep.yaml -o arr --case 1 --steps 10
echo "sweep lock OK"
