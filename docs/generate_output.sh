#!/usr/bin/env bash
# Regenerates the column tables of docs/output.md ("The invariant log") from the models' own
# declarations (kirchhoff-<driver> --log-reference), so the documented columns cannot drift from
# what the drivers write. Usage: bash docs/generate_output.sh [BUILD/bin] [OUT (default docs/output.md)]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/bin}
out=${2:-$here/output.md}
export OMPI_MCA_ess_singleton_isolated=1
tables=$(mktemp)
next=$(mktemp)
trap 'rm -f "$tables" "$next"' EXIT
for d in fluidbody top damped slosh; do
  if [ -x "$bin/kirchhoff-$d" ]; then
    "$bin/kirchhoff-$d" --log-reference >> "$tables"
  fi
done
echo >> "$tables"
# Everything outside the markers is kept as written; between them, the tables.
awk -v tables="$tables" '
  /^<!-- begin generated: docs\/generate_output.sh/ { print; while ((getline line < tables) > 0) print line; skip = 1; next }
  /^<!-- end generated -->/ { skip = 0 }
  !skip { print }' "$here/output.md" > "$next"
grep -q '^<!-- end generated -->' "$next" || { echo "generate_output.sh: no markers in $here/output.md" >&2; exit 1; }
cp "$next" "$out"
