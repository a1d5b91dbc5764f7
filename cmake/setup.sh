#!/usr/bin/env bash
# The two README commands: install what is missing (Debian packages, idempotent), configure
# build/ once, then `run` builds the library and the one driver it runs and runs the default deck,
# `test` builds the rest and runs the suite (the same configuration: it compiles only what run did not).
#   bash cmake/setup.sh run   [extra driver arguments, e.g. --steps 20]
#   bash cmake/setup.sh test  [extra ctest arguments, e.g. -L unit]
#   bash cmake/setup.sh build [extra cmake --build arguments]
# Environment: KIRCHHOFF_BUILD (build folder, default build/ in the checkout), KIRCHHOFF_CMAKE_ARGS
# (extra configure arguments; setting it reconfigures an existing folder), NP (ranks for run, 1).
set -euo pipefail
# -P: the checkout itself even when cmake/ is reached through a symbolic link (the README test).
root=$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-run}
shift || true
case "$mode" in
  run|test|build) ;;
  *) echo "usage: bash cmake/setup.sh run|test|build [arguments]" >&2; exit 64 ;;
esac
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
  echo "setup: not a Debian system; install the packages listed in docs/running.md (or use PETSC_DIR) yourself"
fi

# OpenMPI as root (containers, CI) and more ranks than cores on small machines.
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_rmaps_base_oversubscribe=1

# One configuration for every mode (Release, -Werror as in CI), made once: run and test then share
# every object. An existing folder keeps its configuration (cmake --build re-runs cmake itself when
# a CMakeLists.txt changed) unless KIRCHHOFF_CMAKE_ARGS asks for other settings.
jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f "$build/CMakeCache.txt" ] || [ -n "${KIRCHHOFF_CMAKE_ARGS:-}" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKIRCHHOFF_WERROR=ON ${KIRCHHOFF_CMAKE_ARGS:-}
else
  echo "setup: $build keeps its configuration (KIRCHHOFF_CMAKE_ARGS=\"-D...\" to change it)"
fi

case "$mode" in
  run)
    # One rank unless NP says otherwise: the default deck is one disk of 64 panels, whose dense
    # system every rank would factor redundantly (2 ranks: 3x slower). Ranks pay off for many
    # panels and for sweeps (docs/performance.md).
    cmake --build "$build" -j"$jobs" --target kirchhoff-fluidbody
    deck="$root/input/fluidbody_disk_vortex.yaml"
    np=${NP:-1}
    echo "setup: mpirun -n $np $build/bin/kirchhoff-fluidbody $deck $*"
    exec mpirun -n "$np" "$build/bin/kirchhoff-fluidbody" "$deck" "$@"
    ;;
  test)
    cmake --build "$build" -j"$jobs"
    exec ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@"
    ;;
  build)
    exec cmake --build "$build" -j"$jobs" "$@"
    ;;
esac
