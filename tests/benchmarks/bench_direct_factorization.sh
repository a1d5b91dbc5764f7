#!/usr/bin/env bash
# Benchmark (not a test) of -panel_direct_factorization (docs/fluidbody.md "Panel method"): one DEL
# evaluation of the bench_fluidbody --evaluations grid on the direct path, 1 rank against 2 ranks
# (redundant Eigen LU, ScaLAPACK, MUMPS): ms/eval, seconds per factorization (PanelFactor of -log_view)
# and peak resident memory per rank. Run: tests/benchmarks/bench_direct_factorization.sh [build] [bodies...]
set -euo pipefail
BUILD=${1:-build}
shift || true
BODIES=${*:-18 30 61}
BIN=$BUILD/bin/bench_fluidbody
export OMPI_MCA_rmaps_base_oversubscribe=1
echo "# bench_direct_factorization: $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| bodies | N + n | ranks | factorization | ms/eval (FB-22a) | s/factor | peak RSS/rank (MB) |"
echo "|---|---|---|---|---|---|---|"
for n in $BODIES; do
  for run in "1 redundant" "2 redundant" "2 scalapack" "2 mumps"; do
    set -- $run
    out=$(mpirun -n "$1" /usr/bin/time -f "peak-rss-kB %M" "$BIN" --evaluations "$n" -panel_solver direct \
          -panel_direct_factorization "$2" -log_view 2>&1)
    ms=$(echo "$out" | awk -F'|' -v n="$n" '$2+0 == n && $4 ~ /LU/ {print $6+0}')
    factor=$(echo "$out" | awk '$1 == "PanelFactor" {printf "%.3f", $4 / $2}')
    rss=$(echo "$out" | awk '$1 == "peak-rss-kB" {if ($2 > m) m = $2} END {printf "%.0f", m / 1024}')
    echo "| $n | $((33 * n)) | $1 | $2 | $ms | $factor | $rss |"
  done
done
echo
echo "# load average $(cut -d' ' -f1 /proc/loadavg) at end"
