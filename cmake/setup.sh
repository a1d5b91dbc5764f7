#!/usr/bin/env bash
# The two README commands: install what is missing (Debian packages, idempotent), configure and
# build kirchhoff in build/, then `run` the main job on the default deck or `test` the suite.
#   bash cmake/setup.sh run  [extra driver arguments]
#   bash cmake/setup.sh test [extra ctest arguments]
# Environment: KIRCHHOFF_BUILD (build folder, default build), KIRCHHOFF_CMAKE_ARGS, NP (ranks, 2).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-run}
shift || true
build=${KIRCHHOFF_BUILD:-$root/build}

packages=(petsc-dev libopenmpi-dev openmpi-bin libhdf5-openmpi-dev libeigen3-dev libgtest-dev
          libyaml-cpp-dev libbenchmark-dev pkg-config cmake g++ make git
          python3-numpy python3-scipy python3-matplotlib python3-h5py)

install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

if command -v dpkg-query >/dev/null; then
  install_missing "${packages[@]}"
else
  echo "setup: not a Debian system; install the packages listed in README (or use PETSC_DIR) yourself"
fi

# OpenMPI as root (containers, CI) and more ranks than cores on small machines.
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_rmaps_base_oversubscribe=1

jobs=$(nproc 2>/dev/null || echo 2)
werror=OFF
[ "$mode" = test ] && werror=ON
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKIRCHHOFF_WERROR=$werror ${KIRCHHOFF_CMAKE_ARGS:-}
cmake --build "$build" -j"$jobs"

case "$mode" in
  run)
    deck="$root/input/fluidbody_disk_vortex.yaml"
    cd "$root"
    exec mpirun -n "${NP:-2}" "$build/bin/kirchhoff-fluidbody" "$deck" -o out/disk_vortex "$@"
    ;;
  test)
    exec ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@"
    ;;
  build) ;;
  *) echo "usage: bash cmake/setup.sh run|test|build" >&2; exit 64 ;;
esac
