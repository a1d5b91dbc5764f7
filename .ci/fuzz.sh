#!/usr/bin/env bash
# CI stage (hostile decks and damaged checkpoints must fail cleanly): libFuzzer targets (clang-14, ASan + UBSan) for the deck reader and
# the checkpoint reader, built in the sanitizer stage's build-asan/ (configured here if missing).
# Replays the corpora and every saved finding (fuzz_replay), then fuzzes each target for a bounded time. Any crash, hang (> timeout), leak,
# out-of-memory or undocumented exception fails the stage; the input is kept as an artifact.
#   bash .ci/fuzz.sh     env: KIRCHHOFF_FUZZ_BUILD (build folder, build-asan/), KIRCHHOFF_FUZZ_SECONDS
#                        (per target, 40), KIRCHHOFF_FUZZ_CORPUS (grown corpora, kept between runs:
#                        BUILD/corpus), KIRCHHOFF_FUZZ_TIMEOUT (seconds per input, 30)
# Longer runs: tests/fuzz/README.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KIRCHHOFF_FUZZ_BUILD:-${KIRCHHOFF_ASAN_BUILD:-$root/build-asan}}
seconds=${KIRCHHOFF_FUZZ_SECONDS:-40}
timeout=${KIRCHHOFF_FUZZ_TIMEOUT:-30}
corpus=${KIRCHHOFF_FUZZ_CORPUS:-$build/corpus}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
t_start=$SECONDS
stamp() { echo "fuzz: $* ($((SECONDS - t_start)) s)"; }
command -v clang++-14 >/dev/null || { echo "fuzz: clang++-14 missing (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 1; }

# The sanitizer stage's build (.ci/sanitize.sh configures it with the fuzzers): configure it the
# same way if this stage runs alone, then build only the fuzz targets.
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DKIRCHHOFF_FUZZ=ON -DKIRCHHOFF_SANITIZE=ON -DKIRCHHOFF_WERROR=ON \
    -DKIRCHHOFF_TESTS=ON -DKIRCHHOFF_BENCHMARKS=OFF >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log"; exit 1; }
fi
cmake --build "$build" -j"$jobs" --target kirchhoff_fuzzers
stamp "build done"

supp=$root/tests/sanitizers
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_ess_singleton_isolated=1
export KIRCHHOFF_FUZZ_TMP=${KIRCHHOFF_FUZZ_TMP:-/dev/shm}
[ -w "$KIRCHHOFF_FUZZ_TMP" ] || export KIRCHHOFF_FUZZ_TMP=/tmp
# Targets that start MPI need exact unwinding for the OpenMPI leak suppressions (slower).
slow_unwind="fast_unwind_on_malloc=0:malloc_context_size=30"

(cd "$build" && ASAN_OPTIONS=$slow_unwind "$build/bin/fuzz_replay" --gtest_color=no)
stamp "replay of corpora and saved findings OK"

artifacts=$build/fuzz-artifacts
rm -rf "$artifacts"; mkdir -p "$artifacts"
# Each target fuzzes for $seconds; $jobs targets at a time (one core each).
fuzz_one() {  # fuzz_one EXE: runs it, writes $artifacts/NAME.log and NAME.code
  local exe=$1 name seeds extra asan code
  name=$(basename "$exe")
  mkdir -p "$corpus/$name"
  case $name in
    fuzz_deck_*) seeds=("$root/input" "$root/tests/fuzz/corpus/deck" "$root/tests/fuzz/regressions/deck")
                 extra=(-dict="$root/tests/fuzz/deck.dict" -max_len=8192); asan="" ;;
    fuzz_checkpoint) seeds=("$root/tests/fuzz/corpus/checkpoint" "$root/tests/fuzz/regressions/checkpoint")
                 extra=(-max_len=16384); asan=$slow_unwind ;;
    *) seeds=(); extra=(); asan=$slow_unwind ;;
  esac
  set +e
  ASAN_OPTIONS=$asan "$exe" "$corpus/$name" "${seeds[@]}" "${extra[@]}" -max_total_time="$seconds" \
    -timeout="$timeout" -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$name-" -error_exitcode=77 -timeout_exitcode=78 >"$artifacts/$name.log" 2>&1
  code=$?
  set -e
  echo $code >"$artifacts/$name.code"
}
targets=()
for exe in "$build"/bin/fuzz_*; do
  [ "$(basename "$exe")" = fuzz_replay ] || targets+=("$exe")
done
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no fuzz targets in $build/bin" >&2; exit 1; }
running=0
for exe in "${targets[@]}"; do
  fuzz_one "$exe" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait
stamp "${#targets[@]} targets fuzzed, $seconds s each, $jobs at a time"

failed=0
summary=""
for exe in "${targets[@]}"; do
  name=$(basename "$exe")
  log=$artifacts/$name.log
  code=$(cat "$artifacts/$name.code" 2>/dev/null || echo "?")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  units=$(ls "$corpus/$name" | wc -l)
  summary+="$(printf '%-22s %10s execs %6s/s  %-22s corpus %5s  exit %s' "$name" "${execs:-?}" "${rate:-?}" "${cov:-?}" "$units" "$code")"$'\n'
  if [ "$code" != 0 ] || ls "$artifacts/$name-"* >/dev/null 2>&1; then
    echo "fuzz: $name FAILED (exit $code); input(s): $(ls "$artifacts/$name-"* 2>/dev/null | tr '\n' ' ')" >&2
    grep -E 'finding|ERROR|SUMMARY|runtime error' "$log" | head -20 >&2
    failed=1
  fi
done
printf '%s' "$summary"
[ $failed = 0 ] || { echo "fuzz: FAILED; reproduce with BIN/fuzz_<target> <input>, add the input to tests/fuzz/regressions/" >&2; exit 1; }
stamp "OK"
