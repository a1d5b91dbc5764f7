#!/usr/bin/env bash
# SLURM chains that cannot double up (two chains would write one folder) on the real one-machine cluster
# (tests/slurm/fixture.sh): two `submit`s of one deck and folder give one chain (the second is
# refused, exit 64, naming the pending job), every link has the folder's job name and
# --dependency=singleton, a link requeued while its successor is pending does not submit a
# second one, and the chain's log and final state are bitwise equal to a straight run's.
# Skips (77) only where SLURM cannot be installed.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
FIX=$SRC/tests/slurm/fixture.sh
JS=$SRC/jobscripts
set +e; bash "$FIX" start "$WORK/cluster"; rc=$?; set -e
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "the SLURM fixture did not start (exit $rc)"
trap 'bash "$FIX" stop "$WORK/cluster"; rm -rf "$WORK"' EXIT
eval "$(bash "$FIX" env "$WORK/cluster")"
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.001, steps: 150000}
output: {checkpoint_interval: 1000, log_interval: 10, progress_interval: 0}
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
  - {position: [-0.3, 1.1], circulation: -0.4}
YAML
expect_exit 0 run_np_t 120 1 deck.yaml -o ref
# Two submits at once: one chain.
expect_exit 0 bash "$JS/submit" deck.yaml -o one -n 1 -t 5 --max-wall 3 --bin "$BIN"
first=$(cut -f1 one/slurm/jobs.tsv | head -1)
name=$(squeue -h -j "$first" -o %j)
[[ $name == kirchhoff-one-* ]] || fail "the job name '$name' is not derived from the folder"
grep -q -- "--dependency=singleton" one/slurm/submit.txt || fail "the first link was not submitted with --dependency=singleton"
expect_exit 64 bash "$JS/submit" deck.yaml -o one -n 1 -t 5 --max-wall 3 --bin "$BIN"
# The refusal lists the chain's jobs in squeue's order: by then the first link may be running and
# its successor pending ("2 PENDING; 1 RUNNING; "), so look for the first job anywhere in the list.
grep -qE "already has a chain in SLURM \(job name $name\): (.*; )?$first [A-Z]+;" last.out ||
  { cat last.out >&2; fail "the refusal does not name job $first"; }
# Requeue the first link while it runs (its successor is pending): it must reuse that successor.
for _ in $(seq 300); do grep -q "^running $first" one/slurm/state 2>/dev/null && break; sleep 0.2; done
grep -q "^running $first" one/slurm/state || fail "the first link did not start: $(cat one/slurm/state 2>&1)"
for _ in $(seq 100); do [ "$(wc -l < one/slurm/jobs.tsv)" -ge 2 ] && break; sleep 0.1; done
succ=$(sed -n 2p one/slurm/jobs.tsv | cut -f1)
[ -n "$succ" ] || fail "no successor was submitted"
dep=$(squeue -h -j "$succ" -o %E)
[[ $dep == *afterany:$first* && $dep == *singleton* ]] || fail "the successor's dependency is '$dep'"
[ "$(squeue -h -j "$succ" -o %j)" = "$name" ] || fail "the successor has another job name"
sleep 1
# The successor is held (still PENDING to squeue) until the requeued link has run again: once
# the requeue ends link 1, the successor's afterany is met, and SLURM may otherwise start it
# first (then the requeued link never meets it pending, and the check below has nothing to see).
scontrol hold "$succ" || fail "scontrol hold $succ was refused"
scontrol requeue "$first" || fail "scontrol requeue $first was refused"
echo "requeued link 1 ($first) while its successor $succ was pending (held)"
# The requeued link runs again (restart count 1), finds the held successor pending, submits no
# other, and names that job as its next link (the id alone: the note goes to the log only).
rerun() { grep -qE "restart count 1\) .*newest checkpoint step" one/slurm/*.out 2>/dev/null; }
for _ in $(seq 600); do
  rerun && break
  bash "$JS/status" --release -q one >/dev/null 2>&1 || true  # ends SLURM's ~2 min requeue hold
  sleep 0.2
done
rerun || { squeue -a -o "%i %j %T %r %E %V"; scontrol show job "$first"; tail -n 20 one/slurm/*.out
           fail "the requeued link did not run again within 2 minutes"; }
# status --release started it 5 s after its requeue (SubmitTime), well before SLURM's 2 minutes,
# and not in the second of the requeue, when slurmd refuses the launch and the job ends FAILED.
js=$(scontrol show job "$first" | tr ' ' '\n')
lag=$(( $(date -d "$(sed -n 's/^StartTime=//p' <<<"$js")" +%s) - $(date -d "$(sed -n 's/^SubmitTime=//p' <<<"$js")" +%s) ))
[ "$lag" -ge 5 ] && [ "$lag" -le 60 ] || { echo "$js" | grep -E 'Time=|Restarts'; fail "the requeued link started $lag s after its requeue (want 5..60)"; }
grep -q "the successor $succ of an earlier run of this job is pending; not submitting another" one/slurm/*.out ||
  { tail -n 20 one/slurm/*.out; fail "the requeued link did not reuse its pending successor $succ"; }
grep -qE "restart count 1\) .*, next link is job $succ\$" one/slurm/*.out ||
  { tail -n 20 one/slurm/*.out; fail "the requeued link did not take job $succ as its next link"; }
scontrol release "$succ" || fail "scontrol release $succ was refused"
for _ in $(seq 600); do
  set +e; bash "$JS/status" --release -q one >/dev/null 2>&1; c=$?; set -e
  [ $c = 3 ] || break
  sleep 0.5
done
bash "$JS/status" one || { tail -n 20 one/slurm/*.out; fail "the chain did not finish"; }
# every job submitted for the chain ran links, one after another
# (but the last link's successor, cancelled when the run finished)
idle=$(comm -23 <(cut -f1 one/slurm/jobs.tsv | sort -u) <(cut -f1 one/slurm/links.tsv | sort -u) | wc -l)
[ "$idle" -le 1 ] || { cat one/slurm/jobs.tsv one/slurm/links.tsv; fail "$idle submitted jobs ran no link (a doubled chain)"; }
grep -qP '\trequeued\t' one/slurm/links.tsv || { cat one/slurm/links.tsv; fail "the requeue was not recorded"; }
! grep -qP '\tcancelled\t' one/slurm/links.tsv || { cat one/slurm/links.tsv; fail "the requeue was taken for a cancel"; }
sort -t$'\t' -k3,3n one/slurm/links.tsv | awk -F'\t' 'NR > 1 && $3 < end { bad = 1 } { end = $4 } END { exit bad }' ||
  { cat one/slurm/links.tsv; fail "two links of one chain ran at once"; }
$CMP logs ref/invariants.h5 one/invariants.h5
$CMP state ref/checkpoints one/checkpoints
cat one/slurm/links.tsv
echo "SLURM singleton chains OK"
