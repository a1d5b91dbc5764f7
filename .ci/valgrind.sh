#!/usr/bin/env bash
# CI stage (what the sanitizers cannot see: uninitialised reads, PETSc leaks): short runs of every driver under valgrind memcheck, on 1 rank (every
# deck in input/) and on 2 ranks (each driver's first deck): no invalid access, no uninitialised
# use, no definite leak, and PETSc's -malloc_debug -malloc_dump and -options_left clean (every
# PETSc object destroyed, every option used). Uses the normal (non-sanitizer) build.
#   bash .ci/valgrind.sh     env: KIRCHHOFF_BUILD (build folder, default build/; configured and
#                            the drivers built if missing), KIRCHHOFF_VALGRIND_STEPS (steps, 2)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KIRCHHOFF_BUILD:-$root/build}
steps=${KIRCHHOFF_VALGRIND_STEPS:-2}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
t_start=$SECONDS
stamp() { echo "valgrind: $* ($((SECONDS - t_start)) s)"; }
command -v valgrind >/dev/null || { echo "valgrind: not installed (apt-get install valgrind)" >&2; exit 1; }

drivers=()
for src in "$root"/drivers/kirchhoff-*.cpp; do drivers+=("$(basename "$src" .cpp)"); done
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$jobs" --target "${drivers[@]}"
stamp "drivers built"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  OMPI_MCA_ess_singleton_isolated=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
work=$(mktemp -d "${TMPDIR:-/tmp}/kirchhoff-valgrind-XXXXXX")
trap 'rm -rf "$work"' EXIT
vg=(valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite
    --errors-for-leak-kinds=definite --track-origins=yes --error-exitcode=99 --num-callers=40
    --suppressions=/usr/share/openmpi/openmpi-valgrind.supp
    --suppressions="$root/tests/sanitizers/valgrind.supp")
petsc=(-malloc_debug -malloc_dump -options_left)
failed=0
runs=0
check() {  # check NAME EXIT_CODE: memcheck errors, PETSc's unfreed memory, unused options
  local name=$1 code=$2 bad=""
  [ "$code" = 0 ] || bad="exit code $code"
  grep -Eq '^\[ *[0-9]+\] [0-9]+ bytes ' "$work/$name.out" && bad="$bad; PETSc memory not freed (-malloc_dump)"
  grep -Eq 'unused database option|Option left:|was not used' "$work/$name.out" && bad="$bad; unused PETSc options"
  grep -Eq 'ERROR SUMMARY: [1-9]' "$work/$name".vg.* && bad="$bad; memcheck errors"
  runs=$((runs + 1))
  if [ -n "$bad" ]; then
    echo "valgrind: FAILED $name: $bad" >&2
    cat "$work/$name.out" "$work/$name".vg.* >&2
    failed=1
  fi
}
for exe in "${drivers[@]}"; do
  model=${exe#kirchhoff-}
  decks=$(grep -lE "^model:[[:space:]]*$model([[:space:]]|$)" "$root"/input/*.yaml || true)
  [ -n "$decks" ] || { echo "valgrind: no deck in input/ for $exe" >&2; failed=1; continue; }
  for deck in $decks; do
    name=$(basename "$deck" .yaml)
    set +e
    "${vg[@]}" --log-file="$work/$name.vg.%p" "$build/bin/$exe" "$deck" -o "$work/$name" \
      --steps "$steps" "${petsc[@]}" >"$work/$name.out" 2>&1
    code=$?
    set -e
    check "$name" $code
  done
  first=$(echo $decks | cut -d' ' -f1)
  name=$(basename "$first" .yaml).np2
  set +e
  mpirun -n 2 "${vg[@]}" --log-file="$work/$name.vg.%p" "$build/bin/$exe" "$first" -o "$work/$name" \
    --steps "$steps" "${petsc[@]}" >"$work/$name.out" 2>&1
  code=$?
  set -e
  check "$name" $code
  stamp "$exe done"
done
[ $failed = 0 ] || { echo "valgrind: FAILED" >&2; exit 1; }
stamp "OK: $runs runs clean under memcheck (no errors, no definite leaks, PETSc objects freed)"
