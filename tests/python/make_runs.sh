#!/usr/bin/env bash
# Tiny runs of the shipped decks (all four drivers, a sweep, a flow field) for the Python tests:
# the ctest fixture python_runs writes them once into DIR, python_reader and python_scripts read
# them. Usage: make_runs.sh DIR (needs KIRCHHOFF_BIN_DIR and KIRCHHOFF_SOURCE_DIR, set by ctest).
set -euo pipefail
BIN=${KIRCHHOFF_BIN_DIR:?set by ctest}
IN=${KIRCHHOFF_SOURCE_DIR:?set by ctest}/input
OUT=${1:?usage: make_runs.sh DIR}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_ess_singleton_isolated=1
rm -rf "$OUT"
mkdir -p "$OUT/decks" "$OUT/.ompi"
cd "$OUT"
# A private OpenMPI session folder: singleton runs of concurrent ctest jobs otherwise share one
# under /tmp and collide (MPI-IO's shared-file-pointer component fails to open its file there).
export OMPI_MCA_orte_tmpdir_base="$OUT/.ompi"
trap 'rm -rf "$OUT/.ompi"' EXIT
# run DRIVER DECK OUTDIR [driver options]: one run, its output kept in OUTDIR.log
run() {
  local driver=$1 deck=$2 dir=$3; shift 3
  if ! "$BIN/kirchhoff-$driver" "$deck" -o "$dir" "$@" > "$dir.log" 2>&1; then
    cat "$dir.log" >&2
    echo "FAIL: kirchhoff-$driver $deck -o $dir $*" >&2
    exit 1
  fi
}
# deck NAME SED-EXPRESSION...: a copy of input/NAME.yaml with the edits, in decks/
deck() {
  local name=$1; shift
  local args=()
  for e in "$@"; do args+=(-e "$e"); done
  sed "${args[@]}" "$IN/$name.yaml" > "decks/$name.yaml"
  echo "decks/$name.yaml"
}

# fluidbody: disk + vortex with snapshots; ellipse + vortex; the channel (t = 0.6); the
# energy sweep (three cases); vortices only; two disks that collide; the Fig. 1 flow field on a coarse grid.
run fluidbody "$IN/fluidbody_disk_vortex.yaml" disk --steps 60
run fluidbody "$IN/fluidbody_ellipse_vortex.yaml" ellipse --steps 30
run fluidbody "$(deck fluidbody_channel 's/\[-5.0, 0.25\]/[-3.0, 0.25]/' 's/\[-5.0, -0.25\]/[-3.0, -0.25]/')" \
    channel --steps 60
run fluidbody "$(deck fluidbody_disk_vortex_energy 's/edges: 64}/edges: 32}/')" energy --steps 12
run fluidbody "$IN/fluidbody_vortex_kirchhoff3.yaml" kirchhoff3 --steps 100
# two disks head-on, one impact (64 nodes, contact distance 0.15, gap 0.3 at the start)
run fluidbody "$(deck fluidbody_contact_headon 's/edges: 256/edges: 64/' 's/distance: 0.001/distance: 0.15/' \
                 's/\[-2.0, 0.0\]/[-0.65, 0.0]/' 's/\[2.0, 0.0\]/[0.65, 0.0]/' 's/dt: 0.005/dt: 0.02/' \
                 's/snapshot_interval: 10/snapshot_interval: 5/')" contact --steps 60
run fluidbody "$(deck fluidbody_fig1 's/resolution: 281/resolution: 41/')" fig1 --flow-field
# top: the four schemes on the Kovalevskaya top, and the Lagrange top.
for s in "" _collective_explicit _direct_explicit _direct_implicit; do
  run top "$IN/top_kovalevskaya$s.yaml" "top$s" --steps 100
done
run top "$IN/top_lagrange.yaml" lagrange --steps 50
# damped: the pendulum (Phi_2S and a DOP853 reference), both rigid-body scenarios, the elastic pendulum.
run damped "$IN/damped_pendulum.yaml" pendulum --steps 200
run damped "$(deck damped_pendulum 's/method: phi_2s .*/method: dop853/' '/ordering:/d' '/composition:/d')" \
    pendulum_ref --steps 200
run damped "$IN/damped_rigid_body_A.yaml" rigidA --steps 200
run damped "$IN/damped_rigid_body_B.yaml" rigidB --steps 200
run damped "$IN/damped_elastic_pendulum.yaml" elastic --steps 100
# slosh: small amplitude with surface snapshots.
run slosh "$(deck slosh_small 's/snapshot_interval: 800/snapshot_interval: 100/' 's/log_interval: 4 /log_interval: 1 /')" \
    slosh --steps 800
echo "runs in $OUT: $(ls -d -- */ | tr -d / | tr '\n' ' ')"
