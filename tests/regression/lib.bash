# Helpers for the regression scripts: paths, MPI as root, assertions with clear messages.
set -euo pipefail
BIN=${KIRCHHOFF_BIN_DIR:?set by ctest}
SRC=${KIRCHHOFF_SOURCE_DIR:?set by ctest}
PY=/usr/bin/python3
CMP="$PY $SRC/tests/regression/h5compare.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_ess_singleton_isolated=1
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kirchhoff-$(basename "$0" .sh)-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_exit CODE CMD...: runs CMD, keeps its output in last.out, checks the exit code.
expect_exit() {
  local want=$1; shift
  set +e; "$@" >last.out 2>&1; local got=$?; set -e
  [ "$got" = "$want" ] || { cat last.out >&2; fail "'$*' exited $got, expected $want"; }
}
expect_output() { grep -qF -- "$1" last.out || { cat last.out >&2; fail "output lacks: $1"; }; }
# run_np N ARGS...: $DRIVER on N ranks (N = 1: singleton, no mpirun)
run_np() {
  local np=$1; shift
  if [ "$np" = 1 ]; then "$BIN/$DRIVER" "$@"; else mpirun -n "$np" "$BIN/$DRIVER" "$@"; fi
}
# run_np_t SECONDS N ARGS...: run_np under `timeout -k 5 SECONDS`, so a hang fails (exit 124)
run_np_t() {
  local t=$1 np=$2; shift 2
  if [ "$np" = 1 ]; then timeout -k 5 "$t" "$BIN/$DRIVER" "$@"
  else timeout -k 5 "$t" mpirun -n "$np" "$BIN/$DRIVER" "$@"; fi
}
# one_body_deck TIME OUTPUT EDGES: on stdout, the one-body fluidbody deck of the restart tests
# (an ellipse a = 1, b = 0.6 of EDGES panels, density 1; one vortex of circulation 2 at (0, 1.8))
# with the given time: and output: maps.
one_body_deck() {
  cat <<YAML
model: fluidbody
time: $1
output: $2
bodies:
  - shape: {type: ellipse, a: 1.0, b: 0.6, edges: $3}
    density: 1.0
vortices:
  - {position: [0.0, 1.8], circulation: 2.0}
YAML
}
# three_vortex_deck TIME OUTPUT: on stdout, the fluidbody deck of three free vortices (no body)
# with the given time: and output: maps.
three_vortex_deck() {
  cat <<YAML
model: fluidbody
time: $1
output: $2
vortices:
  - {position: [0.0, 0.0], circulation: 1.0}
  - {position: [1.0, 0.2], circulation: 0.7}
  - {position: [-0.3, 1.1], circulation: -0.4}
YAML
}
