#!/usr/bin/env bash
# Where a from-scratch build's time goes (the table in docs/performance.md, "Building and testing"):
# configures BUILD as setup.sh does, ccache off, every object timed by this script as the compiler
# launcher, builds TARGETS (default: everything) and prints user + sys CPU seconds per part.
#   bash cmake/build_times.sh BUILD [targets...]      env: JOBS (2), KIRCHHOFF_CMAKE_ARGS
set -euo pipefail
if [ "${1:-}" = --compile ]; then  # launcher mode: time one compile, append "cpu object" to the log
  shift
  out=?; prev=
  for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
  t=$(mktemp); rc=0
  /usr/bin/time -f "%U %S" -o "$t" "$@" || rc=$?
  echo "$(awk '{print $1 + $2}' "$t" | tail -1) $out" >>"${BUILD_TIMES_LOG:-/dev/null}"  # (a rebuild outside this script: not logged)
  rm -f "$t"; exit $rc
fi
root=$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: bash cmake/build_times.sh BUILD [targets...]}
shift
[ ! -e "$build" ] || { echo "build_times: $build exists; give a new folder (a from-scratch build)" >&2; exit 64; }
export BUILD_TIMES_LOG=$build/build_times.log CCACHE_DISABLE=1
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKIRCHHOFF_WERROR=ON -DKIRCHHOFF_CCACHE=OFF \
  -DCMAKE_CXX_COMPILER_LAUNCHER="bash;$root/cmake/build_times.sh;--compile" ${KIRCHHOFF_CMAKE_ARGS:-} >/dev/null
: >"$BUILD_TIMES_LOG"
targets=()
for t in "$@"; do targets+=(--target "$t"); done
/usr/bin/time -f "%U %S %e" -o "$build/build_times.total" cmake --build "$build" -j"${JOBS:-2}" "${targets[@]}" >"$build/build_times.out"
read -r user sys wall <"$build/build_times.total"
awk -v user="$user" -v sys="$sys" -v wall="$wall" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
  { o = $2; t = $1
    if (o ~ /CMakeFiles\/kirchhoff_(core|fluid|fluidbody|top|damped|slosh)\.dir\//) p = "libraries (src/)"
    else if (o ~ /CMakeFiles\/kirchhoff-/) p = "drivers"
    else if (o ~ /bench_/) p = "benchmarks"
    else if (o ~ /test_|gtest|fuzz/) p = "tests"
    else p = "other (precompiled headers)"
    n[p]++; s[p] += t; all += t }
  END {
    total = user + sys
    print "| part | objects | CPU s |"; print "|---|---|---|"
    for (p in n) printf "| %s | %d | %.0f |\n", p, n[p], s[p]
    printf "| linking and the rest | | %.0f |\n", total - all
    printf "| **whole build** (wall %.0f s, load %s) | | **%.0f** |\n", wall, load, total }' "$BUILD_TIMES_LOG"
echo
echo "heaviest objects (CPU s):"
sort -rn "$BUILD_TIMES_LOG" | head -8
