#!/usr/bin/env bash
# kirchhoff's own PETSc options (registered the PETSc way, docs/running.md): -help lists each with its default, a bad value of
# each is one line and exit 65 (also on 2 ranks), and -log_view shows the kirchhoff stages/events.
# The option list is read from the sources, so a new option without a test entry fails here.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 3}
output: {progress_interval: 0}
bodies:
  - shape: {type: circle, radius: 1.0, edges: 32}
    density: 1.0
    pose: {theta: 0.0, position: [0.0, 0.0]}
vortices:
  - {position: [2.5, 0.0], circulation: 1.0}
YAML
# Every own option is registered (no plain PetscOptionsGet* left in src/, except GetAll for the log).
left=$(grep -rn "PetscOptionsGet[A-Z]" "$SRC/src" | grep -v "PetscOptionsGetAll" || true)
[ -z "$left" ] || fail "options read without PetscOptionsBegin/End (invisible to -help): $left"
# The options: "-name" of PetscOptions*(...) calls; the prefix is the solver's (del_, panel_).
options=()
for f in integrators/DelSolver.cpp:del_ fluid/PanelFluid.cpp:panel_; do
  file=${f%%:*} prefix=${f##*:}
  for o in $(grep -o 'PetscOptions[A-Za-z]*("-[a-z_]*"' "$SRC/src/$file" | sed 's/.*"-\([a-z_]*\)"/\1/'); do
    options+=("-$prefix$o")
  done
done
[ ${#options[@]} -ge 7 ] || fail "found only ${#options[@]} options in the sources: ${options[*]}"
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o help -help
[ ! -e help ] || fail "-help must not run the deck or write its output folder"
for o in "${options[@]}"; do
  # (PETSc prints a PetscOptionsBool as "-name: <now-value : default>", the others as "<now x : formerly y>")
  grep -qE -- "^ *$o( <now [^ ]+ : formerly [^ ]+>|: <(TRUE|FALSE) : (TRUE|FALSE)>)" last.out || { grep -- "$o" last.out >&2 || true; fail "-help does not list $o with its default"; }
done
grep -qF -- "-del_jacobian <now lagged : formerly lagged>" last.out || fail "-del_jacobian default (lagged) not shown"
grep -qF -- "-panel_direct_max <now 2048" last.out || fail "-panel_direct_max default (2048) not shown"
# Values given with -help show as "now"; without a deck, -help says what it needs.
expect_exit 0 "$BIN/$DRIVER" deck.yaml -help -del_jacobian_lag 7
expect_output "-del_jacobian_lag <now 7 : formerly 10>"
expect_exit 64 "$BIN/$DRIVER" -help
expect_output "-help lists the PETSc and kirchhoff options of the solvers a deck builds: give a deck"
# A bad value of each: exit 65, one line naming the option and the reason.
declare -A bad=(
  [-del_jacobian]="foo|Unknown option foo for -del_jacobian. Available options: fd approximate lagged newton_krylov coupled"
  [-del_coupled_rtol]="2|must be a number in (0, 1)"
  [-del_jacobian_lag]="0|less than allowed bound 1"
  [-del_jacobian_fd_tail]="99|greater than allowed bound 5"
  [-panel_correction]="turn|Unknown option turn for -panel_correction. Available options: auto none turning flux"
  [-panel_solver]="lu|Unknown option lu for -panel_solver. Available options: auto direct ksp"
  [-panel_direct_max]="-1|less than allowed bound 0"
  [-panel_direct_factorization]="elemental|Unknown option elemental for -panel_direct_factorization. Available options: redundant scalapack mumps"
  [-panel_cache_max]="1.5|Input string 1.5 has no integer value"
  [-panel_operator]="tree|Unknown option tree for -panel_operator. Available options: dense fast auto"
  [-panel_multipole_order]="-1|less than allowed bound 0"
  [-panel_multipole_eta]="0.5|must be a number > 1"
  [-panel_multipole_tol]="0|must be a number in (0, 1)"
  [-panel_vortex_leaf_size]="0|less than allowed bound 1"
  [-panel_warm_start]="maybe|Unknown logical value: maybe"
  [-panel_relaxation]="maybe|Unknown logical value: maybe"
)
for o in "${options[@]}"; do
  [ -n "${bad[$o]:-}" ] || fail "no bad-value case for $o in this test"
  value=${bad[$o]%%|*} reason=${bad[$o]#*|}
  for np in 1 2; do
    expect_exit 65 run_np $np deck.yaml -o bad --overwrite "$o" "$value"
    # One line from the driver (on 2 ranks mpirun adds its own report of the exit code).
    lines=$(if [ $np = 1 ]; then wc -l < last.out; else grep -c "error" last.out; fi)
    [ "$lines" = 1 ] || { cat last.out >&2; fail "$o $value on $np rank(s): not one line"; }
    expect_output "error: PETSc option $o: "
    expect_output "$reason"
  done
done
# The deck's petsc_options are checked the same way.
sed 's/^output:/petsc_options: "-del_jacobian_lag -3"\noutput:/' deck.yaml > opts.yaml
expect_exit 65 "$BIN/$DRIVER" opts.yaml -o bad --overwrite
expect_output "error: PETSc option -del_jacobian_lag: Newly set value -3 less than allowed bound 1"
# PETSc's own options of the solvers: one line naming the option (a traceback on every rank and
# exit 1 before), from the command line or the deck, on 1 and 2 ranks.
for np in 1 2; do
  expect_exit 65 run_np $np deck.yaml -o bad --overwrite -del_snes_rtol abc
  expect_output "error: PETSc option -del_snes_rtol abc: Input string abc has no numeric value"
  ! grep -q "PETSC ERROR" last.out || { cat last.out >&2; fail "a PETSc traceback on $np rank(s)"; }
  [ "$(grep -c error last.out)" = 1 ] || { cat last.out >&2; fail "-del_snes_rtol abc: not one line on $np rank(s)"; }
done
sed 's/^output:/petsc_options: "-panel_solver ksp -panel_pc_type nope"\noutput:/' deck.yaml > pc.yaml
expect_exit 65 "$BIN/$DRIVER" pc.yaml -o bad --overwrite
expect_output "error: PETSc option -panel_pc_type nope: Unable to find requested PC type nope"
# Integers PETSc would wrap around (99999999999999999999 became -1, 4294967297 became 1).
for v in 99999999999999999999 4294967297; do
  expect_exit 65 "$BIN/$DRIVER" deck.yaml -o bad --overwrite -del_jacobian_lag $v
  expect_output "error: PETSc option -del_jacobian_lag $v: out of range, PETSc integers hold at most 2147483647"
done
# Out of memory at set-up (8000 vortices: a 16000^2 dense Jacobian under a 1.5 GB limit): one
# line, exit 71, no traceback.
$PY -c "
import random
random.seed(1)
print('model: fluidbody\ntime: {dt: 0.01, steps: 2}\noutput: {progress_interval: 0}\nvortices:')
for i in range(8000):
    print('  - {position: [%.6f, %.6f], circulation: %.4f}' % (random.uniform(-50, 50), random.uniform(-50, 50), random.uniform(-1, 1)))
" > many.yaml
expect_exit 71 bash -c "ulimit -v 1500000; exec '$BIN/$DRIVER' many.yaml -o oom"
expect_output "error: out of memory in DelSolver set-up"
! grep -q "PETSC ERROR" last.out || { cat last.out >&2; fail "a PETSc traceback when out of memory"; }
# A good value is used (no 'was not used' warning) and changes the solve.
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o fd --overwrite -del_jacobian fd -panel_solver ksp
! grep -q "was not used" last.out || fail "a kirchhoff option was reported unused"
# -log_view: the stages and every kirchhoff event, with counts.
expect_exit 0 "$BIN/$DRIVER" deck.yaml -o lv --overwrite -log_view
for s in "kirchhoff set-up" "kirchhoff time steps"; do expect_output "$s:"; done
for e in PanelAssembly PanelFactor PanelSolve PanelGradient DELResidual DELJacobian IOCheckpoint IOInvariantLog; do
  grep -qE "^$e +[1-9]" last.out || { cat last.out >&2; fail "-log_view lacks event $e"; }
done
# Snapshots: IOSnapshot appears when the deck writes them.
sed 's/progress_interval: 0}/progress_interval: 0, snapshot_interval: 1}/' deck.yaml > snap.yaml
expect_exit 0 "$BIN/$DRIVER" snap.yaml -o lvs --overwrite -log_view
grep -qE "^IOSnapshot +[1-9]" last.out || fail "-log_view lacks event IOSnapshot"
echo "petsc options OK"
