#!/usr/bin/env bash
# PETSc options that change the discretisation, docs/running.md "Restart and wall-clock budgets":
# a restart with -panel_correction none was accepted (input/fluidbody_disk_vortex.yaml restarted at
# step 2000: the log's largest energy change 0.040, 2.5e-4 straight); now it is refused (65,
# naming the option) unless --new-log starts a new log.
# Solver options (tolerances, the solver path) may change; they are recorded in the log.
source "$(dirname "$0")/lib.bash"
DRIVER=kirchhoff-fluidbody
cat > deck.yaml <<'YAML'
model: fluidbody
time: {dt: 0.01, steps: 20}
output: {checkpoint_interval: 10, progress_interval: 0}
fluid: {discretization: panel}
bodies:
  - shape: {type: ellipse, a: 1.0, b: 0.6, edges: 24}
    density: 1.0
vortices:
  - {position: [0.0, 1.8], circulation: 2.0}
YAML
expect_exit 0 run_np_t 60 1 deck.yaml -o pc --steps 10
for o in "-panel_correction none" "-panel_multipole_tol 1e-3"; do
  for np in 1 2; do
    expect_exit 65 run_np_t 60 $np deck.yaml -o pc --restart $o
    expect_output "cannot change these PETSc options into the same invariant log"
    expect_output "PETSc option ${o% *}: (absent) -> ${o#* }"
    expect_output "--new-log"
  done
done
$PY -c "import h5py,sys; f=h5py.File(sys.argv[1]); assert 'petsc_options' in f.attrs" pc/checkpoints/checkpoint_0000000010.h5 \
  || fail "the checkpoint does not store the PETSc options"
# In the deck's petsc_options, the same.
sed 's/^output:/petsc_options: "-panel_correction none"\noutput:/' deck.yaml > none.yaml
expect_exit 65 run_np_t 60 1 none.yaml -o pc --restart
expect_output "PETSc option -panel_correction: (absent) -> none"
# Solver options may change, and are recorded.
expect_exit 0 run_np_t 60 1 deck.yaml -o pc --restart --steps 15 -del_snes_rtol 1e-13 -panel_solver ksp
expect_output "deck changes since the checkpoint (allowed): PETSc option -del_snes_rtol: (absent) -> 1e-13; PETSc option -panel_solver: (absent) -> ksp"
$PY -c "import h5py,sys; a=h5py.File(sys.argv[1]).attrs['restart_changes']; a=a.decode() if isinstance(a,bytes) else a; assert 'step 10: PETSc option -del_snes_rtol' in a, a" pc/invariants.h5
# --new-log: a new log from the checkpoint, with the other discretisation.
expect_exit 0 run_np_t 60 1 deck.yaml -o other --restart pc/checkpoints/checkpoint_0000000010.h5 --new-log -panel_correction none
expect_output "PETSc option -panel_correction: (absent) -> none"
echo "restart options OK"
